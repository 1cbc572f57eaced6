import { Decision, DecisionInput, decisionSpec } from '../model/decision.ts';
import { assertNoSecrets } from '../model/secrets.ts';
import { assertNoReservedHeading, parseInput } from '../model/validate.ts';
import type { KnowledgeBase } from './kb.ts';
import { findDuplicate, freeSlug, locationOf, nextDisplayId, type AddResult } from './items.ts';
import { itemFile, mutate, subjectOf } from './mutate.ts';

export interface WriteOptions {
  /** store content that looks like a credential anyway */
  allowSecret?: boolean;
}

/**
 * Saves a decision (D-NNN) in one commit. An active decision with the same normalized title is
 * returned instead (duplicate: true) and nothing is written.
 */
export async function addDecision(kb: KnowledgeBase, input: DecisionInput, opts: WriteOptions = {}): Promise<AddResult<Decision>> {
  const data = parseInput(DecisionInput, input, 'decision');
  assertNoReservedHeading('decision', data.decision, decisionSpec.sections.map(([h]) => h));
  assertNoSecrets({ title: data.title, decision: data.decision, reasoning: data.reasoning, tags: data.tags, anchors: data.anchors }, !!opts.allowSecret);
  const r = await mutate(kb, (state) => {
    const dup = findDuplicate(kb, state.items.decision, data.title, (d) => d.status === 'active');
    if (dup) return { result: { item: dup, duplicate: true } };
    const id = nextDisplayId(state, 'decision', 'D');
    const now = kb.now().toISOString();
    const item = Decision.parse({
      ...data,
      slug: freeSlug(state, 'decision', data.title, id.toLowerCase()),
      id,
      status: 'active',
      source: kb.actor,
      session: kb.session,
      created: now,
      updated: now,
    });
    const [path, text] = itemFile('decision', item);
    return { result: { item, duplicate: false }, files: new Map([[path, text]]), subject: subjectOf('decision', 'add', id, item.title), event: 'decision.added' };
  });
  const path = `decisions/${r.result.item.slug}.md`;
  return { ...r.result, path, location: locationOf(kb, path), commit: r.commit };
}
