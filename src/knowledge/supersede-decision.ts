import { Decision, DecisionInput, decisionSpec } from '../model/decision.ts';
import { AxmeError } from '../model/errors.ts';
import { assertNoSecrets } from '../model/secrets.ts';
import { assertNoReservedHeading, parseInput } from '../model/validate.ts';
import type { WriteOptions } from './add-decision.ts';
import type { KnowledgeBase } from './kb.ts';
import { freeSlug, locationOf, nextDisplayId } from './items.ts';
import { findItem } from './lookup.ts';
import { itemFile, mutate, subjectOf } from './mutate.ts';

export interface SupersedeResult {
  /** the old decision, now status superseded */
  superseded: Decision;
  /** the new decision that supersedes it */
  item: Decision;
  path: string;
  location: string;
  commit: string | null;
}

/** Replaces an active decision by a new one in ONE commit: old -> superseded, new -> supersedes old.
 * enforce, scope, tags and anchors carry over from the old decision unless given. */
export async function supersedeDecision(kb: KnowledgeBase, input: { id: string } & DecisionInput, opts: WriteOptions = {}): Promise<SupersedeResult> {
  const data = parseInput(DecisionInput, input, 'decision');
  assertNoReservedHeading('decision', data.decision, decisionSpec.sections.map(([h]) => h));
  assertNoSecrets({ title: data.title, decision: data.decision, reasoning: data.reasoning, tags: data.tags, anchors: data.anchors }, !!opts.allowSecret);
  const r = await mutate(kb, (state) => {
    const old = findItem<Decision>(state, 'decision', input.id);
    if (old.status === 'superseded') {
      const by = state.items.decision.find((d) => d.slug === old.superseded_by);
      throw new AxmeError('INVALID_INPUT', `${old.id} is already superseded by ${by ? `${by.id} (${by.slug})` : old.superseded_by}: supersede that one instead`, { id: old.id });
    }
    if (old.status === 'revoked') throw new AxmeError('INVALID_INPUT', `${old.id} was revoked: add a new decision instead of superseding it`, { id: old.id });
    const id = nextDisplayId(state, 'decision', 'D');
    const now = kb.now().toISOString();
    // What the caller leaves out carries over: a required decision stays required when revised.
    const inherited = {
      enforce: input.enforce === undefined ? old.enforce : data.enforce,
      scope: input.scope === undefined ? old.scope : data.scope,
      tags: input.tags === undefined ? old.tags : data.tags,
      anchors: input.anchors === undefined ? old.anchors : data.anchors,
    };
    const item = Decision.parse({ ...data, ...inherited, slug: freeSlug(state, 'decision', data.title, id.toLowerCase()), id, status: 'active', supersedes: [old.slug], source: kb.actor, session: kb.session, created: now, updated: now });
    const retired: Decision = { ...old, status: 'superseded', superseded_by: item.slug, updated: now };
    const files = new Map([itemFile('decision', item), itemFile('decision', retired)]);
    return {
      result: { superseded: retired, item },
      files,
      subject: subjectOf('decision', 'supersede', old.id, `${old.title} with ${id} ${item.title}`),
      event: 'decision.superseded',
    };
  });
  const path = `decisions/${r.result.item.slug}.md`;
  return { ...r.result, path, location: locationOf(kb, path), commit: r.commit };
}
