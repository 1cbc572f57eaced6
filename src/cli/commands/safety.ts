import type { Argv } from 'yargs';
import { safetyShow } from '../../operations/safety.ts';
import { safetyAdd, safetyRemove, safetyReset, safetySet } from '../../operations/safety-cli.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

export function safetyCommand(io: CliIO) {
  return {
    command: 'safety',
    describe: 'safety rules enforced by the hooks: show, add, remove, set, reset',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, safetyShow))
        .command(operationCommand(io, safetyAdd))
        .command(operationCommand(io, safetyRemove))
        .command(operationCommand(io, safetySet))
        .command(operationCommand(io, safetyReset))
        .demandCommand(1, 'say what to do: show, add, remove, set or reset'),
    handler: () => {},
  };
}
