import { Memory, MemoryInput } from '../model/memory.ts';
import { assertNoSecrets } from '../model/secrets.ts';
import { parseInput } from '../model/validate.ts';
import type { WriteOptions } from './add-decision.ts';
import type { KnowledgeBase } from './kb.ts';
import { findDuplicate, freeSlug, locationOf, type AddResult } from './items.ts';
import { itemFile, mutate, subjectOf } from './mutate.ts';

/** Saves a feedback or pattern memory in one commit; an active memory of the same type and
 * normalized title is returned instead (duplicate: true). */
export async function addMemory(kb: KnowledgeBase, input: MemoryInput, opts: WriteOptions = {}): Promise<AddResult<Memory>> {
  const data = parseInput(MemoryInput, input, 'memory');
  assertNoSecrets({ title: data.title, description: data.description, body: data.body, keywords: data.keywords }, !!opts.allowSecret);
  const r = await mutate(kb, (state) => {
    const dup = findDuplicate(kb, state.items.memory, data.title, (m) => m.status === 'active' && m.type === data.type);
    if (dup) return { result: { item: dup, duplicate: true } };
    const now = kb.now().toISOString();
    const item = Memory.parse({ ...data, slug: freeSlug(state, 'memory', data.title), status: 'active', source: kb.actor, session: kb.session, created: now, updated: now });
    const [path, text] = itemFile('memory', item);
    return { result: { item, duplicate: false }, files: new Map([[path, text]]), subject: subjectOf('memory', 'add', undefined, `${item.title} (${item.type})`), event: 'memory.added' };
  });
  const path = `memories/${r.result.item.slug}.md`;
  return { ...r.result, path, location: locationOf(kb, path), commit: r.commit };
}
