import type { Argv } from 'yargs';
import { decisionList } from '../../operations/items.ts';
import { decisionGet } from '../../operations/digests.ts';
import { decisionAdd, decisionSupersede } from '../../operations/decision-add.ts';
import { decisionRevoke } from '../../operations/decision-revoke.ts';
import { decisionAmend } from '../../operations/decision-amend.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

export function decisionCommand(io: CliIO) {
  return {
    command: 'decision',
    describe: 'architectural decisions (D-NNN): add, list, show, amend, supersede, revoke',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, decisionAdd))
        .command(operationCommand(io, decisionList))
        .command(operationCommand(io, decisionGet))
        .command(operationCommand(io, decisionAmend))
        .command(operationCommand(io, decisionSupersede))
        .command(operationCommand(io, decisionRevoke))
        .demandCommand(1, 'say what to do: add, list, show, amend, supersede or revoke'),
    handler: () => {},
  };
}
