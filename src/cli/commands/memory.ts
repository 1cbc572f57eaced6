import type { Argv } from 'yargs';
import { memoryList } from '../../operations/items.ts';
import { memoryGet } from '../../operations/digests.ts';
import { memoryAdd, memorySupersede } from '../../operations/memory-add.ts';
import { memoryUpdate } from '../../operations/memory-update.ts';
import { memoryArchive } from '../../operations/memory-archive.ts';
import { operationCommand } from '../operation-command.ts';
import { type CliIO } from '../io.ts';

export function memoryCommand(io: CliIO) {
  return {
    command: 'memory',
    describe: 'feedback and pattern memories: add, list, show, update, supersede, remove',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, memoryAdd))
        .command(operationCommand(io, memoryList))
        .command(operationCommand(io, memoryGet))
        .command(operationCommand(io, memoryUpdate))
        .command(operationCommand(io, memorySupersede))
        .command(operationCommand(io, memoryArchive))
        .demandCommand(1, 'say what to do: add, list, show, update, supersede or remove'),
    handler: () => {},
  };
}
