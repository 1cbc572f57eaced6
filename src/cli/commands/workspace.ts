import { workspaceStatusOp } from '../../operations/workspace.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

/** `axme workspace`: the workspace around this folder, its repositories, their store tips and counts. */
export function workspaceCommand(io: CliIO) {
  return operationCommand(io, workspaceStatusOp);
}
