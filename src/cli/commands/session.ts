import type { Argv } from 'yargs';
import { beginCloseOp, finalizeCloseOp, sessionList, sessionRecover, sessionShow } from '../../operations/session.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

/** `axme session`: close a session (begin-close, finalize), list sessions and recover orphans (declared operations). */
export function sessionCommand(io: CliIO) {
  return {
    command: 'session <action>',
    describe: 'agent sessions: begin-close, finalize (one commit), list, show, recover (orphans)',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, beginCloseOp))
        .command(operationCommand(io, finalizeCloseOp))
        .command(operationCommand(io, sessionList))
        .command(operationCommand(io, sessionShow))
        .command(operationCommand(io, sessionRecover))
        .demandCommand(1, 'say what to do: begin-close, finalize, list, show or recover'),
    handler: () => {},
  };
}
