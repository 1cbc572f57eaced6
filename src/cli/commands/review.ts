import { check, diff, propose } from '../../operations/review.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

/** diff, propose, check: reviewing knowledge changes (declared operations). */
export function reviewCommands(io: CliIO) {
  return [operationCommand(io, diff), operationCommand(io, propose), operationCommand(io, check)];
}
