import { SESSION_ID_RE } from '../../model/common.ts';
import { NOTES_REF, noteFields } from '../../store/code-commits.ts';
import { resolveRefOid } from '../../store/locate.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import type { ChangeLog } from './change-log.ts';

/**
 * Which agent session made each code commit, for `axme verify` to tell the commits that carried an
 * item out (made by the session that saved it, after the save) from changes since
 * (docs/staleness.md#the-sessions-own-commits). A commit's sessions are the `session:` lines of its
 * note on refs/notes/axme and its `Axme-Session` trailers (the trailer survives a squash or a
 * rebase without notes.rewriteRef; the note, one the message lacks): ONE git process for every
 * commit asked, whatever their number.
 */

/** Who made a commit, and when it was authored (a rebase or an amend keeps the author date). */
export interface CommitMaker {
  sessions: string[];
  /** author date, ms since the epoch (NaN when unreadable) */
  authored: number;
}

/** The makers of `shas`, by commit ID; a commit git does not print is left out. */
export async function commitMakers(kb: KnowledgeBase, shas: string[]): Promise<Map<string, CommitMaker>> {
  const out = new Map<string, CommitMaker>();
  if (!shas.length) return out;
  const r = await kb.repo.git(
    ['log', '--no-walk=unsorted', '--stdin', `--notes=${NOTES_REF}`, '--format=%x01%H%x02%aI%x02%(trailers:key=Axme-Session,valueonly,separator=%x2C)%x02%N'],
    { input: shas.map((s) => `${s}\n`).join(''), allowFail: true },
  );
  if (r.code !== 0) return out;
  for (const chunk of r.stdout.toString('utf8').split('\x01')) {
    const [sha = '', authored = '', trailers = '', note = ''] = chunk.split('\x02');
    if (!/^[0-9a-f]{40,64}$/.test(sha)) continue;
    const named = [...trailers.split(','), ...(noteFields(note).get('session') ?? [])].map((s) => s.trim());
    out.set(sha, { sessions: [...new Set(named.filter((s) => SESSION_ID_RE.test(s)))], authored: Date.parse(authored.trim()) });
  }
  return out;
}

/** The tip of refs/notes/axme (null: none), part of what a verify result is remembered by: a note written or synced later can change it. */
export function notesTip(kb: KnowledgeBase): Promise<string | null> {
  return resolveRefOid(kb.repo.commonDir, NOTES_REF, (args) => kb.repo.git(args, { allowFail: true }));
}

/** A session whose commits after an item's learned_at carry the item out, and when it closed (an ISO time; absent while it has not). */
export interface Carrier {
  session: string;
  closed?: string;
}

/**
 * Whether commit `i` of `log` is one that one of `carriers` (the session that saved an item, the
 * one that last reconfirmed it) made up to its close: that session's own work on what it saved or
 * confirmed, by the author date (kept by a rebase, an amend, a cherry-pick). Always false without
 * a carrier.
 */
export function madeBy(log: ChangeLog, makers: ReadonlyMap<string, CommitMaker>, carriers: readonly Carrier[]): (i: number) => boolean {
  if (!carriers.length) return () => false;
  const until = new Map(carriers.map((c) => [c.session, c.closed === undefined ? Infinity : Date.parse(c.closed)]));
  return (i) => {
    const m = makers.get(log.commits[i]!.sha);
    return m !== undefined && m.sessions.some((s) => m.authored <= (until.get(s) ?? -Infinity));
  };
}
