import type { Memory } from '../../../model/memory.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { writtenResult, type EditResult } from '../../core/results.ts';
import { findItem } from '../../core/lookup.ts';
import { itemFile, mutate, subjectOf } from '../../core/mutate.ts';

/** "Removes" a memory by archiving it: it stays in the tree and history but is no longer offered. */
export async function archiveMemory(kb: KnowledgeBase, input: { slug: string }): Promise<EditResult<Memory>> {
  const r = await mutate(kb, (state) => {
    const old = findItem<Memory>(state, 'memory', input.slug);
    if (old.status === 'archived') return { result: { item: old, changed: false } };
    const now = kb.now().toISOString();
    const item: Memory = { ...old, status: 'archived', archived_at: now, updated: now };
    const [path, text] = itemFile('memory', item);
    return { result: { item, changed: true }, files: new Map([[path, text]]), subject: subjectOf('memory', 'archive', undefined, item.title), event: 'memory.archived' };
  });
  return writtenResult(kb, 'memory', r);
}
