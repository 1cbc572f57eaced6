import { z } from 'zod';
import type { ShowResult } from '../knowledge/items/show-item.ts';
import type { StaleItem } from '../knowledge/stale/types.ts';
import { backlogLine, decisionBlock, memoryBlock, questionBlock } from '../knowledge/views/blocks.ts';
import type { DigestKind, DigestResult } from '../knowledge/views/read-digest.ts';
import { staleLine } from '../knowledge/views/stale-marks.ts';
import { BACKLOG_STATUSES, type BacklogItem } from '../model/backlog.ts';
import type { Decision } from '../model/decision.ts';
import type { Memory } from '../model/memory.ts';
import type { Question } from '../model/question.ts';
import { type AnyOperation, type CliPrinter, type CliSurface, defineOperation, READ } from './operation.ts';
import { atParam, budgetParam, pageParam } from './params.ts';

const Paged = z.looseObject({
  page: z.number().describe('this page (1-based)'),
  pages: z.number().describe('how many pages there are'),
  total: z.number().describe('how many items in all'),
  commit: z.string().describe('the commit read'),
  items: z.array(z.looseObject({})).describe('the items on this page, in full'),
});

const DigestInput = { at: atParam, page: pageParam, budget: budgetParam };

/** The paged session-start reads: `axme_oracle`, `axme_decisions`, `axme_memories`. */
function digest(
  id: string,
  kind: DigestKind,
  tool: string,
  summary: string,
  description: string,
  cli: CliSurface<typeof DigestInput, DigestResult<unknown>> | null = null,
): AnyOperation {
  return defineOperation({
    id,
    summary,
    description,
    input: DigestInput,
    output: Paged,
    annotations: READ,
    write: false,
    cli,
    mcp: { tool, omit: ['budget'] },
    async run(kb, input): Promise<DigestResult<unknown>> {
      const { readDigest } = await import('../knowledge/views/read-digest.ts');
      return readDigest(kb, { kind, at: input.at, page: input.page, budget: input.budget });
    },
    json: (r) => ({ page: r.page, pages: r.pages, total: r.total, commit: r.commit, items: r.items }),
    text: (r) => r.text,
  });
}

export const oracleShow = digest(
  'oracle.show',
  'oracle',
  'axme_oracle',
  'Project oracle',
  'The stack, structure, patterns and glossary of the project. Paged.',
  {
    command: ['oracle', 'show'],
    describe: 'print the oracle pages',
    json: (r) => r,
  },
);
export const decisionCurrent = digest(
  'decision.current',
  'decision',
  'axme_decisions',
  'Decisions',
  'Current architectural decisions, required ones first (superseded or revoked ones are never listed). Paged.',
);
export const memoryCurrent = digest(
  'memory.current',
  'memory',
  'axme_memories',
  'Memories',
  'Current feedback memories (how to work here) and pattern memories (how the code is done). Paged.',
);

export const Shown = z.looseObject({
  slug: z.string().describe("the item's slug"),
  path: z.string().describe('the file in the store'),
  location: z.string().describe('where to read it with git show: <ref>:<path>'),
  store: z.string().optional().describe("the store it comes from, when not this repository's (a workspace)"),
});
export const shownJson = <T extends object>(r: ShowResult<T> & { stale?: StaleItem }) => ({
  ...r.item,
  path: r.path,
  location: r.location,
  ...(r.store ? { store: r.store } : {}),
  ...(r.stale ? { stale: { reason: r.stale.reason, changes: r.stale.changes, commits: r.stale.commits } } : {}),
});

/** `axme decision show`, `axme memory show`: the stored file as it is, or the item as JSON (the tool's structured content). */
function printShown(r: ShowResult<object> & { stale?: StaleItem }, p: CliPrinter): void {
  if (p.json) p.printJson(shownJson(r));
  else {
    p.out(r.text);
    if (r.stale) p.note(`axme: ${staleLine(r.stale)}`);
  }
}

