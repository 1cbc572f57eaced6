import type { AddResult, EditResult } from '../../knowledge/core/results.ts';
import { type Question, QuestionAnswer, QuestionInput, QuestionStatusUpdate } from '../../model/question.ts';
import { defineOperation, EDIT, SAVE } from '../operation.ts';
import { AddedOutput, addedJson, EditedOutput, editedJson } from '../results.ts';

/** question.ask: `axme question ask <question>`, `axme_ask_question`. */
export const questionAsk = defineOperation({
  id: 'question.ask',
  summary: 'Ask the user a question',
  description: 'Record a question only the user can answer; it is shown at the start of every session until answered.',
  input: QuestionInput.shape,
  output: AddedOutput,
  annotations: SAVE,
  write: true,
  cli: { command: ['question', 'ask'], positional: ['question'] },
  mcp: { tool: 'axme_ask_question' },
  async run(kb, input, opts): Promise<AddResult<Question>> {
    const { askQuestion } = await import('../../knowledge/items/question/ask-question.ts');
    return askQuestion(kb, input, opts);
  },
  json: addedJson,
  text: (r) => `${r.duplicate ? 'Question exists' : 'Question recorded'}: ${r.item.id} [${r.item.status}]`,
});

/** question.answer: `axme question answer <id> <answer>`, `axme_answer_question`. */
export const questionAnswer = defineOperation({
  id: 'question.answer',
  summary: 'Answer a question',
  description: "Record the user's answer to a question.",
  input: QuestionAnswer.shape,
  output: EditedOutput,
  annotations: EDIT,
  write: true,
  cli: { command: ['question', 'answer'], positional: ['question_id', 'answer'] },
  mcp: { tool: 'axme_answer_question' },
  async run(kb, input, opts): Promise<EditResult<Question>> {
    const { answerQuestion } = await import('../../knowledge/items/question/answer-question.ts');
    return answerQuestion(kb, input, opts);
  },
  json: editedJson,
  text: (r) => `${r.changed ? 'Question answered' : 'Question unchanged'}: ${r.item.id} [${r.item.status}]`,
});

/** question.status: `axme question status <id> <status>`, `axme_update_question`. */
export const questionStatus = defineOperation({
  id: 'question.status',
  summary: 'Move a question along its lifecycle',
  description:
    'Mark an answered question applied (its answer was acted on), archive a question that no longer matters, or reopen one. open -> answered (axme_answer_question) -> applied -> archived.',
  input: QuestionStatusUpdate.shape,
  output: EditedOutput,
  annotations: EDIT,
  write: false,
  cli: { command: ['question', 'status'], positional: ['question_id', 'status'] },
  mcp: { tool: 'axme_update_question' },
  async run(kb, input): Promise<EditResult<Question>> {
    const { updateQuestionStatus } = await import('../../knowledge/items/question/update-question.ts');
    return updateQuestionStatus(kb, input);
  },
  json: editedJson,
  text: (r) => `${r.changed ? 'Question updated' : 'Question unchanged'}: ${r.item.id} [${r.item.status}]`,
});
