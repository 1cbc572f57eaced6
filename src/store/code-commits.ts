import { AxmeError } from '../model/errors.ts';
import { runGit } from './git.ts';

/**
 * What the git hooks read and write about code commits (not the memory store): trailers,
 * ancestry, the commits a push carries, and notes on `refs/notes/axme` — through the git CLI,
 * which fans notes trees out the way every git expects.
 */

export const NOTES_REF = 'refs/notes/axme';
const ZERO = /^0+$/;

export interface GitAt {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

async function git(at: GitAt, args: string[], input?: string): Promise<string> {
  const r = await runGit(args, { cwd: at.cwd, env: at.env, input, allowFail: true });
  return r.code === 0 ? r.stdout.toString('utf8') : '';
}

/** The value of each trailer `key` in a commit message file's text, via git interpret-trailers. */
export async function trailersOf(at: GitAt, message: string): Promise<Map<string, string>> {
  return trailerMap(await git(at, ['interpret-trailers', '--parse'], message));
}

/** `Key: value` lines (as `interpret-trailers --parse` or `%(trailers:only,unfold)` print them) by lowercased key. */
function trailerMap(out: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of out.split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) map.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return map;
}

/** Adds trailers to a message (git's own placement rules). */
export async function addTrailers(at: GitAt, message: string, trailers: Array<[string, string]>): Promise<string> {
  const args = ['interpret-trailers', '--if-exists', 'replace', ...trailers.flatMap(([k, v]) => ['--trailer', `${k}: ${v}`])];
  const r = await runGit(args, { cwd: at.cwd, env: at.env, input: message });
  return r.stdout.toString('utf8');
}

/** Whether `a` is an ancestor of `b` (false when either object is missing here). */
export async function isAncestor(at: GitAt, a: string, b: string): Promise<boolean> {
  const r = await runGit(['merge-base', '--is-ancestor', a, b], { cwd: at.cwd, env: at.env, allowFail: true });
  return r.code === 0;
}

/**
 * The commits `local` brings that `remote` (or, for a new branch, no remote-tracking ref) lacks,
 * with their Axme-PR / Axme-Repo trailers — one git process however many commits.
 */
export async function commitsToPush(at: GitAt, local: string, remote: string): Promise<Array<{ commit: string; pr: string; repo: string }>> {
  // what the remote already has (its tip, every remote-tracking ref) is not new; a tip unknown here proves nothing
  const known = !ZERO.test(remote) && (await runGit(['cat-file', '-e', `${remote}^{commit}`], { cwd: at.cwd, env: at.env, allowFail: true })).code === 0;
  const range = [local, ...(known ? [`^${remote}`] : []), '--not', '--remotes'];
  const out = await git(at, [
    'log',
    '--max-count=5000',
    '--format=%H%x00%(trailers:key=Axme-PR,valueonly,separator=%x2C)%x00%(trailers:key=Axme-Repo,valueonly,separator=%x2C)%x1e',
    ...range,
  ]);
  return out
    .split('\x1e')
    .map((rec) => rec.trim().split('\0'))
    .filter((f) => f[0] && /^[0-9a-f]{40}/.test(f[0]))
    .map(([commit, pr, repo]) => ({ commit: commit!, pr: (pr ?? '').trim().split(',').at(-1)!.trim(), repo: (repo ?? '').trim().split(',').at(-1)!.trim() }));
}

/** The branch HEAD is on, or null (detached). */
export async function headBranch(at: GitAt): Promise<string | null> {
  const out = (await git(at, ['symbolic-ref', '--quiet', '--short', 'HEAD'])).trim();
  return out || null;
}

/** Writes (replaces) the axme note of a commit. */
export async function writeNote(at: GitAt, rev: string, text: string): Promise<void> {
  await runGit(['notes', `--ref=${NOTES_REF}`, 'add', '-f', '-F', '-', rev], { cwd: at.cwd, env: at.env, input: text });
}

/** The axme note of a commit, or null. */
export async function readNote(at: GitAt, rev: string): Promise<string | null> {
  const r = await runGit(['notes', `--ref=${NOTES_REF}`, 'show', rev], { cwd: at.cwd, env: at.env, allowFail: true });
  return r.code === 0 ? r.stdout.toString('utf8') : null;
}

/**
 * The fields of an axme note (knowledge/history/commit-notes.ts `noteText` writes them: one
 * `key: value` per line), each key with its values in order — a note git's cat_sort_uniq mode
 * merged (a squash of two sessions' commits) holds a key more than once.
 */
export function noteFields(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const key = line.slice(0, i).trim();
    out.set(key, [...(out.get(key) ?? []), line.slice(i + 1).trim()]);
  }
  return out;
}

/** The folder git runs hooks from (core.hooksPath honoured). */
export async function hooksDir(at: GitAt): Promise<string> {
  return (await git(at, ['rev-parse', '--path-format=absolute', '--git-path', 'hooks'])).trim();
}

