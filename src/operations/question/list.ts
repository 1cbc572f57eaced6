import { QUESTION_STATUSES, type Question } from '../../model/question.ts';
import { listOp, showOp } from '../items.ts';
import { questionLine } from '../lines.ts';

export const questionList = listOp('question', QUESTION_STATUSES, questionLine);

export const questionShow = showOp<Question>('question');