/** decision.show: `axme decision show <id>`, `axme_get_decision`. */
export const decisionShow = defineOperation({
  id: 'decision.show',
  summary: 'One decision',
  description: 'A decision by ID (D-001), alias or slug, in full.',
  input: { id_or_slug: z.string().min(1).max(200).describe('D-001, an alias or a slug'), at: atParam },
  output: Shown,
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_get_decision' },
  async run(kb, input): Promise<ShowResult<Decision> & { stale?: StaleItem }> {
    const { showWithStaleness } = await import('../knowledge/views/stale-marks.ts');
    return showWithStaleness<Decision>(kb, { kind: 'decision', ref: input.id_or_slug, at: input.at });
  },
  // the CLI prints the stored file as it is
  cli: {
    command: ['decision', 'show'],
    describe: 'show one decision by ID, slug or alias',
    positional: ['id_or_slug'],
    names: { id_or_slug: 'id' },
    print: (r, p) => printShown(r, p),
  },
  json: shownJson,
  text: (r) =>
    `${decisionBlock(r.item, r.store, r.stale && staleLine(r.stale))}\nStatus: ${r.item.status}${r.item.superseded_by ? ` (superseded by ${r.item.superseded_by})` : ''}\nSource: ${r.location}`,
});

/** memory.show: `axme memory show <slug>`, `axme_get_memory`. */
export const memoryShow = defineOperation({
  id: 'memory.show',
  summary: 'One memory',
  description: 'A memory by slug, in full.',
  input: { slug: z.string().min(1).max(200).describe('the memory slug'), at: atParam },
  output: Shown,
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_get_memory' },
  async run(kb, input): Promise<ShowResult<Memory> & { stale?: StaleItem }> {
    const { showWithStaleness } = await import('../knowledge/views/stale-marks.ts');
    return showWithStaleness<Memory>(kb, { kind: 'memory', ref: input.slug, at: input.at });
  },
  cli: { command: ['memory', 'show'], describe: 'show one memory', positional: ['slug'], print: (r, p) => printShown(r, p) },
  json: shownJson,
  text: (r) => `${memoryBlock(r.item, r.store, r.stale && staleLine(r.stale))}\nStatus: ${r.item.status}\nSource: ${r.location}`,
});

type BacklogRead = { one: ShowResult<BacklogItem> & { stale?: StaleItem } } | { items: Array<BacklogItem & { stale?: string }> };

/** backlog.read: `axme_backlog` (the CLI's `axme backlog list` and `show` are its twins). */
export const backlogRead = defineOperation({
  id: 'backlog.read',
  summary: 'Backlog',
  description: 'Backlog items (not done ones by default), or one item in full by `id`.',
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
    const { listWithStaleness, showWithStaleness } = await import('../knowledge/views/stale-marks.ts');
    if (input.id) return { one: await showWithStaleness<BacklogItem>(kb, { kind: 'backlog', ref: input.id, at: input.at }) };
    const r = await listWithStaleness(kb, { kind: 'backlog', at: input.at, status: input.status ? [input.status] : undefined });
    return { items: r.items as Array<BacklogItem & { stale?: string }> };
  },
  json: (r) => ('one' in r ? shownJson(r.one) : { items: r.items }),
  text: (r) =>
    'one' in r
      ? `${r.one.text}${r.one.stale ? `\n${staleLine(r.one.stale)}` : ''}`
      : r.items.length
        ? `# Backlog (${r.items.length})\n${r.items.map((i) => `${backlogLine(i)}${i.stale ? ` (may be outdated: ${i.stale})` : ''}`).join('\n')}`
        : '# Backlog\nNothing here.',
});

/** question.open: `axme_list_open_questions` (the CLI's `axme question list` is its twin). */
export const questionOpen = defineOperation({
  id: 'question.open',
  summary: 'Open questions',
  description: 'Questions waiting for the user.',
  input: { at: atParam },
  output: z.looseObject({ items: z.array(z.looseObject({})).describe('the open questions') }),
  annotations: READ,
  write: false,
  cli: null,
  mcp: { tool: 'axme_list_open_questions' },
  async run(kb, input): Promise<Question[]> {
    const { listItems } = await import('../knowledge/items/list-items.ts');
    return (await listItems(kb, { kind: 'question', at: input.at })).items as Question[];
  },
  json: (items) => ({ items }),
  text: (items) => (items.length ? `# Open questions (${items.length})\n${items.map(questionBlock).join('\n')}` : 'No open questions.'),
});
