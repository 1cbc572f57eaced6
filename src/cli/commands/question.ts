import type { Argv } from 'yargs';
import { QUESTION_STATUSES } from '../../model/question.ts';
import { questionAnswer, questionAsk, questionStatus } from '../../operations/question.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';
import { questionLine } from '../render.ts';
import { listCommand, showCommand } from './shared.ts';

export function questionCommand(io: CliIO) {
  return {
    command: 'question',
    describe: 'open questions for the user (Q-NNN): ask, list, show, answer, status (applied, archived, open)',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, questionAsk))
        .command(listCommand(io, 'question', QUESTION_STATUSES, questionLine))
        .command(showCommand(io, 'question', 'id', 'show one question'))
        .command(operationCommand(io, questionAnswer))
        .command(operationCommand(io, questionStatus))
        .demandCommand(1, 'say what to do: ask, list, show, answer or status'),
    handler: () => {},
  };
}
