import { closeSync, existsSync, fstatSync, lstatSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { AxmeError } from '../model/errors.ts';
import { runGit } from './git.ts';
import type { Repo } from './repo.ts';

/**
 * The project's own files, read from the working tree of the user's checkout (never from the
 * memory ref). Read-only: nothing here writes to the working tree, the index or HEAD.
 */

/** Default bound on the number of files listed. */
export const MAX_WORKTREE_FILES = 200_000;
/** Default bound on the bytes of one file read. */
export const MAX_READ_BYTES = 256 * 1024;

export interface WorktreeFiles {
  /** absolute top-level folder of the working tree (real path) */
  root: string;
  /** paths relative to `root`, `/`-separated, sorted, unique */
  files: string[];
  /** true when more files matched than `limit`: `files` holds the first `limit` of them */
  truncated: boolean;
  /** files that matched (before the limit) */
  matched: number;
}

function noWorktree(repo: Repo, why: string): AxmeError {
  return new AxmeError(
    'INVALID_INPUT',
    `the repository at ${repo.gitDir} ${why}: the scan reads the project's files and needs a working tree. Run it in a checkout (a clone or \`git worktree add\`), not in a bare repository.`,
    { gitDir: repo.gitDir },
  );
}

/**
 * The top-level folder of the repository's working tree. The repo's git runner pins GIT_DIR, which
 * makes git take the process's folder for the top level, so the candidates come from the git dir
 * (core.worktree, a linked worktree's `gitdir` file, the folder holding `.git`) and are checked
 * with `git rev-parse --show-toplevel` run inside them. INVALID_INPUT for a bare repository or
 * one without a working tree.
 */
export async function worktreeRoot(repo: Repo): Promise<string> {
  if (repo.bare) throw noWorktree(repo, 'is bare (it has no working tree)');
  const candidates: string[] = [];
  const cfg = await repo.git(['config', '--get', 'core.worktree'], { allowFail: true });
  const configured = cfg.code === 0 ? cfg.stdout.toString('utf8').trim() : '';
  if (configured) candidates.push(resolve(repo.gitDir, configured));
  const linked = join(repo.gitDir, 'gitdir');
  if (existsSync(linked)) {
    const dotGit = readFileSync(linked, 'utf8').trim();
    if (dotGit) candidates.push(dirname(resolve(repo.gitDir, dotGit)));
  }
  if (basename(repo.gitDir) === '.git') candidates.push(dirname(repo.gitDir));
  const env: NodeJS.ProcessEnv = { ...repo.env };
  delete env.GIT_DIR;
  const wanted = realOrSelf(repo.gitDir);
  for (const dir of candidates) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    const r = await runGit(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir'], { cwd: dir, env, allowFail: true });
    if (r.code !== 0) continue;
    const [top, gitDir] = r.stdout.toString('utf8').trim().split('\n');
    if (top && gitDir && realOrSelf(gitDir) === wanted) return realOrSelf(top);
  }
  throw noWorktree(repo, 'has no working tree git can find');
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

export interface ListOptions {
  /** the working tree's top level (default: worktreeRoot(repo)) */
  root?: string;
  /** at most this many files (default MAX_WORKTREE_FILES) */
  limit?: number;
  /** paths to leave out; they do not count toward the limit */
  exclude?: (path: string) => boolean;
}

/**
 * The project's files: `git ls-files -co --exclude-standard -z` in the working tree, i.e. tracked
 * files and untracked files that are not ignored (.gitignore, .git/info/exclude, core.excludesFile).
 * Nested repositories (listed as `dir/`) are left out. Sorted; bounded by `limit`.
 */
export async function listWorktreeFiles(repo: Repo, opts: ListOptions = {}): Promise<WorktreeFiles> {
  const limit = opts.limit ?? MAX_WORKTREE_FILES;
  if (!Number.isInteger(limit) || limit < 1) throw new AxmeError('INVALID_INPUT', `limit must be a positive whole number, not ${limit}`);
  const root = opts.root ?? (await worktreeRoot(repo));
  const r = await repo.git(['-C', root, '-c', 'core.quotePath=false', 'ls-files', '-co', '--exclude-standard', '-z', '--full-name']);
  const seen = new Set<string>();
  for (const path of r.stdout.toString('utf8').split('\0')) {
    // conflicted files appear once per stage; untracked nested repositories end with "/"
    if (path === '' || path.endsWith('/') || seen.has(path)) continue;
    if (opts.exclude?.(path)) continue;
    seen.add(path);
  }
  const all = [...seen].sort(byCodeUnit);
  return { root, files: all.slice(0, limit), truncated: all.length > limit, matched: all.length };
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface ReadOptions {
  /** files larger than this are not read (default MAX_READ_BYTES) */
  maxBytes?: number;
}

/**
 * Text of the file at `path` (relative, `/`-separated) inside `root`, or null when it cannot be
 * read as text: missing, not a regular file, larger than `maxBytes`, binary (a NUL byte), or a
 * path (or symbolic link) that leads outside `root`. Never throws for a file it cannot read.
 */
export function readWorktreeFile(root: string, path: string, opts: ReadOptions = {}): string | null {
  const maxBytes = opts.maxBytes ?? MAX_READ_BYTES;
  if (path === '' || isAbsolute(path) || path.includes('\0') || path.split(/[\\/]/).some((s) => s === '..')) return null;
  const realRoot = realOrSelf(root);
  const full = join(realRoot, path);
  let fd: number | undefined;
  try {
    // a symbolic link (of the file or a folder on the way) may point anywhere: follow it only inside root
    const real = lstatSync(full).isSymbolicLink() || realOrSelf(dirname(full)) !== dirname(full) ? realpathSync(full) : full;
    if (real !== realRoot && !real.startsWith(realRoot + sep)) return null;
    // a FIFO or device named like a manifest would block the open (and the MCP server with it)
    if (!statSync(real).isFile()) return null;
    fd = openSync(real, 'r');
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return null;
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    const bytes = buf.subarray(0, got);
    if (bytes.includes(0)) return null;
    return bytes.toString('utf8').replace(/^\uFEFF/, '');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A reader for `root` that reads each file at most once: `(path) => text | null`. */
export function worktreeReader(root: string, opts: ReadOptions = {}): (path: string) => string | null {
  const cache = new Map<string, string | null>();
  return (path) => {
    if (!cache.has(path)) cache.set(path, readWorktreeFile(root, path, opts));
    return cache.get(path)!;
  };
}
