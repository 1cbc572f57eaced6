import { Question, QuestionAnswer } from '../../../model/question.ts';
import { assertNoSecrets } from '../../../model/secrets.ts';
import { parseInput } from '../../../model/validate.ts';
import { itemFile } from '../../core/item-file.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { findItem } from '../../core/lookup.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import type { WriteOptions } from '../../core/results.ts';
import { type EditResult, writtenResult } from '../../core/results.ts';

/** Answers a question: status answered, the answer and when. Answering again replaces the answer
 * (the earlier one stays in history). */
export async function answerQuestion(kb: KnowledgeBase, input: QuestionAnswer, opts: WriteOptions = {}): Promise<EditResult<Question>> {
  const data = parseInput(QuestionAnswer, input, 'answer');
  assertNoSecrets({ answer: data.answer }, !!opts.allowSecret);
  const r = await mutate(kb, (state) => {
    const old = findItem<Question>(state, 'question', data.question_id);
    if (old.answer.trim() === data.answer.trim() && old.status !== 'open') return { result: { item: old, changed: false } };
    const now = kb.now().toISOString();
    const item = Question.parse({ ...old, status: old.status === 'open' ? 'answered' : old.status, answer: data.answer, answered_at: now, updated: now });
    const [path, text] = itemFile('question', item);
    return {
      result: { item, changed: true },
      files: new Map([[path, text]]),
      subject: subjectOf('question', 'answer', item.id, item.question.split('\n')[0]!),
      event: 'question.answered',
    };
  });
  return writtenResult(kb, 'question', r);
}
