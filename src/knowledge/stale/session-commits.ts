import { SESSION_ID_RE } from '../../model/common.ts';
import { squashedTrailers } from '../../model/squashed-trailers.ts';
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

/** A session that made a commit, and when its work was authored (a rebase or an amend keeps the author date). */
export interface SessionWork {
  session: string;
  /** ms since the epoch: the commit's author date, or the squashed commit's when the squash message gives it; -Infinity when it gives none (GitHub's list) */
  authored: number;
}

/** Who made a commit: every session its note, its trailers and the commits squashed into it name. */
export interface CommitMaker {
  work: SessionWork[];
}

/**
 * The makers of `shas`, by commit ID; a commit git does not print is left out. A squash merge's
 * message names the sessions of the commits it folded in (git's SQUASH_MSG, GitHub's list):
 * model/squashed-trailers.ts reads them, with the date git's message gives each.
 */
export async function commitMakers(kb: KnowledgeBase, shas: string[]): Promise<Map<string, CommitMaker>> {
  const out = new Map<string, CommitMaker>();
  if (!shas.length) return out;
  const r = await kb.repo.git(
    [
      'log',
      '--no-walk=unsorted',
      '--stdin',
      '-z',
      `--notes=${NOTES_REF}`,
      '--format=%H%x02%aI%x02%(trailers:key=Axme-Session,valueonly,separator=%x2C)%x02%N%x02%B',
    ],
    { input: shas.map((s) => `${s}\n`).join(''), allowFail: true },
  );
  if (r.code !== 0) return out;
  for (const chunk of r.stdout.toString('utf8').split('\0')) {
    const [sha = '', date = '', trailers = '', note = '', ...body] = chunk.split('\x02');
    if (!/^[0-9a-f]{40,64}$/.test(sha)) continue;
    const authored = Date.parse(date.trim());
    const own = [...trailers.split(','), ...(noteFields(note).get('session') ?? [])].map((x) => x.trim()).filter((x) => SESSION_ID_RE.test(x));
    const work = new Map<string, number>(own.map((id) => [id, authored]));
    // a session the commit's own note or trailer names is judged by the commit's date; one only a
    // squashed commit names, by the newest date the message gives it
    for (const t of squashedTrailers(body.join('\x02'), 'Axme-Session')) {
      const id = t.value.trim();
      const at = t.authored ?? -Infinity;
      if (SESSION_ID_RE.test(id) && !own.includes(id) && !(work.has(id) && at <= work.get(id)!)) work.set(id, at);
    }
    out.set(sha, { work: [...work].map(([session, at]) => ({ session, authored: at })) });
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
    return m !== undefined && m.work.some((w) => w.authored <= (until.get(w.session) ?? -Infinity));
  };
}
