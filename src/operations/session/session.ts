import { z } from 'zod';
import type { BeginCloseResult } from '../../knowledge/close/begin-close.ts';
import type { FinalizeCloseResult } from '../../knowledge/close/finalize-close.ts';
import type { RecoverResult } from '../../knowledge/close/recover-session.ts';
import type { SweepResult } from '../../knowledge/close/sweep-orphans.ts';
import type { SavedAnchors } from '../../knowledge/stale/anchor-warnings.ts';
import { FinalizeCloseInput } from '../../model/close.ts';
import { AxmeError } from '../../model/errors.ts';
import { stringList } from '../../model/text.ts';
import type { SessionRow } from '../../session/list.ts';
import { textOf } from '../lines.ts';
import { defineOperation, EDIT, READ } from '../operation.ts';
import { Warnings } from '../results.ts';

/** session.begin-close: `axme session begin-close`, `axme_begin_close`. */
export const sessionBeginClose = defineOperation({
  id: 'session.begin-close',
  summary: 'Begin closing the session',
  description: 'What to extract before the session ends, with what is already stored (to avoid duplicates). Then call axme_finalize_close once.',
  input: {},
  output: z.looseObject({
    counts: z.record(z.string(), z.number()).describe('items stored, by kind'),
    newest: z.looseObject({}).describe('the newest decisions and memories, to leave out duplicates'),
    session: z.string().nullable().describe('the session being closed'),
    recorded: z.looseObject({}).nullable().describe('what the hooks recorded for the session on this machine: files, commits, start'),
    stale: z
      .array(z.looseObject({ kind: z.string(), id: z.string().nullable(), slug: z.string(), title: z.string(), reason: z.string() }))
      .describe('stale items whose anchors cover a file this session changed: update or reconfirm them in this close'),
  }),
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_begin_close', upFront: true },
  async run(kb): Promise<BeginCloseResult> {
    const { beginClose } = await import('../../knowledge/close/begin-close.ts');
    return beginClose(kb);
  },
  // --json: the result as it is, its text included
  cli: { command: ['session', 'begin-close'], describe: 'what to extract before closing', json: (r) => r },
  json: ({ text: _t, ...r }) => r,
  text: (r) => r.text,
});

/** session.finalize: `axme session finalize` (the tool's arguments as one JSON object on stdin), `axme_finalize_close`. */
export const sessionFinalize = defineOperation({
  id: 'session.finalize',
  summary: 'Finalize the session',
  description:
    'Store everything extracted this session (decisions, memories, safety rules), the handoff for the next session and the worklog entry: ONE commit. A decision or memory may also supersede a stored one or remove it (action). Returns what was stored.',
  input: FinalizeCloseInput.shape,
  output: z.looseObject({
    session: z.string().describe('the session closed'),
    commit: z.string().nullable().describe('the one commit that stored everything'),
    decisions: z.array(z.looseObject({})).describe('each decision: id, title, outcome (saved, exists, superseded, removed)'),
    memories: z.array(z.looseObject({})).describe('each memory: slug, title, outcome (saved, exists, superseded, removed)'),
    safety: z.array(z.looseObject({})).describe('each safety rule change and whether it changed anything'),
    handoff: z.string().describe('the handoff file, or "" when the close handed nothing over (no handoff written)'),
    summary: z.string().describe('the session summary file'),
    warnings: Warnings,
  }),
  annotations: EDIT,
  write: true,
  mcp: { tool: 'axme_finalize_close', upFront: true },
  async run(kb, input, opts): Promise<FinalizeCloseResult> {
    const { finalizeClose } = await import('../../knowledge/close/finalize-close.ts');
    // a surface closes the session it knows (AXME_SESSION, the agent's, the server's), never one made up
    return finalizeClose(kb, input, { allowSecret: opts?.allowSecret, requireSession: true });
  },
  // the anchors given to each decision and memory saved (the results follow the input's order)
  anchored: (r, input) => [
    ...r.decisions.flatMap((d, i) => closeSaved('decision', d.outcome, d.id, null, input.decisions?.[i]?.anchors)),
    ...r.memories.flatMap((m, i) => closeSaved('memory', m.outcome, m.slug, m.slug, input.memories?.[i]?.anchors)),
  ],
  cli: {
    command: ['session', 'finalize'],
    describe: 'store extractions, handoff and worklog in one commit (axme_finalize_close arguments as JSON on stdin)',
    stdinJson: true,
    json: (r) => r,
  },
  json: ({ text: _t, ...r }) => r,
  text: (r) => r.text,
});

