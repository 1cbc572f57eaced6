import type { z } from 'zod';
import { isLive } from '../../../model/liveness.ts';
import { Question, QuestionInput } from '../../../model/question.ts';
import { assertNoSecrets } from '../../../model/secrets.ts';
import { parseInput } from '../../../model/validate.ts';
import { findDuplicate, freeSlug, nextDisplayId } from '../../core/identity.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import type { WriteOptions } from '../../core/results.ts';
import { type AddResult, writtenResult } from '../../core/results.ts';
import { putItem, type Staged, single, stage } from '../../core/staging.ts';

/** Records an open question (Q-NNN) for the user; the same open question is returned, not repeated. */
export async function askQuestion(kb: KnowledgeBase, input: QuestionInput, opts: WriteOptions = {}): Promise<AddResult<Question>> {
  const data = parseInput(QuestionInput, input, 'question');
  assertNoSecrets({ question: data.question, context: data.context }, !!opts.allowSecret);
  const r = await mutate(kb, (state) => {
    const st = stage(state);
    const planned = planAskQuestion(kb, st, data);
    return planned.duplicate ? { result: planned } : single(st, planned);
  });
  return writtenResult(kb, 'question', r);
}

/** Stages a new open question, or finds the open one asking the same (duplicate: true). */
export function planAskQuestion(kb: KnowledgeBase, st: Staged, data: z.output<typeof QuestionInput>): { item: Question; duplicate: boolean } {
  const dup = findDuplicate<Question>(kb, st, 'question', data.question, (q) => isLive('question', q));
  if (dup) return { item: dup, duplicate: true };
  const id = nextDisplayId(kb, st, 'question');
  const now = kb.now().toISOString();
  const item = Question.parse({
    ...data,
    slug: freeSlug(st, 'question', data.question, id.toLowerCase()),
    id,
    status: 'open',
    source: kb.actor,
    session: kb.session,
    created: now,
    updated: now,
  });
  putItem(st, 'question', item, 'question.asked', subjectOf('question', 'ask', id, item.question.split('\n')[0]!));
  return { item, duplicate: false };
}
