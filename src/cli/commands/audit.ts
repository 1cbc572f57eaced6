import type { Argv } from 'yargs';
import { auditLogOp, auditRun } from '../../operations/audit.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

/** `axme audit <transcript>` and `axme audit log` (declared operations). */
export function auditCommand(io: CliIO) {
  const run = operationCommand(io, auditRun);
  return {
    command: 'audit',
    describe: 'audit a session transcript with a model: what the agent forgot to save (`audit <transcript>`), or the log of audits (`audit log`)',
    builder: (y: Argv) => y.command(operationCommand(io, auditLogOp)).command({ ...run, command: `$0 ${run.command.split(' ').slice(1).join(' ')}` }),
    handler: () => {},
  };
}
