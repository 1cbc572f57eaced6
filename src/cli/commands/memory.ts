import type { Argv } from 'yargs';
import { addMemory } from '../../knowledge/add-memory.ts';
import { archiveMemory } from '../../knowledge/archive-memory.ts';
import { MEMORY_STATUSES, MEMORY_TYPES, type Memory } from '../../model/memory.ts';
import { out, printJson, withKb, writeJson, type CliIO } from '../io.ts';
import { memoryLine } from '../render.ts';
import { listCommand, showCommand, stdinFields, writeOptions } from './shared.ts';

type Args = Record<string, unknown> & { C?: string; json?: boolean };

export function memoryCommand(io: CliIO) {
  return {
    command: 'memory',
    describe: 'feedback and pattern memories: add, list, show, remove',
    builder: (y: Argv) =>
      y
        .command(
          'add',
          'save a memory',
          (y) =>
            writeOptions(y, ['description', 'body'])
              .option('type', { choices: MEMORY_TYPES, demandOption: true, describe: 'feedback (how to work here) or pattern (how the code is done)' })
              .option('title', { type: 'string', demandOption: true, describe: 'short name' })
              .option('description', { type: 'string', describe: 'the memory in a sentence or two' })
              .option('body', { type: 'string', describe: 'details, examples, exceptions' })
              .option('keywords', { type: 'string', describe: 'words that should find it, comma-separated' })
              .option('scope', { type: 'string', describe: 'repositories it applies to, comma-separated (default all)' }),
          (a: Args) =>
            withKb(io, a, async (kb) => {
              const s = await stdinFields(io, a, ['description', 'body']);
              const r = await addMemory(
                kb,
                {
                  type: a.type as Memory['type'],
                  title: a.title as string,
                  description: (s.description ?? a.description) as string,
                  body: (s.body ?? a.body) as string | undefined,
                  keywords: a.keywords as string | undefined,
                  scope: a.scope as string | undefined,
                },
                { allowSecret: !!a.allowSecret },
              );
              if (a.json) return printJson(io, writeJson(r));
              for (const x of [r, ...(r.others ?? [])]) out(io, `${x.duplicate ? 'Memory exists' : 'Memory saved'}: ${x.item.slug} (${x.item.type}) -> ${x.location}`);
            }),
        )
        .command(listCommand(io, 'memory', MEMORY_STATUSES, memoryLine, (y) => y.option('type', { choices: MEMORY_TYPES, describe: 'only this type' })))
        .command(showCommand(io, 'memory', 'slug', 'show one memory'))
        .command('remove <slug>', 'archive a memory (it stays in history)', (y) => y.positional('slug', { type: 'string' }), (a: Args) =>
          withKb(io, a, async (kb) => {
            const r = await archiveMemory(kb, { slug: String(a.slug) });
            if (a.json) return printJson(io, writeJson(r));
            out(io, `${r.changed ? 'Memory archived' : 'Memory already archived'}: ${r.item.slug}`);
          }),
        )
        .demandCommand(1, 'say what to do: add, list, show or remove'),
    handler: () => {},
  };
}
