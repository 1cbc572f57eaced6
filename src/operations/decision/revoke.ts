import type { EditResult } from '../../knowledge/core/results.ts';
import { type Decision, RevokeInput } from '../../model/decision.ts';
import { defineOperation, EDIT } from '../operation.ts';
import { EditedOutput, editedJson } from '../results.ts';

/** decision.revoke: `axme decision revoke <id> --reason`, `axme_revoke_decision`. */
export const decisionRevoke = defineOperation({
  id: 'decision.revoke',
  summary: 'Revoke a decision that no longer holds',
  description:
    "The decision becomes revoked (kept in history and in the tree, never served as current) with the reason and the time. A required decision is revoked by a person only: an agent gets NOT_ALLOWED and should ask the user. With review.required an agent's revocation is a proposal.",
  input: RevokeInput.shape,
  output: EditedOutput,
  annotations: EDIT,
  write: true,
  cli: { command: ['decision', 'revoke'], positional: ['id'] },
  mcp: { tool: 'axme_revoke_decision' },
  async run(kb, input, opts): Promise<EditResult<Decision>> {
    const { revokeDecision } = await import('../../knowledge/items/decision/revoke-decision.ts');
    return revokeDecision(kb, input, opts);
  },
  json: editedJson,
  text: (r) => `${r.changed ? 'Decision revoked' : 'Decision already revoked'}: ${r.item.id} - ${r.item.title}`,
});
