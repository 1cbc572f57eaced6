import type { Memory } from '../../../model/memory.ts';
import { assertVersion } from '../../core/item-version.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { findItem } from '../../core/lookup.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import { type EditResult, type WriteOptions, writtenResult } from '../../core/results.ts';
import { putItem, type Staged, single, stage } from '../../core/staging.ts';

/** Stages the archiving of a memory; one already archived (or superseded: already retired) is returned unchanged. */
export function planArchiveMemory(kb: KnowledgeBase, st: Staged, slug: string): { item: Memory; changed: boolean } {
  const old = findItem<Memory>(st.state, 'memory', slug);
  if (old.status !== 'active') return { item: old, changed: false };
  const now = kb.now().toISOString();
  const item: Memory = { ...old, status: 'archived', archived_at: now, updated: now };
  putItem(st, 'memory', item, 'memory.archived', subjectOf('memory', 'archive', undefined, item.title));
  return { item, changed: true };
}

/**
 * "Removes" a memory by archiving it: it stays in the tree and history but is no longer offered.
 * With `opts.base`, refused when the memory changed since that version (item-version.ts).
 */
export async function archiveMemory(kb: KnowledgeBase, input: { slug: string }, opts: Pick<WriteOptions, 'base'> = {}): Promise<EditResult<Memory>> {
  const r = await mutate(kb, (state) => {
    if (opts.base !== undefined) assertVersion(state, 'memory', findItem<Memory>(state, 'memory', input.slug), opts.base);
    const st = stage(state);
    return single(st, planArchiveMemory(kb, st, input.slug));
  });
  return writtenResult(kb, 'memory', r);
}
