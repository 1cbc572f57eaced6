import { z } from 'zod';
import type { HistoryResult, ItemVersion } from '../knowledge/history/item-history.ts';
import type { WorklogEntry } from '../knowledge/history/worklog.ts';
import { changeLines } from '../knowledge/review/diff/render-diff.ts';
import { settledLine } from '../knowledge/sync/settled-line.ts';
import type { KindName } from '../model/kind.ts';
import { SPECS } from '../model/paths.ts';
import { textOf } from './lines.ts';
import { defineOperation, READ } from './operation.ts';
import { atParam } from './params.ts';

const KINDS = Object.keys(SPECS) as [KindName, ...KindName[]];

const limitParam = z.number().int().min(1).max(1000).optional().describe('at most this many entries (default 20)');
const Entries = z.looseObject({
  entries: z
    .array(z.looseObject({ commit: z.string(), date: z.string(), subject: z.string() }))
    .describe('commits of refs/memory/main, newest first, with their trailers (actor, event, session, items)'),
});
const logLine = (e: WorklogEntry) => `${e.commit.slice(0, 12)} ${e.date} ${e.actor ?? '-'}: ${e.subject}`;
/** Under a merged version: what it combined, both values of each field both sides changed. */
const mergeLines = (v: ItemVersion) =>
  v.merge
    ? [
        `    merged ${v.merge.parents.map((p) => p.slice(0, 12)).join(' and ')}${v.merge.settled.length ? ':' : ' (no field changed on both sides)'}`,
        ...v.merge.settled.map((f) => `    ${settledLine(f)}`),
      ]
    : [];

/** history: `axme history <ref>`, `axme_history` (the tool always gives the diffs; the CLI with --patch). */
export const history = defineOperation({
  id: 'history',
  summary: 'History of one item',
  description:
    "Every version of one item (by ID, slug, alias or path), newest first, with commit, date, actor and the diff from the version before; two clones' concurrent edits both appear, and the sync merge that combined them is marked merged with both values of each field both changed.",
  input: {
    id_or_slug: z.string().min(1).max(300).describe('D-001, a slug, an alias, or a path like safety/rules.yaml'),
    at: atParam,
    kind: z.enum(KINDS).optional().describe('when a slug names items of several kinds'),
    patch: z.boolean().optional().describe('show the diff of each version'),
  },
  output: z.looseObject({
    path: z.string().describe('the file in the store'),
    store: z.string().optional().describe("the store holding it, when not this repository's (a workspace item)"),
    versions: z
      .array(z.looseObject({ commit: z.string(), change: z.string() }))
      .describe(
        'newest first, every line of history: commit, date, author, actor, event, subject, change (added, changed, removed, merged), patch; a merged version has merge: its parents and the fields both sides changed (field, value, rule, sides with each commit and value)',
      ),
  }),
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_history', omit: ['patch'], defaults: { patch: true } },
  async run(kb, input): Promise<HistoryResult> {
    const { itemHistory } = await import('../knowledge/history/item-history.ts');
    return itemHistory(kb, { ref: input.id_or_slug, kind: input.kind, at: input.at, patch: !!input.patch });
  },
  cli: {
    command: ['history'],
    describe: "one item's versions: ID, slug, alias or memory-tree path (e.g. safety/rules.yaml)",
    positional: ['id_or_slug'],
    names: { id_or_slug: 'ref' },
    alias: { patch: 'p' },
    // the versions with each file's text
    json: (r) => r,
    text: (r) =>
      textOf(
        r.versions.flatMap((v) => [
          `${v.commit.slice(0, 12)}  ${v.date}  ${(v.actor ?? '-').padEnd(7)}  ${v.change.padEnd(7)}  ${v.subject}`,
          ...mergeLines(v),
          ...(v.patch ? [v.patch] : []),
        ]),
      ),
  },
  json: (r) => ({ path: r.path, ...(r.store ? { store: r.store } : {}), versions: r.versions.map(({ text: _t, ...v }) => v) }),
  text: (r) =>
    [
      `# History of ${r.path}${r.store ? ` in ${r.store}` : ''} (${r.versions.length} versions)`,
      ...r.versions.map(
        (v) =>
          `## ${v.commit.slice(0, 12)} ${v.date} ${v.actor ?? '-'} ${v.change}: ${v.subject}\n${mergeLines(v)
            .map((l) => `${l.trim()}\n`)
            .join('')}${v.patch ?? ''}`,
      ),
    ].join('\n\n'),
});

/** worklog: `axme_worklog` (AXME Code's name): one line per commit. */
export const worklog = defineOperation({
  id: 'worklog',
  summary: 'Worklog',
  description: 'What happened to the knowledge, newest first: one line per commit of refs/memory/main.',
  input: { limit: limitParam, at: atParam },
  output: Entries,
  annotations: READ,
  write: false,
  cli: null,
  mcp: { tool: 'axme_worklog' },
  async run(kb, input): Promise<WorklogEntry[]> {
    return (await import('../knowledge/history/worklog.ts')).worklog(kb, { limit: input.limit ?? 20, at: input.at });
  },
  json: (entries) => ({ entries }),
  text: (entries) => entries.map(logLine).join('\n') || 'No entries.',
});

/** log: `axme log`, `axme_log`: since a date, and with `changes` the semantic diff of each commit. */
export const log = defineOperation({
  id: 'log',
  summary: 'Log of the knowledge',
  description:
    'The commits of refs/memory/main with their trailers (actor, token, event, session, items), newest first; `since` limits them to a period, and `changes` adds what each commit changed (items added, superseded, changed with their fields; safety rules).',
  input: {
    limit: limitParam,
    since: z.string().max(200).optional().describe('only changes since this date ("2026-01-31", "2 days ago")'),
    changes: z.boolean().optional().describe('add what each commit changed (the semantic diff)'),
    at: atParam,
  },
  output: Entries,
  annotations: READ,
  write: false,
  // the tool gives 20 entries unless told; the CLI all of them
  mcp: { tool: 'axme_log', defaults: { limit: 20 } },
  async run(kb, input): Promise<WorklogEntry[]> {
    return (await import('../knowledge/history/worklog.ts')).worklog(kb, { limit: input.limit, since: input.since, at: input.at, changes: !!input.changes });
  },
  cli: {
    command: ['log'],
    describe: 'the worklog: every change to the knowledge, newest first',
    alias: { limit: 'n' },
    help: {
      limit: 'at most this many entries (default: all)',
      changes: 'under each commit, what it changed: items added, superseded, changed (fields), safety rules (like git log --stat)',
    },
    json: (entries) => entries,
    text: (entries) =>
      textOf(
        entries.flatMap((e) => [
          `${e.commit.slice(0, 12)}  ${e.date}  ${(e.token ? `${e.actor ?? '-'}:${e.token}` : (e.actor ?? '-')).padEnd(7)}  ${e.subject}`,
          ...(e.changes ? changeLines(e.changes).map((l) => `    ${l}`) : []),
        ]),
      ),
  },
  json: (entries) => ({ entries }),
  text: (entries) =>
    entries.map((e) => [logLine(e), ...(e.changes ? changeLines(e.changes).map((l) => `    ${l}`) : [])].join('\n')).join('\n') || 'No entries.',
});
