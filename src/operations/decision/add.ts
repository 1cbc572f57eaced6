import { z } from 'zod';
import type { AddResult } from '../../knowledge/core/results.ts';
import type { SupersedeResult } from '../../knowledge/items/decision/supersede-decision.ts';
import { type Decision, DecisionInput } from '../../model/decision.ts';
import { defineOperation, SAVE } from '../operation.ts';
import { AddedOutput, addedJson, savedAnchors } from '../results.ts';

/** What a save of a decision gives: a new one, an equal one already stored, or a revision of one. */
export type DecisionSaved = ({ kind: 'added' } & AddResult<Decision>) | ({ kind: 'superseded' } & SupersedeResult);

export const SupersedeRef = z.string().min(1).max(200);

/** decision.add: `axme decision add`, `axme_save_decision`. */
export const decisionAdd = defineOperation({
  id: 'decision.add',
  summary: 'Save a decision',
  description:
    'Save an architectural decision as soon as it is made. An equal active decision is returned instead of a duplicate. To revise one, pass `supersedes` with its ID: the old one is kept in history as superseded. A required decision is superseded by a person only: an agent gets NOT_ALLOWED and should ask the user.',
  input: { ...DecisionInput.shape, supersedes: SupersedeRef.optional().describe('ID or slug of the decision this one replaces') },
  output: AddedOutput.extend({ superseded: z.looseObject({}).optional().describe('with `supersedes`: the old decision, now superseded') }),
  annotations: SAVE,
  write: true,
  cli: { command: ['decision', 'add'], stdin: ['decision', 'reasoning'], names: { anchors: 'anchor' } },
  mcp: { tool: 'axme_save_decision', upFront: true },
  async run(kb, { supersedes, ...input }, opts): Promise<DecisionSaved> {
    if (supersedes !== undefined) {
      const { supersedeDecision } = await import('../../knowledge/items/decision/supersede-decision.ts');
      return { kind: 'superseded', ...(await supersedeDecision(kb, { ...input, id: supersedes }, opts)) };
    }
    const { addDecision } = await import('../../knowledge/items/decision/add-decision.ts');
    return { kind: 'added', ...(await addDecision(kb, input, opts)) };
  },
  anchored: (r) => (r.kind === 'superseded' || !r.duplicate ? [savedAnchors('decision', r.item)] : []),
  json: (r) => (r.kind === 'added' ? addedJson(strip(r)) : supersededJson(r)),
  text: (r) =>
    r.kind === 'superseded'
      ? supersededText(r)
      : [r, ...(r.others ?? [])]
          .map((x) => `${x.duplicate ? 'Decision already stored' : 'Decision saved'}: ${x.item.id} - ${x.item.title} -> ${x.location}`)
          .join('\n'),
});

/** decision.supersede: `axme decision supersede <id>` (over MCP: `axme_save_decision` with `supersedes`). */
export const decisionSupersede = defineOperation({
  id: 'decision.supersede',
  summary: 'Replace a decision by a new one (one commit)',
  description:
    'The new decision supersedes the old one in one commit; the old one is kept as superseded. Enforce, scope, tags and anchors carry over unless given. A required decision is superseded by a person only (an agent gets NOT_ALLOWED).',
  input: { id: SupersedeRef.describe('the decision to replace: ID (D-001), alias or slug'), ...DecisionInput.shape },
  output: AddedOutput.extend({ superseded: z.looseObject({}).describe('the old decision, now superseded') }),
  annotations: SAVE,
  write: true,
  cli: { command: ['decision', 'supersede'], positional: ['id'], stdin: ['decision', 'reasoning'], names: { anchors: 'anchor' } },
  mcp: null,
  async run(kb, input, opts): Promise<DecisionSaved & { kind: 'superseded' }> {
    const { supersedeDecision } = await import('../../knowledge/items/decision/supersede-decision.ts');
    return { kind: 'superseded', ...(await supersedeDecision(kb, input, opts)) };
  },
  anchored: (r) => [savedAnchors('decision', r.item)],
  json: supersededJson,
  text: supersededText,
});

function strip<T extends { kind: string }>(r: T): Omit<T, 'kind'> {
  const { kind: _kind, ...rest } = r;
  return rest;
}

function supersededJson(r: DecisionSaved & { kind: 'superseded' }): Record<string, unknown> {
  const { item, ...rest } = strip(r);
  return { ...item, ...rest, duplicate: false };
}

function supersededText(r: SupersedeResult): string {
  return `Decision saved: ${r.item.id} - ${r.item.title} -> ${r.location} (supersedes ${r.superseded.id})`;
}