/** A decision or memory a close saved with the anchors it was given (as the input spells them: a list, or one comma-separated string). */
function closeSaved(kind: 'decision' | 'memory', outcome: string, ref: string, slug: string | null, given: string | string[] | undefined): SavedAnchors[] {
  if ((outcome !== 'saved' && outcome !== 'superseded') || given === undefined) return [];
  const anchors = stringList('anchors').safeParse(given);
  return anchors.success ? [{ kind, id: kind === 'decision' ? ref : null, slug: slug ?? ref, anchors: anchors.data }] : [];
}

type SessionDetail = SessionRow & { file_list: string[]; commit_list: string[]; cwd: string; transcript: string | null };

/** One line per session: id, status, when, harness, files and commits, the commit that closed it. */
function sessionLine(r: SessionRow): string {
  const when = `${r.started.slice(0, 16).replace('T', ' ')}${r.ended ? ` to ${r.ended.slice(11, 16)}` : ''}`;
  return `${r.id}  ${r.status.padEnd(9)}  ${when}  ${r.harness}  ${r.files} file${r.files === 1 ? '' : 's'}, ${r.commits} commit${r.commits === 1 ? '' : 's'}${r.commit ? `  ${r.commit.slice(0, 12)}` : ''}`;
}

const SessionFields = {
  id: z.string().describe('the session id'),
  status: z.string().describe('active, closed, recovered, orphaned...'),
  started: z.string().describe('when it started'),
  ended: z.string().nullable().describe('when it ended'),
  files: z.number().describe('files it changed'),
  commits: z.number().describe('commits it made'),
};

/** session.list: `axme session list` (machine-local state, the CLI's own). */
export const sessionList = defineOperation({
  id: 'session.list',
  summary: 'Sessions on this machine',
  description: "This repository's sessions on this machine, newest first; with `orphans`, only those that ended without a close and await recovery.",
  input: { orphans: z.boolean().optional().describe('only sessions that ended without a close and await recovery') },
  output: z.looseObject({ sessions: z.array(z.looseObject(SessionFields)).describe('newest first') }),
  annotations: READ,
  write: false,
  mcp: null,
  async run(kb, input): Promise<{ rows: SessionRow[]; orphans: boolean }> {
    const { sessionRows } = await import('../../session/list.ts');
    return { rows: sessionRows(kb.repo.commonDir, { orphans: !!input.orphans }), orphans: !!input.orphans };
  },
  cli: {
    command: ['session', 'list'],
    describe: "this repository's sessions on this machine, newest first",
    print: (r, p) => {
      if (p.json) return p.printJson(r.rows);
      for (const row of r.rows) p.out(sessionLine(row));
      if (!r.rows.length) p.note(r.orphans ? 'axme: no orphaned sessions' : 'axme: no sessions recorded yet (Claude Code hooks record them: axme init)');
    },
  },
  json: (r) => ({ sessions: r.rows }),
  text: (r) => r.rows.map(sessionLine).join('\n'),
});

