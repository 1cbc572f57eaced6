import type { z } from 'zod';
import { Decision, DecisionInput } from '../../../model/decision.ts';
import { isLive } from '../../../model/liveness.ts';
import { assertNoSecrets } from '../../../model/secrets.ts';
import { parseInput } from '../../../model/validate.ts';
import { autoAnchors } from '../../core/auto-anchors.ts';
import { findDuplicate, freeSlug, nextDisplayId } from '../../core/identity.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { savedNow } from '../../core/learned-at.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import { type AddResult, type WriteOptions, writtenResult } from '../../core/results.ts';
import { putItem, type Staged, single, stage } from '../../core/staging.ts';
import { routeByScope } from '../../workspace/route-scope.ts';

export type CheckedDecision = z.output<typeof DecisionInput>;

/** Validates decision input at the boundary: schema, reserved headings, credentials. */
export function checkDecision(input: unknown, opts: WriteOptions = {}): CheckedDecision {
  const data = parseInput(DecisionInput, input, 'decision');
  assertNoSecrets({ title: data.title, decision: data.decision, reasoning: data.reasoning, tags: data.tags, anchors: data.anchors }, !!opts.allowSecret);
  return data;
}

/** Stages a new decision, or finds the active one with the same normalized title. */
export function planAddDecision(kb: KnowledgeBase, st: Staged, data: CheckedDecision): { item: Decision; duplicate: boolean } {
  const dup = findDuplicate<Decision>(kb, st, 'decision', data.title, (d) => isLive('decision', d));
  if (dup) return { item: dup, duplicate: true };
  const id = nextDisplayId(kb, st, 'decision');
  const now = kb.now().toISOString();
  const anchors = data.anchors ?? autoAnchors(kb, [data.title, data.decision, data.reasoning]);
  const item = Decision.parse({
    ...data,
    anchors,
    slug: freeSlug(st, 'decision', data.title, id.toLowerCase()),
    id,
    status: 'active',
    ...savedNow(kb, now),
  });
  putItem(st, 'decision', item, 'decision.added', subjectOf('decision', 'add', id, item.title));
  return { item, duplicate: false };
}

/**
 * Saves a decision (D-NNN) in one commit. An active decision with the same normalized title is
 * returned instead (duplicate: true) and nothing is written. In a workspace, `scope` routes the
 * write (routeByScope): a list of repositories saves it in each one's store.
 */
export async function addDecision(kb: KnowledgeBase, input: DecisionInput, opts: WriteOptions = {}): Promise<AddResult<Decision>> {
  const data = checkDecision(input, opts);
  return routeByScope(kb, data.scope, async (target): Promise<AddResult<Decision>> => {
    const r = await mutate(target, (state) => {
      const st = stage(state);
      return single(st, planAddDecision(target, st, data));
    });
    return writtenResult(target, 'decision', r);
  });
}
