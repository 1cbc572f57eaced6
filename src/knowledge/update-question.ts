import { AxmeError } from '../model/errors.ts';
import { Question, QuestionStatusUpdate } from '../model/question.ts';
import { parseInput } from '../model/validate.ts';
import type { KnowledgeBase } from './kb.ts';
import { written, type EditResult } from './items.ts';
import { findItem } from './lookup.ts';
import { itemFile, mutate, subjectOf } from './mutate.ts';

/**
 * Moves a question along open -> answered -> applied -> archived (answering is answerQuestion):
 * applied needs an answer; any question can be archived or reopened (its earlier answer is kept).
 * Each move is one commit and stamps its time (`applied_at`, `archived_at`).
 */
export async function updateQuestionStatus(kb: KnowledgeBase, input: QuestionStatusUpdate): Promise<EditResult<Question>> {
  const data = parseInput(QuestionStatusUpdate, input, 'question update');
  const r = await mutate(kb, (state) => {
    const old = findItem<Question>(state, 'question', data.question_id);
    if (old.status === data.status) return { result: { item: old, changed: false } };
    if (data.status === 'applied' && !old.answer.trim()) {
      throw new AxmeError('INVALID_INPUT', `${old.id} has no answer yet: answer it first (axme question answer ${old.id} "...", MCP axme_answer_question), then mark it applied`);
    }
    const now = kb.now().toISOString();
    // reopening keeps the earlier answer and dates: they stay true of the past
    const status = data.status;
    const stamp = status === 'applied' ? { applied_at: now } : status === 'archived' ? { archived_at: now } : {};
    const item = Question.parse({ ...old, status, ...stamp, updated: now });
    const [path, text] = itemFile('question', item);
    const verb = status === 'applied' ? 'apply' : status === 'archived' ? 'archive' : 'reopen';
    return { result: { item, changed: true }, files: new Map([[path, text]]), subject: subjectOf('question', verb, item.id, item.question.split('\n')[0]!), event: `question.${status}` };
  });
  return written(kb, 'question', r);
}
