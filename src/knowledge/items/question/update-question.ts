import { AxmeError } from '../../../model/errors.ts';
import { Question, QuestionStatusUpdate } from '../../../model/question.ts';
import { parseInput } from '../../../model/validate.ts';
import { itemFile } from '../../core/item-file.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { findItem } from '../../core/lookup.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import { type EditResult, writtenResult } from '../../core/results.ts';

/**
 * Moves a question along open -> answered -> applied -> archived (answering is answerQuestion):
 * applied needs an answer; any question can be archived or reopened. Each move is one commit and
 * stamps its time (`applied_at`, `archived_at`). Reopening clears the answer and the stamps — an
 * open question is one to ask again — and quotes the earlier answer under its context, so the
 * agent asking again knows what was said (the old version stays in history too).
 */
export async function updateQuestionStatus(kb: KnowledgeBase, input: QuestionStatusUpdate): Promise<EditResult<Question>> {
  const data = parseInput(QuestionStatusUpdate, input, 'question update');
  const r = await mutate(kb, (state) => {
    const old = findItem<Question>(state, 'question', data.question_id);
    if (old.status === data.status) return { result: { item: old, changed: false } };
    if (data.status === 'applied' && !old.answer.trim()) {
      throw new AxmeError(
        'WRONG_STATE',
        `${old.id} has no answer yet: answer it first (axme question answer ${old.id} "...", MCP axme_answer_question), then mark it applied`,
        { id: old.id, status: old.status },
      );
    }
    const now = kb.now().toISOString();
    const status = data.status;
    const item = Question.parse(
      status === 'open' ? reopened(old, now) : { ...old, status, ...(status === 'applied' ? { applied_at: now } : { archived_at: now }), updated: now },
    );
    const [path, text] = itemFile('question', item);
    const verb = status === 'applied' ? 'apply' : status === 'archived' ? 'archive' : 'reopen';
    return {
      result: { item, changed: true },
      files: new Map([[path, text]]),
      subject: subjectOf('question', verb, item.id, item.question.split('\n')[0]!),
      event: `question.${status}`,
    };
  });
  return writtenResult(kb, 'question', r);
}

/** A question asked again: no answer, no stamps; the earlier answer quoted under its context. */
function reopened(old: Question, now: string): Question {
  const { answered_at: _a, applied_at: _p, archived_at: _r, ...rest } = old;
  const earlier = old.answer.trim()
    ? `Earlier answer${old.answered_at ? ` (${old.answered_at.slice(0, 10)})` : ''}, reopened ${now.slice(0, 10)}: ${old.answer.trim()}`
    : '';
  return { ...rest, status: 'open', answer: '', context: [old.context.trim(), earlier].filter(Boolean).join('\n\n'), updated: now };
}