export async function getConfig(at: GitAt, key: string): Promise<string | null> {
  const v = (await git(at, ['config', '--get', key])).trim();
  return v || null;
}

export async function setConfig(at: GitAt, key: string, value: string): Promise<void> {
  await runGit(['config', key, value], { cwd: at.cwd, env: at.env });
}

export interface CommitInfo {
  commit: string;
  subject: string;
  author: string;
  date: string;
  message: string;
}

/** A code commit's identity and message; null when `rev` names no commit. */
export async function commitInfo(at: GitAt, rev: string): Promise<CommitInfo | null> {
  if (rev.startsWith('-')) return null;
  // one commit, never a range (`a..b` would print its first commit)
  const oid = (await git(at, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).trim();
  if (!/^[0-9a-f]{40}$/.test(oid)) return null;
  const out = await git(at, ['log', '-1', '--format=%H%x00%s%x00%an <%ae>%x00%aI%x00%B', oid, '--']);
  if (!out) return null;
  const [commit, subject, author, date, message] = out.split('\0') as [string, string, string, string, string];
  return { commit, subject, author, date, message };
}

/**
 * A page of HEAD's history, newest first, each commit with its trailers and its note on
 * refs/notes/axme: ONE git process for the page (where commitInfo + trailersOf + readNote per
 * commit take three each).
 */
export async function commitPage(
  at: GitAt,
  opts: { skip: number; count: number },
): Promise<Array<CommitInfo & { trailers: Map<string, string>; note: string | null }>> {
  const r = await runGit(
    [
      'log',
      `--skip=${opts.skip}`,
      `--max-count=${opts.count}`,
      `--notes=${NOTES_REF}`,
      '--format=%H%x00%s%x00%an <%ae>%x00%aI%x00%B%x00%(trailers:only,unfold)%x00%N%x1e',
      'HEAD',
      '--',
    ],
    { cwd: at.cwd, env: at.env, allowFail: true },
  );
  if (r.code !== 0) return [];
  return r.stdout
    .toString('utf8')
    .split('\x1e')
    .map((rec) => rec.replace(/^\n/, ''))
    .filter((rec) => rec.includes('\0'))
    .map((rec) => {
      const [commit, subject, author, date, message, trailers, note] = rec.split('\0') as [string, string, string, string, string, string, string];
      return { commit, subject, author, date, message, trailers: trailerMap(trailers), note: note.trim() ? note : null };
    });
}

/** The commits that last touched each line of a file (optionally lines `from`..`to`), in file order. */
export async function blameLines(at: GitAt, file: string, range?: [number, number]): Promise<Array<{ commit: string; line: number }>> {
  const args = ['blame', '--porcelain', ...(range ? ['-L', `${range[0]},${range[1]}`] : []), '--', file];
  const r = await runGit(args, { cwd: at.cwd, env: at.env, allowFail: true });
  if (r.code !== 0)
    throw new AxmeError(
      'GIT_FAILED',
      `git blame of ${file} failed: ${r.stderr.trim() || `exit ${r.code}`}: check that the file is tracked (git ls-files ${file})`,
      { file },
    );
  const out: Array<{ commit: string; line: number }> = [];
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const m = /^([0-9a-f]{40}) \d+ (\d+)/.exec(line);
    if (m) out.push({ commit: m[1]!, line: Number(m[2]) });
  }
  return out;
}

/** Subjects of code commits, in the order given; a commit that no longer exists is left out. */
export async function commitSubjects(at: GitAt, commits: string[]): Promise<Array<{ commit: string; subject: string }>> {
  const oids = commits.filter((c) => /^[0-9a-f]{40}$/.test(c));
  if (!oids.length) return [];
  const out = await git(at, ['log', '--no-walk=unsorted', '--ignore-missing', '--format=%H%x00%s', ...oids, '--']);
  const found = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [c, s] = line.split('\0');
    if (c && s !== undefined) found.set(c, s);
  }
  return oids.filter((c) => found.has(c)).map((c) => ({ commit: c, subject: found.get(c)! }));
}

/** Which of `paths` (relative to the worktree at `at.cwd`) have uncommitted changes, git status style ("M", "??", ...). */
export async function uncommitted(at: GitAt, paths: string[]): Promise<Array<{ path: string; status: string }>> {
  if (!paths.length) return [];
  const out = await git(at, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...paths.map((p) => `:(top,literal)${p}`)]);
  const res: Array<{ path: string; status: string }> = [];
  const parts = out.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const e = parts[i]!;
    if (e.length < 4) continue;
    const status = e.slice(0, 2).trim();
    res.push({ path: e.slice(3), status });
    // a rename carries its old path as the next field
    if (e[0] === 'R' || e[0] === 'C') i++;
  }
  return res;
}
