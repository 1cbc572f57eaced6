import type { Argv } from 'yargs';
import { MEMORY_STATUSES, MEMORY_TYPES } from '../../model/memory.ts';
import { memoryAdd } from '../../operations/memory-add.ts';
import { memoryArchive } from '../../operations/memory-archive.ts';
import { operationCommand } from '../operation-command.ts';
import { type CliIO } from '../io.ts';
import { memoryLine } from '../render.ts';
import { listCommand, showCommand } from './shared.ts';

export function memoryCommand(io: CliIO) {
  return {
    command: 'memory',
    describe: 'feedback and pattern memories: add, list, show, remove',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, memoryAdd))
        .command(listCommand(io, 'memory', MEMORY_STATUSES, memoryLine, (y) => y.option('type', { choices: MEMORY_TYPES, describe: 'only this type' })))
        .command(showCommand(io, 'memory', 'slug', 'show one memory'))
        .command(operationCommand(io, memoryArchive))
        .demandCommand(1, 'say what to do: add, list, show or remove'),
    handler: () => {},
  };
}
