import { z } from 'zod';
import { baseFields, Timestamp } from './common.ts';
import { displayId } from './ids.ts';
import type { KindSpec } from './kind.ts';
import { questionKind } from './kinds/question.ts';
import { Slug } from './slug.ts';
import { longText } from './text.ts';

export const QUESTION_STATUSES = ['open', 'answered', 'applied', 'archived'] as const;

/** An open question for the user: `questions/<slug>.md`. */
export const Question = z.object({
  slug: Slug,
  id: displayId(questionKind.idPrefix),
  question: longText('the question').refine((v) => v.trim() !== '', 'must not be empty'),
  context: longText('what prompted the question').default(''),
  answer: longText('the answer, once given').default(''),
  status: z.enum(QUESTION_STATUSES).default('open').describe('open -> answered -> applied -> archived'),
  answered_at: Timestamp.optional().describe('when the question was answered'),
  applied_at: Timestamp.optional().describe('when the answer was acted on'),
  archived_at: Timestamp.optional().describe('when the question was archived'),
  aliases: z.array(displayId(questionKind.idPrefix)).default([]).describe('earlier display IDs (after a renumbering merge)'),
  ...baseFields,
});
export type Question = z.infer<typeof Question>;

export const questionSpec: KindSpec<Question> = {
  ...questionKind,
  schema: Question,
  fields: ['id', 'status', 'answered_at', 'applied_at', 'archived_at', 'aliases', 'source', 'session', 'created', 'updated'],
  lead: 'question',
  sections: [
    ['Context', 'context'],
    ['Answer', 'answer'],
  ],
};

/** Parameters of "ask a question" (AXME's axme_ask_question). */
export const QuestionInput = z.object({
  question: longText('the question for the user').refine((v) => v.trim() !== '', 'must not be empty'),
  context: longText('what prompted it, what the options are').default(''),
});
export type QuestionInput = z.input<typeof QuestionInput>;

/** Parameters of "answer a question" (AXME's axme_answer_question). */
export const QuestionAnswer = z.object({
  question_id: z.string().min(1).describe('ID (Q-001), alias or slug of the question'),
  answer: longText('the answer').refine((v) => v.trim() !== '', 'must not be empty'),
});
export type QuestionAnswer = z.input<typeof QuestionAnswer>;

/** Where a question may be moved by hand: answered questions are applied, any question archived, either reopened. */
export const QUESTION_MOVES = ['applied', 'archived', 'open'] as const;

/** Parameters of "move a question along its lifecycle" (axme_update_question). */
export const QuestionStatusUpdate = z.object({
  question_id: z.string().min(1).describe('ID (Q-001), alias or slug of the question'),
  status: z.enum(QUESTION_MOVES).describe('applied (the answer was acted on; needs an answer), archived (no longer relevant), or open (ask again)'),
});
export type QuestionStatusUpdate = z.input<typeof QuestionStatusUpdate>;
