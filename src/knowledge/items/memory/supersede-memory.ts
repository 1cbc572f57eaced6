import { AxmeError } from '../../../model/errors.ts';
import { Memory, type MemoryInput } from '../../../model/memory.ts';
import { autoAnchors } from '../../core/auto-anchors.ts';
import { freeSlug } from '../../core/identity.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { savedNow } from '../../core/learned-at.ts';
import { findItem } from '../../core/lookup.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import { type WriteOptions, writtenResult } from '../../core/results.ts';
import { putItem, type Staged, stage } from '../../core/staging.ts';
import { type CheckedMemory, checkMemory } from './add-memory.ts';

export interface MemorySupersedeResult {
  /** the old memory, now status superseded */
  superseded: Memory;
  /** the new memory that replaces it */
  item: Memory;
  path: string;
  location: string;
  commit: string | null;
}

/**
 * Stages the replacement of an active memory: the new one lists the old in `supersedes`, the old
 * becomes `superseded` with `superseded_by` (linked both ways, as decisions are). Scope, keywords
 * and anchors carry over unless given.
 */
export function planSupersedeMemory(kb: KnowledgeBase, st: Staged, ref: string, data: CheckedMemory): { superseded: Memory; item: Memory } {
  const old = findItem<Memory>(st.state, 'memory', ref);
  if (old.status === 'superseded')
    throw new AxmeError('WRONG_STATE', `memory ${old.slug} is already superseded by ${old.superseded_by}: supersede that one instead`, { slug: old.slug });
  if (old.status === 'archived')
    throw new AxmeError('WRONG_STATE', `memory ${old.slug} is archived: save a new memory instead of superseding it`, { slug: old.slug });
  const now = kb.now().toISOString();
  const inherited = {
    scope: data.scope ?? old.scope,
    keywords: data.keywords.length ? data.keywords : old.keywords,
    anchors: data.anchors ?? (old.anchors.length ? old.anchors : autoAnchors(kb, [data.title, data.description, data.body])),
  };
  const item = Memory.parse({
    ...data,
    ...inherited,
    slug: freeSlug(st, 'memory', data.title),
    status: 'active',
    supersedes: [old.slug],
    ...savedNow(kb, now),
  });
  const retired: Memory = { ...old, status: 'superseded', superseded_by: item.slug, updated: now };
  const subject = subjectOf('memory', 'supersede', undefined, `${old.slug} with ${item.slug}`);
  putItem(st, 'memory', item, 'memory.superseded', subject);
  putItem(st, 'memory', retired, 'memory.superseded', subject);
  return { superseded: retired, item };
}

/** Replaces an active memory by a new one in ONE commit (planSupersedeMemory). */
export async function supersedeMemory(kb: KnowledgeBase, input: { slug: string } & MemoryInput, opts: WriteOptions = {}): Promise<MemorySupersedeResult> {
  const { slug, ...rest } = input;
  if (typeof slug !== 'string' || !slug.trim()) throw new AxmeError('INVALID_INPUT', 'say which memory this one replaces: its slug');
  const data = checkMemory(rest, opts);
  const r = await mutate(kb, (state) => {
    const st = stage(state);
    const result = planSupersedeMemory(kb, st, slug, data);
    return { result, files: st.files, staged: st, subject: st.subjects[0], event: 'memory.superseded' };
  });
  return writtenResult(kb, 'memory', r);
}
