import { check, diff, propose } from '../../operations/review.ts';
import { verify } from '../../operations/verify.ts';
import { reconfirm } from '../../operations/reconfirm.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

/** diff, propose, check, verify, reconfirm: reviewing knowledge changes and whether the code moved on (declared operations). */
export function reviewCommands(io: CliIO) {
  return [operationCommand(io, diff), operationCommand(io, propose), operationCommand(io, check), operationCommand(io, verify), operationCommand(io, reconfirm)];
}
