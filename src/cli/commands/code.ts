import { blameOp, showCommitOp } from '../../operations/code.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

/** show-commit and blame: from code to the knowledge behind it (trailers, notes, decisions). */
export function codeCommands(io: CliIO) {
  return [operationCommand(io, showCommitOp), operationCommand(io, blameOp)];
}
