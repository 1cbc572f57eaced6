import type { Argv } from 'yargs';
import { exportAutoMemoryOp, importAutoMemoryOp } from '../../operations/auto-memory.ts';
import { exportAdrOp } from '../../operations/export-adr.ts';
import { importAdrOp } from '../../operations/import-adr.ts';
import { importAxmeCode } from '../../operations/import-axme-code.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

/** `axme import <tool> …` and `axme export <tool> …`: knowledge from another tool into the store, and out to it. */
export function importCommands(io: CliIO) {
  return [
    {
      command: 'import',
      describe: 'import knowledge from another tool: axme-code (an AXME Code .axme-code folder), adr (a folder of architecture decision records), auto-memory (Claude Code\'s auto memory notes); one commit each',
      builder: (y: Argv) => y.command(operationCommand(io, importAxmeCode)).command(operationCommand(io, importAdrOp)).command(operationCommand(io, importAutoMemoryOp)).demandCommand(1, 'say what to import from: axme-code, adr or auto-memory'),
      handler: () => {},
    },
    {
      command: 'export',
      describe: "write the knowledge into another tool: adr (the decisions as a MADR folder), auto-memory (Claude Code's auto memory, MEMORY.md)",
      builder: (y: Argv) => y.command(operationCommand(io, exportAdrOp)).command(operationCommand(io, exportAutoMemoryOp)).demandCommand(1, 'say what to export to: adr or auto-memory'),
      handler: () => {},
    },
  ];
}
