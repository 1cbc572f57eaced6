import type { Argv } from 'yargs';
import { answerQuestion } from '../../knowledge/answer-question.ts';
import { askQuestion } from '../../knowledge/ask-question.ts';
import { listItems } from '../../knowledge/list-items.ts';
import { showItem } from '../../knowledge/show-item.ts';
import { QUESTION_STATUSES, type Question } from '../../model/question.ts';
import { out, printJson, withKb, writeJson, type CliIO } from '../io.ts';
import { questionLine } from '../render.ts';
import { atOption, listOptions, printDiagnostics, writeOptions } from './shared.ts';

type Args = Record<string, unknown> & { C?: string; json?: boolean };

export function questionCommand(io: CliIO) {
  return {
    command: 'question',
    describe: 'open questions for the user (Q-NNN): ask, list, show, answer',
    builder: (y: Argv) =>
      y
        .command('ask <question>', 'record a question', (y) => writeOptions(y, []).positional('question', { type: 'string' }).option('context', { type: 'string', describe: 'what prompted it' }), (a: Args) =>
          withKb(io, a, async (kb) => {
            const r = await askQuestion(kb, { question: String(a.question), context: a.context as string | undefined }, { allowSecret: !!a.allowSecret });
            if (a.json) return printJson(io, writeJson(r));
            out(io, `${r.duplicate ? 'Question exists' : 'Question recorded'}: ${r.item.id} [${r.item.status}]`);
          }),
        )
        .command('list', 'list questions (open ones unless --all or --status)', (y) => listOptions(atOption(y), QUESTION_STATUSES), (a: Args) =>
          withKb(io, a, async (kb) => {
            const r = await listItems(kb, { kind: 'question', at: a.at as string | undefined, all: !!a.all, status: a.status as string[] | undefined });
            printDiagnostics(io, r.diagnostics, !!a.json);
            if (a.json) return printJson(io, r.items);
            for (const q of r.items) out(io, questionLine(q));
          }),
        )
        .command('show <id>', 'show one question', (y) => atOption(y).positional('id', { type: 'string' }), (a: Args) =>
          withKb(io, a, async (kb) => {
            const r = await showItem<Question>(kb, { kind: 'question', ref: String(a.id), at: a.at as string | undefined });
            if (a.json) return printJson(io, { ...r.item, path: r.path, location: r.location });
            out(io, r.text);
          }),
        )
        .command('answer <id> <answer>', 'answer a question', (y) => writeOptions(y, []).positional('id', { type: 'string' }).positional('answer', { type: 'string' }), (a: Args) =>
          withKb(io, a, async (kb) => {
            const r = await answerQuestion(kb, { question_id: String(a.id), answer: String(a.answer) }, { allowSecret: !!a.allowSecret });
            if (a.json) return printJson(io, writeJson(r));
            out(io, `${r.changed ? 'Question answered' : 'Question unchanged'}: ${r.item.id} [${r.item.status}]`);
          }),
        )
        .demandCommand(1, 'say what to do: ask, list, show or answer'),
    handler: () => {},
  };
}
