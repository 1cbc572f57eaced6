import { z } from 'zod';
import type { ItemAuthor } from '../../knowledge/history/item-authors.ts';
import type { ShowResult } from '../../knowledge/items/show-item.ts';
import type { StaleItem } from '../../knowledge/stale/types.ts';
import { backlogBlock, backlogLine } from '../../knowledge/views/blocks.ts';
import { staleLine } from '../../knowledge/views/stale-marks.ts';
import { BACKLOG_STATUSES, type BacklogItem } from '../../model/backlog.ts';
import { shownJson, writtenByLine } from '../digests.ts';
import { defineOperation, READ } from '../operation.ts';
import { atParam } from '../params.ts';

type BacklogRead = { one: ShowResult<BacklogItem> & { stale?: StaleItem; author?: ItemAuthor } } | { items: Array<BacklogItem & { stale?: string }> };

/** backlog.read: `axme_backlog` (the CLI's `axme backlog list` and `show` are its twins). */
export const backlogRead = defineOperation({
  id: 'backlog.read',
  summary: 'Backlog',
  description:
    'Backlog items (not done ones by default), or one item in full by `id` (rendered like axme_get_decision: its line, description, notes, tags, source).',
  input: {
    at: atParam,
    status: z.enum(BACKLOG_STATUSES).optional().describe('only this status'),
    id: z.string().max(200).optional().describe('B-001 or a slug: show this item'),
  },
  output: z.looseObject({ items: z.array(z.looseObject({})).optional().describe('the items listed (without `id`)') }),
  annotations: READ,
  write: false,
  cli: null,
  mcp: { tool: 'axme_backlog' },
  async run(kb, input): Promise<BacklogRead> {
    const { listWithStaleness, showWithStaleness } = await import('../../knowledge/views/stale-marks.ts');
    const { withAuthor } = await import('../../knowledge/history/item-authors.ts');
    if (input.id) return { one: await withAuthor(kb, await showWithStaleness<BacklogItem>(kb, { kind: 'backlog', ref: input.id, at: input.at }), input.at) };
    const r = await listWithStaleness(kb, { kind: 'backlog', at: input.at, status: input.status ? [input.status] : undefined });
    return { items: r.items as Array<BacklogItem & { stale?: string }> };
  },
  json: (r) => ('one' in r ? shownJson(r.one) : { items: r.items }),
  text: (r) =>
    'one' in r
      ? `${backlogBlock(r.one.item, r.one.store, r.one.stale && staleLine(r.one.stale))}${writtenByLine(r.one.author)}\nSource: ${r.one.location}`
      : r.items.length
        ? `# Backlog (${r.items.length})\n${r.items.map((i) => `${backlogLine(i)}${i.stale ? ` (may be outdated: ${i.stale})` : ''}`).join('\n')}`
        : '# Backlog\nNothing here.',
});
