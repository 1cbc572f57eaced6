import { after, before } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { searchKnowledge } from '../../src/knowledge/views/search.ts';
import { openTestKb, tempRepo } from '../helpers.ts';

/**
 * For the tests of the enclosing `describe`: a store holding `notes` (title, description) as
 * pattern memories, made in its `before` and removed in its `after`, with one knowledge base kept
 * open across the tests (the index warm, as in the MCP server). Searches through `searchKnowledge`.
 */
export function useNoteStore(notes: ReadonlyArray<readonly [string, string]>) {
  let repo: ReturnType<typeof tempRepo>;
  let kb: KnowledgeBase;
  before(async () => {
    repo = tempRepo();
    kb = await openTestKb(repo.dir);
    await initStore(kb);
    for (const [title, description] of notes) await addMemory(kb, { type: 'pattern', title, description });
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    repo.cleanup();
  });
  const search = (query: string) => searchKnowledge(kb, { query });
  return {
    search,
    /** the slugs ranked for `query`, best first */
    slugs: async (query: string) => (await search(query)).hits.map((h) => h.slug),
    /** the score `query` gives the item `slug` (0 when it is not found) */
    scoreOf: async (query: string, slug: string) => (await search(query)).hits.find((h) => h.slug === slug)?.score ?? 0,
  };
}
