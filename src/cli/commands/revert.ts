import type { CliIO } from '../io.ts';
import { revert } from '../../operations/revert.ts';
import { operationCommand } from '../operation-command.ts';

/** `axme revert <commit>`: undo one knowledge commit (a declared operation). */
export function revertCommand(io: CliIO) {
  return operationCommand(io, revert);
}
