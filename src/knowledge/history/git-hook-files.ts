import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MEMORY_REF } from '../../model/refs.ts';
import { sessionRows } from '../../session/list.ts';
import { writeFileAtomicSync } from '../../store/atomic-file.ts';
import { headCommitSync, locateRepo, OID_RE, type RepoLocation, readRefSync } from '../../store/locate.ts';

/**
 * The two small files through which axme's git hooks skip Node when they can
 * (src/setup/launch.ts writes the shell side; docs/git-hooks.md, "The fast path"):
 *
 * - `<git-common-dir>/axme/git-hook-facts`: `v1 <memory tip> <git.requireAxmeSuffix> <git.enforceFor>`,
 *   written by a hook that has just compiled the policy, and only while no agent session of this
 *   repository is open and no workspace store is around. The shell trusts it while the tip (the
 *   loose ref file) is unchanged and the sessions folder has not changed since it was written:
 *   a person's plain commit or push is then answered without starting Node.
 * - `<git-dir>/axme/work/pending-note.{meta,txt}`: the note of the commit being made, worked out
 *   by commit-msg (which runs Node anyway for a marker, a session or a cited decision) and attached
 *   by post-commit with one `git notes add`, so an agent's commit starts Node once, not twice. It
 *   is the worktree's own git dir (the common dir in the main worktree; `worktrees/<name>` in a
 *   linked one), as git keeps COMMIT_EDITMSG: agents committing in two worktrees at once never
 *   drop or take each other's note.
 *
 * Both are derived and machine-local: deleting them changes no verdict, only how fast it comes.
 */

const FACTS = 'git-hook-facts';
/**
 * The pending note, from the git dir: in `axme/work/`, the one folder of `axme/` besides the
 * sessions that an agent's commit may write — the kernel sandbox keeps the rest of `axme/`
 * read-only (docs/safety.md), and the git hooks run inside it when the agent commits.
 */
export const PENDING_NOTE = 'axme/work/pending-note';
/** The facts file's time is set this far back: a sessions folder changed after it is newer even where times have whole seconds. */
const BACKDATE_MS = 2000;

/** The memory tip as the shell hooks read it: the loose ref file's content, else `none`. */
function looseTip(commonDir: string): string {
  try {
    const v = readFileSync(join(commonDir, MEMORY_REF), 'utf8').trim();
    return OID_RE.test(v) ? v : 'unknown';
  } catch {
    return 'none';
  }
}

/**
 * Writes the facts for the shell hooks when they can be trusted: the policy in force (compiled
 * from the tip the shell will compare with), no workspace store merged in, no open agent session
 * (any session created later changes the sessions folder, which makes the file stale), and a
 * sessions folder that has not changed in the last two seconds. Anything else removes the file.
 */
export function recordGitHookFacts(
  loc: RepoLocation,
  policy: { requireAxmeSuffix: string; enforceFor: string },
  opts: { workspace: boolean; now: Date },
): void {
  const file = join(loc.commonDir, 'axme', FACTS);
  const tip = looseTip(loc.commonDir);
  const packed = tip === 'none' && readRefSync(loc.commonDir, MEMORY_REF) !== null;
  const sessions = join(loc.commonDir, 'axme', 'sessions');
  const recent = existsSync(sessions) && statSync(sessions).mtimeMs > opts.now.getTime() - BACKDATE_MS;
  const open = sessionRows(loc.commonDir).some((r) => r.status === 'active');
  try {
    if (opts.workspace || tip === 'unknown' || packed || recent || open) {
      rmSync(file, { force: true });
      return;
    }
    writeFileAtomicSync(file, `v1 ${tip} ${policy.requireAxmeSuffix} ${policy.enforceFor}\n`);
    const then = new Date(opts.now.getTime() - BACKDATE_MS);
    utimesSync(file, then, then);
  } catch {
    // a read-only repository: the hooks take the full path every time
  }
}

/** Forgets the facts (a session opened, init ran): the next hook takes the full path and writes them again. */
export function forgetGitHookFacts(commonDir: string): void {
  try {
    rmSync(join(commonDir, 'axme', FACTS), { force: true });
  } catch {
    // nothing to forget
  }
}

/**
 * Leaves the note of the commit being made for post-commit: the text, and the commit it will
 * follow (post-commit attaches it only to a commit whose first parent that is: an amend, a
 * `--no-verify` commit after an aborted one, get none), the session to record the commit in, the time.
 */
export function leavePendingNote(gitDir: string, note: { text: string; parent: string | null; session: string | null; at: Date; message: string }): void {
  const base = join(gitDir, PENDING_NOTE);
  mkdirSync(dirname(base), { recursive: true });
  writeFileAtomicSync(`${base}.txt`, note.text);
  writeFileAtomicSync(`${base}.meta`, `v1 ${note.parent ?? 'none'} ${note.session ?? '-'} ${note.at.toISOString()}\n${messageSubject(note.message)}\n`);
}

/**
 * The subject git will show for a message (`%s`): comment lines and leading blank lines go (git's
 * cleanup after commit-msg), then the first paragraph's lines, trailing spaces cut, joined by one space.
 */
export function messageSubject(message: string): string {
  const lines = message
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .map((l) => l.replace(/\s+$/, ''));
  while (lines.length && lines[0] === '') lines.shift();
  const end = lines.indexOf('');
  return (end < 0 ? lines : lines.slice(0, end)).join(' ').trim();
}

/** The pending note's commit as commit-msg saw it: the parent it follows (null: none) and its subject; null when there is none. */
export function pendingNoteCommit(gitDir: string): { parent: string | null; subject: string } | null {
  let text: string;
  try {
    text = readFileSync(join(gitDir, `${PENDING_NOTE}.meta`), 'utf8');
  } catch {
    return null;
  }
  const [head = '', subject = ''] = text.split('\n');
  const [v, parent] = head.split(' ');
  if (v !== 'v1' || !parent) return null;
  return { parent: parent === 'none' ? null : parent, subject };
}

/** Removes the worktree's pending note (a commit-msg that finds nothing to note, or that refused the commit). */
export function dropPendingNote(gitDir: string): void {
  for (const ext of ['meta', 'txt']) rmSync(join(gitDir, `${PENDING_NOTE}.${ext}`), { force: true });
}

/** dropPendingNote for the worktree around `cwd`. */
export function dropPendingNoteAt(cwd: string, env: NodeJS.ProcessEnv): void {
  const loc = locateRepo(cwd, env);
  if (loc) dropPendingNote(loc.gitDir);
}

/** The commit HEAD names now (the parent of the commit being made), null before the first commit. */
export const headCommit = (loc: RepoLocation): string | null => {
  const oid = headCommitSync(loc.gitDir, loc.commonDir);
  return oid === 'unknown' ? null : oid;
};
