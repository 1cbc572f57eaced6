import type { EditResult } from '../../knowledge/core/results.ts';
import { AmendInput, type Decision } from '../../model/decision.ts';
import { defineOperation, EDIT } from '../operation.ts';
import { EditedOutput, editedJson } from '../results.ts';

/** decision.amend: `axme decision amend <id>`, `axme_amend_decision`. */
export const decisionAmend = defineOperation({
  id: 'decision.amend',
  summary: 'Correct the wording of a decision (history kept)',
  description:
    "Fix a typo or unclear wording in an active decision, in place: title, decision text, reasoning or tags. Same ID; the previous version stays in history (axme_history shows both). Enforcement, scope and anchors cannot be amended: to change what a decision says or binds, save a new one that supersedes it. An agent may only fix typos in a required decision's title and text (the same words, each a spelling fix, none that binds such as not, must or may); anything more (or superseding it) is a person's to do: ask the user.",
  input: AmendInput.shape,
  output: EditedOutput,
  annotations: EDIT,
  write: true,
  cli: { command: ['decision', 'amend'], positional: ['id'], stdin: ['decision', 'reasoning'] },
  mcp: { tool: 'axme_amend_decision' },
  async run(kb, input, opts): Promise<EditResult<Decision>> {
    const { amendDecision } = await import('../../knowledge/items/decision/amend-decision.ts');
    return amendDecision(kb, input, opts);
  },
  json: editedJson,
  text: (r) => `${r.changed ? 'Decision amended' : 'Decision unchanged'}: ${r.item.id} - ${r.item.title} -> ${r.location}`,
});
