import type { Argv } from 'yargs';
import { BACKLOG_STATUSES } from '../../model/backlog.ts';
import { backlogAdd, backlogUpdate } from '../../operations/backlog.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';
import { backlogLine } from '../render.ts';
import { listCommand, showCommand } from './shared.ts';

export function backlogCommand(io: CliIO) {
  return {
    command: 'backlog',
    describe: 'backlog items (B-NNN): add, list, show, update',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, backlogAdd))
        .command(listCommand(io, 'backlog', BACKLOG_STATUSES, backlogLine))
        .command(showCommand(io, 'backlog', 'id', 'show one backlog item'))
        .command(operationCommand(io, backlogUpdate))
        .demandCommand(1, 'say what to do: add, list, show or update'),
    handler: () => {},
  };
}
