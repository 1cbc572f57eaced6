import { AxmeError } from '../../model/errors.ts';
import { readLog } from '../../store/log.ts';
import { parseDateSpec, resolveAt } from '../../store/revision.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { notInitialized } from '../core/kb.ts';
import { type SemanticDiff, semanticDiff } from '../review/diff/semantic-diff.ts';

export interface WorklogEntry {
  commit: string;
  date: string;
  author: string;
  actor: string | null;
  /** the bearer token the write came with (`axme serve --http`), when any */
  token?: string;
  event: string | null;
  session: string | null;
  items: string[];
  subject: string;
  body: string;
  /** true for a merge commit (sync) */
  merge: boolean;
  /** with `changes`: what the commit changed against its first parent (for a merge: what it brought in) */
  changes?: SemanticDiff;
}

export interface WorklogOptions {
  limit?: number | undefined;
  /** only commits after this date ("2026-11-01", "3 days ago") */
  since?: string | undefined;
  at?: string | undefined;
  /** add each commit's semantic diff (`axme log --changes`) */
  changes?: boolean | undefined;
}

/** The worklog: the commits of the memory ref, newest first, with their axme trailers. */
export async function worklog(kb: KnowledgeBase, opts: WorklogOptions = {}): Promise<WorklogEntry[]> {
  const tip = await resolveAt(kb.repo, kb.ref, opts.at, kb.now());
  if (!tip) throw notInitialized(kb);
  await kb.repo.backend.readCommit(tip); // CORRUPT when the ref points at something else
  let since: Date | undefined;
  if (opts.since !== undefined) {
    since = parseDateSpec(opts.since, kb.now(), { dayStart: true }) ?? undefined;
    if (!since) throw new AxmeError('INVALID_INPUT', `--since ${opts.since} is not a date: use 2026-01-31, 2026-01-31T12:00 or "3 days ago"`);
  }
  if (opts.limit !== undefined && (!Number.isInteger(opts.limit) || opts.limit < 1))
    throw new AxmeError('INVALID_INPUT', '--limit must be a positive whole number');
  const log = await readLog(kb.repo, { rev: tip, limit: opts.limit, since });
  const entries: WorklogEntry[] = log.map((e) => ({
    commit: e.commit,
    date: e.date,
    author: e.author,
    actor: e.trailers['Axme-Actor']?.[0] ?? null,
    ...(e.trailers['Axme-Token']?.[0] ? { token: e.trailers['Axme-Token'][0] } : {}),
    event: e.trailers['Axme-Event']?.[0] ?? null,
    session: e.trailers['Axme-Session']?.[0] ?? null,
    items: e.trailers['Axme-Item'] ?? [],
    subject: e.subject,
    body: e.body,
    merge: e.parents.length > 1,
  }));
  if (opts.changes) {
    // one at a time, oldest first: each commit's state is derived from its parent's, already parsed
    for (let i = entries.length - 1; i >= 0; i--) entries[i]!.changes = await semanticDiff(kb, log[i]!.parents[0] ?? null, log[i]!.commit);
  }
  return entries;
}
