import type { Argv } from 'yargs';
import { modelsList, modelsPull } from '../../operations/models.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

/** `axme models pull|list|status`: the local model search ranks by meaning with (docs/search.md). */
export function modelsCommand(io: CliIO) {
  return {
    command: 'models',
    describe: 'the local model search ranks by meaning with: pull (download it once, checked), list or status (installed, in use, loads)',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, modelsPull))
        .command({ ...operationCommand(io, modelsList), aliases: ['status'] })
        .demandCommand(1, 'say what to do: pull, list or status'),
    handler: () => {},
  };
}
