import type { Argv } from 'yargs';
import { answerQuestion } from '../../knowledge/answer-question.ts';
import { askQuestion } from '../../knowledge/ask-question.ts';
import { QUESTION_MOVES, QUESTION_STATUSES, type Question } from '../../model/question.ts';
import { updateQuestionStatus } from '../../knowledge/update-question.ts';
import { out, printJson, withKb, writeJson, type CliIO } from '../io.ts';
import { questionLine } from '../render.ts';
import { listCommand, showCommand, writeOptions } from './shared.ts';

type Args = Record<string, unknown> & { C?: string; json?: boolean };

export function questionCommand(io: CliIO) {
  return {
    command: 'question',
    describe: 'open questions for the user (Q-NNN): ask, list, show, answer, status (applied, archived, open)',
    builder: (y: Argv) =>
      y
        .command('ask <question>', 'record a question', (y) => writeOptions(y, []).positional('question', { type: 'string' }).option('context', { type: 'string', describe: 'what prompted it' }), (a: Args) =>
          withKb(io, a, async (kb) => {
            const r = await askQuestion(kb, { question: String(a.question), context: a.context as string | undefined }, { allowSecret: !!a.allowSecret });
            if (a.json) return printJson(io, writeJson(r));
            out(io, `${r.duplicate ? 'Question exists' : 'Question recorded'}: ${r.item.id} [${r.item.status}]`);
          }),
        )
        .command(listCommand(io, 'question', QUESTION_STATUSES, questionLine))
        .command(showCommand(io, 'question', 'id', 'show one question'))
        .command('answer <id> <answer>', 'answer a question', (y) => writeOptions(y, []).positional('id', { type: 'string' }).positional('answer', { type: 'string' }), (a: Args) =>
          withKb(io, a, async (kb) => {
            const r = await answerQuestion(kb, { question_id: String(a.id), answer: String(a.answer) }, { allowSecret: !!a.allowSecret });
            if (a.json) return printJson(io, writeJson(r));
            out(io, `${r.changed ? 'Question answered' : 'Question unchanged'}: ${r.item.id} [${r.item.status}]`);
          }),
        )
        .command('status <id> <status>', 'move a question on: applied (its answer was acted on), archived, or open again', (y) => y.positional('id', { type: 'string' }).positional('status', { type: 'string', choices: QUESTION_MOVES }), (a: Args) =>
          withKb(io, a, async (kb) => {
            const r = await updateQuestionStatus(kb, { question_id: String(a.id), status: a.status as (typeof QUESTION_MOVES)[number] });
            if (a.json) return printJson(io, writeJson(r));
            out(io, `${r.changed ? 'Question updated' : 'Question unchanged'}: ${r.item.id} [${r.item.status}]`);
          }),
        )
        .demandCommand(1, 'say what to do: ask, list, show, answer or status'),
    handler: () => {},
  };
}
