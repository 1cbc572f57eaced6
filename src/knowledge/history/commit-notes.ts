import { MEMORY_REF } from '../../model/refs.ts';
import { REPO_SLUG_RE } from '../../model/repo-slug.ts';
import { SESSION_ID_RE } from '../../model/session-id.ts';
import { readSession, recordEvent } from '../../session/sessions.ts';
import { commitInfo, type GitAt, headBranch, NOTES_REF, readNote, trailersOf, writeNote } from '../../store/code-commits.ts';
import { headMessageSync } from '../../store/head-message.ts';
import { locateRepo, type RepoLocation, readRefSync } from '../../store/locate.ts';
import { dropPendingNote, pendingNoteCommit } from './git-hook-files.ts';

/**
 * The notes on `refs/notes/axme` that tie code commits to what was behind them (docs/git-hooks.md#trailers-and-notes): the
 * post-commit hook writes one for each new commit, post-rewrite carries them over an amend or a
 * rebase.
 */

export interface NoteCommitOptions {
  /** the repository (its folder and environment) the commit was made in */
  at: GitAt;
  now: Date;
  /** the agent session the commit was made in, when its message has no Axme-Session trailer */
  sessionOf: (loc: RepoLocation | null) => string | null;
}

/**
 * Whether HEAD's commit has nothing to tie to: no agent session, no `Axme-` trailer, no decision
 * cited — a person's plain commit, which gets no note and costs no git process. Decided from
 * HEAD's loose object; false (worth the full look) whenever that cannot be read in-process.
 */
export function nothingToNote(cwd: string, env: NodeJS.ProcessEnv, sessionOf: (loc: RepoLocation | null) => string | null): boolean {
  const loc = locateRepo(cwd, env);
  if (!loc || sessionOf(loc)) return false;
  const message = headMessageSync(loc);
  return message !== null && !/^axme-[a-z]+:/im.test(message) && !/\bD-\d{3,}\b/.test(message);
}

/** Whether any commit has a note yet (false: a rewrite has none to carry). Unknown counts as yes. */
export function mayHaveNotes(cwd: string, env: NodeJS.ProcessEnv): boolean {
  const loc = locateRepo(cwd, env);
  return !loc || readRefSync(loc.commonDir, NOTES_REF) !== null;
}

/**
 * Writes the note of HEAD: the session, the PR and repo of its trailers, the memory tip at the
 * time, the decisions its message cites, the branch; and records the commit in the session's
 * machine-local log. Lines sorted, as git's cat_sort_uniq rewrite mode leaves them.
 */
export async function noteCommit(opts: NoteCommitOptions): Promise<void> {
  const { at } = opts;
  const info = await commitInfo(at, 'HEAD');
  if (!info) return;
  const { commit: head, message } = info;
  const t = await trailersOf(at, message);
  const loc = locateRepo(at.cwd, at.env);
  const tip = loc ? readRefSync(loc.commonDir, MEMORY_REF) : null;
  const session = t.get('axme-session') ?? opts.sessionOf(loc);
  // the session's own record of what it committed (machine-local)
  // (a session from elsewhere, named by AXME_SESSION, has no local record: the note still says it)
  if (session && loc && readSession(loc.commonDir, session)) recordEvent(loc.commonDir, session, { t: opts.now.toISOString(), type: 'commit', commit: head });
  const text = noteText({
    message,
    session,
    pr: t.get('axme-pr') ?? null,
    repo: t.get('axme-repo') ?? null,
    tip: tip && tip !== 'unknown' ? tip : null,
    branch: await headBranch(at),
  });
  if (text) await writeNote(at, head, text);
}

/**
 * The note of the merge commit `git merge` just made (post-merge): written only when commit-msg
 * checked that commit — HEAD has the parent and subject of the note it left. A fast-forward or a
 * squash made no commit of its own (commit-msg did not run): nothing is written, and the commits a
 * fast-forward brings keep what they had.
 */
export async function noteMergeCommit(opts: NoteCommitOptions): Promise<void> {
  const loc = locateRepo(opts.at.cwd, opts.at.env);
  const pending = loc ? pendingNoteCommit(loc.gitDir) : null;
  if (!loc || !pending) return;
  dropPendingNote(loc.gitDir);
  const head = await commitInfo(opts.at, 'HEAD');
  const parent = head ? ((await commitInfo(opts.at, `${head.commit}^1`))?.commit ?? null) : null;
  if (!head || parent !== pending.parent || head.subject !== pending.subject) return;
  await noteCommit(opts);
}

/**
 * A commit's note from what is known about it: the session, the PR and repo of its trailers, the
 * memory tip, the decisions its message cites, the branch — one `key: value` per line, sorted as
 * git's cat_sort_uniq rewrite mode leaves them (a note reads the same after a rebase); null when
 * there is nothing but the tip and the branch, that is, nothing that ties the commit to anything.
 */
export function noteText(c: {
  message: string;
  session: string | null;
  pr: string | null;
  repo: string | null;
  tip: string | null;
  branch: string | null;
}): string | null {
  const decisions = [...new Set(c.message.match(/\bD-\d{3,}\b/g) ?? [])];
  const lines: string[] = [];
  // a value is one token or nothing (a trailer git unfolded, a line break): never a line of its own
  if (c.session && SESSION_ID_RE.test(c.session)) lines.push(`session: ${c.session}`);
  if (c.pr && /^(?:none|[1-9][0-9]{0,9})$/.test(c.pr)) lines.push(`pr: ${c.pr}`);
  if (c.repo && REPO_SLUG_RE.test(c.repo)) lines.push(`repo: ${c.repo}`);
  if (c.tip) lines.push(`memory: ${c.tip}`);
  if (decisions.length) lines.push(`decisions: ${decisions.join(', ')}`);
  if (!lines.length || (lines.length === 1 && c.tip)) return null;
  if (c.branch) lines.push(`branch: ${c.branch}`);
  return `${lines.sort().join('\n')}\n`;
}

/**
 * Each rewritten commit keeps the note of the commit it replaces — exactly, not merged with the
 * note post-commit wrote for the new commit.
 */
export async function carryNotes(opts: { at: GitAt; rewrites: Array<{ from: string; to: string }> }): Promise<void> {
  for (const { from, to } of opts.rewrites) {
    // the original note wins: post-commit already wrote one for the amended commit, and git's
    // cat_sort_uniq copy would leave two `memory:` lines
    const note = await readNote(opts.at, from);
    if (note && (await readNote(opts.at, to)) !== note) await writeNote(opts.at, to, note);
  }
}
