import type { Argv } from 'yargs';
import { modelsEval, modelsList, modelsPull } from '../../operations/models.ts';
import { type CliIO } from '../io.ts';
import { operationCommand } from '../operation-command.ts';

/** `axme models pull|list|status`: the local model search ranks by meaning with (docs/search.md). */
export function modelsCommand(io: CliIO) {
  return {
    command: 'models',
    describe: 'the local model search ranks by meaning with: pull (download it once, checked), list or status (installed, in use, loads), eval (measure search on your own questions, with and without it)',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, modelsPull))
        .command({ ...operationCommand(io, modelsList), aliases: ['status'] })
        .command(operationCommand(io, modelsEval))
        .demandCommand(1, 'say what to do: pull, list, status or eval'),
    handler: () => {},
  };
}
