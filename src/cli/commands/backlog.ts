import type { Argv } from 'yargs';
import { backlogList, backlogShow } from '../../operations/items.ts';
import { backlogAdd, backlogUpdate } from '../../operations/backlog.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

export function backlogCommand(io: CliIO) {
  return {
    command: 'backlog',
    describe: 'backlog items (B-NNN): add, list, show, update',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, backlogAdd))
        .command(operationCommand(io, backlogList))
        .command(operationCommand(io, backlogShow))
        .command(operationCommand(io, backlogUpdate))
        .demandCommand(1, 'say what to do: add, list, show or update'),
    handler: () => {},
  };
}
