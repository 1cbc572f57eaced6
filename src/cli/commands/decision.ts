import type { Argv } from 'yargs';
import { DECISION_STATUSES } from '../../model/decision.ts';
import { decisionAdd, decisionSupersede } from '../../operations/decision-add.ts';
import { decisionRevoke } from '../../operations/decision-revoke.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';
import { decisionLine } from '../render.ts';
import { listCommand, showCommand } from './shared.ts';

export function decisionCommand(io: CliIO) {
  return {
    command: 'decision',
    describe: 'architectural decisions (D-NNN): add, list, show, supersede, revoke',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, decisionAdd))
        .command(listCommand(io, 'decision', DECISION_STATUSES, decisionLine))
        .command(showCommand(io, 'decision', 'id', 'show one decision by ID, slug or alias'))
        .command(operationCommand(io, decisionSupersede))
        .command(operationCommand(io, decisionRevoke))
        .demandCommand(1, 'say what to do: add, list, show, supersede or revoke'),
    handler: () => {},
  };
}
