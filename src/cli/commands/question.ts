import type { Argv } from 'yargs';
import { questionList, questionShow } from '../../operations/items.ts';
import { questionAnswer, questionAsk, questionStatus } from '../../operations/question.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

export function questionCommand(io: CliIO) {
  return {
    command: 'question',
    describe: 'open questions for the user (Q-NNN): ask, list, show, answer, status (applied, archived, open)',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, questionAsk))
        .command(operationCommand(io, questionList))
        .command(operationCommand(io, questionShow))
        .command(operationCommand(io, questionAnswer))
        .command(operationCommand(io, questionStatus))
        .demandCommand(1, 'say what to do: ask, list, show, answer or status'),
    handler: () => {},
  };
}
