import type { Argv } from 'yargs';
import { addBacklogItem } from '../../knowledge/add-backlog-item.ts';
import { updateBacklogItem } from '../../knowledge/update-backlog-item.ts';
import { BACKLOG_STATUSES, PRIORITIES, type BacklogItem } from '../../model/backlog.ts';
import { out, printJson, withKb, writeJson, type CliIO } from '../io.ts';
import { backlogLine } from '../render.ts';
import { listCommand, showCommand, stdinFields, writeOptions } from './shared.ts';

type Args = Record<string, unknown> & { C?: string; json?: boolean };

export function backlogCommand(io: CliIO) {
  return {
    command: 'backlog',
    describe: 'backlog items (B-NNN): add, list, show, update',
    builder: (y: Argv) =>
      y
        .command(
          'add',
          'add a backlog item',
          (y) =>
            writeOptions(y, ['description'])
              .option('title', { type: 'string', demandOption: true, describe: 'short name of the work' })
              .option('description', { type: 'string', describe: 'what and why' })
              .option('priority', { choices: PRIORITIES, describe: 'high, medium (default) or low' })
              .option('tags', { type: 'string', describe: 'labels, comma-separated or repeated' })
              .option('scope', { type: 'string', describe: 'repositories it applies to, comma-separated' }),
          (a: Args) =>
            withKb(io, a, async (kb) => {
              const s = await stdinFields(io, a, ['description']);
              const r = await addBacklogItem(
                kb,
                { title: a.title as string, description: (s.description ?? a.description) as string | undefined, priority: a.priority as BacklogItem['priority'] | undefined, tags: a.tags as string | undefined, scope: a.scope as string | undefined },
                { allowSecret: !!a.allowSecret },
              );
              if (a.json) return printJson(io, writeJson(r));
              for (const x of [r, ...(r.others ?? [])]) out(io, `${x.duplicate ? 'Backlog item exists' : 'Backlog item created'}: ${x.item.id} - ${x.item.title} (${x.item.priority})${x.store ? ` in ${x.store}` : ''}`);
            }),
        )
        .command(listCommand(io, 'backlog', BACKLOG_STATUSES, backlogLine))
        .command(showCommand(io, 'backlog', 'id', 'show one backlog item'))
        .command(
          'update <id>',
          'change status, priority or tags, or add a note',
          (y) =>
            writeOptions(y, ['notes'])
              .positional('id', { type: 'string' })
              .option('status', { choices: BACKLOG_STATUSES, describe: 'new status' })
              .option('priority', { choices: PRIORITIES, describe: 'new priority' })
              .option('notes', { type: 'string', describe: 'a note to append (dated)' })
              .option('tags', { type: 'string', describe: 'replace the tags, comma-separated' }),
          (a: Args) =>
            withKb(io, a, async (kb) => {
              const s = await stdinFields(io, a, ['notes']);
              const r = await updateBacklogItem(
                kb,
                { id: String(a.id), status: a.status as BacklogItem['status'] | undefined, priority: a.priority as BacklogItem['priority'] | undefined, notes: (s.notes ?? a.notes) as string | undefined, tags: a.tags as string | undefined },
                { allowSecret: !!a.allowSecret },
              );
              if (a.json) return printJson(io, writeJson(r));
              out(io, `${r.changed ? 'Backlog item updated' : 'Backlog item unchanged'}: ${r.item.id} - ${r.item.title} [${r.item.status}, ${r.item.priority}]`);
            }),
        )
        .demandCommand(1, 'say what to do: add, list, show or update'),
    handler: () => {},
  };
}