/** session.show: `axme session show <id>`. */
export const sessionShow = defineOperation({
  id: 'session.show',
  summary: 'One session',
  description: 'One session on this machine: its status, folder, transcript, the files it changed and the commits it made.',
  input: { id: z.string().min(1).max(200).describe('the session id (axme session list)') },
  output: z.looseObject({
    ...SessionFields,
    file_list: z.array(z.string()).describe('files changed'),
    commit_list: z.array(z.string()).describe('commits made'),
    cwd: z.string().describe('the folder it ran in'),
  }),
  annotations: READ,
  write: false,
  mcp: null,
  async run(kb, input): Promise<SessionDetail> {
    const { sessionDetail } = await import('../../session/list.ts');
    const d = sessionDetail(kb.repo.commonDir, String(input.id));
    if (!d)
      throw new AxmeError('NOT_FOUND', `no session ${String(input.id)} on this machine: \`axme session list\` shows the sessions this repository has seen`);
    return d;
  },
  cli: { command: ['session', 'show'], describe: 'one session: status, files changed, commits', positional: ['id'] },
  json: (d) => ({ ...d }),
  text: (d) =>
    textOf([
      sessionLine(d),
      `cwd ${d.cwd}${d.transcript ? `\ntranscript ${d.transcript}` : ''}`,
      ...d.file_list.map((f) => `  file ${f}`),
      ...d.commit_list.map((c) => `  commit ${c}`),
    ]),
});

type Recovered = { all: SweepResult } | { one: RecoverResult };

/** session.recover: `axme session recover [id] | --all` (the CLI's own; the server recovers at start and stop). */
export const sessionRecover = defineOperation({
  id: 'session.recover',
  summary: 'Recover a session',
  description:
    'Write the handoff of a session that ended without a close, from what is known (files, commits, duration, its transcript), in one commit by the auditor; with `all`, every orphan (empty ones are set aside).',
  input: {
    id: z.string().max(200).optional().describe('the session (axme session list --orphans)'),
    all: z.boolean().optional().describe('recover every orphan'),
    force: z.boolean().optional().describe('recover a session that is still running'),
  },
  output: z.looseObject({}),
  annotations: EDIT,
  write: false,
  mcp: null,
  async run(kb, input): Promise<Recovered> {
    if (input.all && input.id) throw new AxmeError('INVALID_INPUT', 'give a session id or --all, not both');
    if (!input.all && !input.id) throw new AxmeError('INVALID_INPUT', 'say which session to recover (axme session list --orphans), or pass --all');
    if (input.all) {
      const { sweepOrphans } = await import('../../knowledge/close/sweep-orphans.ts');
      return { all: await sweepOrphans(kb) };
    }
    const { recoverSession } = await import('../../knowledge/close/recover-session.ts');
    return { one: await recoverSession(kb, String(input.id), { force: !!input.force }) };
  },
  cli: {
    command: ['session', 'recover'],
    describe: 'write the handoff of a session that ended without a close, from what is known (files, commits, duration, its transcript)',
    positional: ['id'],
    // exit 1 when a session of --all could not be recovered
    print: (r, p) => {
      if ('one' in r) return p.json ? p.printJson(r.one) : p.out(r.one.text);
      const s = r.all;
      if (p.json) p.printJson(s);
      else {
        for (const x of s.recovered) p.out(x.text);
        for (const id of s.discarded) p.out(`Session ${id} recorded nothing: set aside without a handoff.`);
        for (const id of s.skipped) p.note(`axme: session ${id} is being recovered by another process`);
        for (const e of s.errors) p.note(`axme: could not recover session ${e.session}: ${e.message}`);
        if (!s.recovered.length && !s.discarded.length && !s.errors.length) p.note('axme: no orphaned sessions');
      }
      return s.errors.length ? 1 : 0;
    },
  },
  json: (r) => ('one' in r ? { ...r.one } : { ...r.all }),
  text: (r) =>
    'one' in r
      ? r.one.text
      : [...r.all.recovered.map((x) => x.text), ...r.all.discarded.map((id) => `Session ${id} recorded nothing: set aside without a handoff.`)].join('\n'),
});
