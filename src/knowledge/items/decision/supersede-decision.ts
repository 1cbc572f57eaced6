import { Decision, type DecisionInput } from '../../../model/decision.ts';
import { AxmeError } from '../../../model/errors.ts';
import { autoAnchors } from '../../core/auto-anchors.ts';
import { freeSlug, nextDisplayId } from '../../core/identity.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { savedNow } from '../../core/learned-at.ts';
import { findItem } from '../../core/lookup.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import type { WriteOptions } from '../../core/results.ts';
import { writtenResult } from '../../core/results.ts';
import { putItem, type Staged, stage } from '../../core/staging.ts';
import { editHere } from '../../workspace/workspace-item.ts';
import { type CheckedDecision, checkDecision } from './add-decision.ts';
import { assertPersonMayLoosen } from './person-only.ts';

export interface SupersedeResult {
  /** the old decision, now status superseded */
  superseded: Decision;
  /** the new decision that supersedes it */
  item: Decision;
  path: string;
  location: string;
  commit: string | null;
}

/** Stages the replacement of an active decision: old -> superseded, new -> supersedes old. A required
 * one is a person's to supersede (assertPersonMayLoosen), on every path: the CLI, axme_save_decision's
 * `supersedes`, the close. */
export function planSupersede(kb: KnowledgeBase, st: Staged, ref: string, data: CheckedDecision): { superseded: Decision; item: Decision } {
  const old = findItem<Decision>(st.state, 'decision', ref);
  if (old.status === 'superseded') {
    const by = st.state.items.decision.find((d) => d.slug === old.superseded_by);
    throw new AxmeError('WRONG_STATE', `${old.id} is already superseded by ${by ? `${by.id} (${by.slug})` : old.superseded_by}: supersede that one instead`, {
      id: old.id,
    });
  }
  if (old.status === 'revoked') throw new AxmeError('WRONG_STATE', `${old.id} was revoked: add a new decision instead of superseding it`, { id: old.id });
  // replacing what a required decision says lets go of it, whatever the successor enforces: a person's
  assertPersonMayLoosen(
    kb,
    old,
    data.enforce === 'advisory' ? 'superseding it by an advisory decision' : 'superseding it (a new text in its place)',
    `axme decision supersede ${old.id} --title ${JSON.stringify(data.title)}${data.enforce === 'advisory' ? ' --enforce advisory' : ''} --decision ...`,
  );
  const id = nextDisplayId(kb, st, 'decision');
  const now = kb.now().toISOString();
  // What the caller leaves out carries over: a required decision stays required when revised.
  const inherited = {
    enforce: data.enforce ?? old.enforce,
    scope: data.scope ?? old.scope,
    tags: data.tags ?? old.tags,
    anchors: data.anchors ?? (old.anchors.length ? old.anchors : autoAnchors(kb, [data.title, data.decision, data.reasoning])),
  };
  const item = Decision.parse({
    ...data,
    ...inherited,
    slug: freeSlug(st, 'decision', data.title, id.toLowerCase()),
    id,
    status: 'active',
    supersedes: [old.slug],
    ...savedNow(kb, now),
  });
  const retired: Decision = { ...old, status: 'superseded', superseded_by: item.slug, updated: now };
  const subject = subjectOf('decision', 'supersede', old.id, `${old.title} with ${id} ${item.title}`);
  putItem(st, 'decision', item, 'decision.superseded', subject);
  putItem(st, 'decision', retired, 'decision.superseded', subject);
  return { superseded: retired, item };
}

/** Replaces an active decision by a new one in ONE commit: old -> superseded, new -> supersedes old.
 * enforce, scope, tags and anchors carry over from the old decision unless given. */
export async function supersedeDecision(kb: KnowledgeBase, input: { id: string } & DecisionInput, opts: WriteOptions = {}): Promise<SupersedeResult> {
  const data = checkDecision(input, opts);
  const command = (slug: string) => `decision supersede ${slug} --title ${JSON.stringify(data.title)} --decision …`;
  const r = await editHere(kb, ['decision'], input.id, command, () =>
    mutate(kb, (state) => {
      const st = stage(state);
      const result = planSupersede(kb, st, input.id, data);
      return { result, files: st.files, staged: st, subject: st.subjects[0], event: 'decision.superseded' };
    }),
  );
  return writtenResult(kb, 'decision', r);
}
