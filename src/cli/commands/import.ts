import type { Argv } from 'yargs';
import { importAxmeCode } from '../../operations/import-axme-code.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

/** `axme import <tool> …`: knowledge from another tool into the store, one subcommand per tool. */
export function importCommand(io: CliIO) {
  return {
    command: 'import',
    describe: 'import knowledge from another tool: axme-code (an AXME Code .axme-code folder, in one commit)',
    builder: (y: Argv) => y.command(operationCommand(io, importAxmeCode)).demandCommand(1, 'say what to import from: axme-code'),
    handler: () => {},
  };
}
