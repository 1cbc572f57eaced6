import type { z } from 'zod';
import { isLive } from '../../../model/liveness.ts';
import { Memory, MemoryInput } from '../../../model/memory.ts';
import { assertNoSecrets } from '../../../model/secrets.ts';
import { parseInput } from '../../../model/validate.ts';
import { autoAnchors } from '../../core/auto-anchors.ts';
import { findDuplicate, freeSlug } from '../../core/identity.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { savedNow } from '../../core/learned-at.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import type { WriteOptions } from '../../core/results.ts';
import { type AddResult, writtenResult } from '../../core/results.ts';
import { putItem, type Staged, single, stage } from '../../core/staging.ts';
import { routeByScope } from '../../workspace/route-scope.ts';

export type CheckedMemory = z.output<typeof MemoryInput>;

export function checkMemory(input: unknown, opts: WriteOptions = {}): CheckedMemory {
  const data = parseInput(MemoryInput, input, 'memory');
  assertNoSecrets({ title: data.title, description: data.description, body: data.body, keywords: data.keywords, anchors: data.anchors }, !!opts.allowSecret);
  return data;
}

/** Stages a new memory, or finds the active one of the same type and normalized title. */
export function planAddMemory(kb: KnowledgeBase, st: Staged, data: CheckedMemory): { item: Memory; duplicate: boolean } {
  const dup = findDuplicate<Memory>(kb, st, 'memory', data.title, (m) => isLive('memory', m) && m.type === data.type);
  if (dup) return { item: dup, duplicate: true };
  const now = kb.now().toISOString();
  const anchors = data.anchors ?? autoAnchors(kb, [data.title, data.description, data.body]);
  const item = Memory.parse({
    ...data,
    anchors,
    slug: freeSlug(st, 'memory', data.title),
    status: 'active',
    ...savedNow(kb, now),
  });
  putItem(st, 'memory', item, 'memory.added', subjectOf('memory', 'add', undefined, `${item.title} (${item.type})`));
  return { item, duplicate: false };
}

/** Saves a feedback or pattern memory in one commit; an active memory of the same type and
 * normalized title is returned instead (duplicate: true). In a workspace, `scope` routes the write (routeByScope). */
export async function addMemory(kb: KnowledgeBase, input: MemoryInput, opts: WriteOptions = {}): Promise<AddResult<Memory>> {
  const data = checkMemory(input, opts);
  return routeByScope(kb, data.scope, async (target): Promise<AddResult<Memory>> => {
    const r = await mutate(target, (state) => {
      const st = stage(state);
      return single(st, planAddMemory(target, st, data));
    });
    return writtenResult(target, 'memory', r);
  });
}
