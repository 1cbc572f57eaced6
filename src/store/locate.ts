import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { refFileDamage } from './ref-damage.ts';

/**
 * Finding a repository and reading its refs with plain synchronous file reads, no git process:
 * the pre-tool-use hook runs on every tool call of an agent and can afford neither a spawn nor
 * an async start-up. Anything unusual (reftable, symbolic refs) is reported as unknown and the
 * caller takes the slow path through the git CLI.
 */

export interface RepoLocation {
  /** this worktree's git dir (HEAD lives here) */
  gitDir: string;
  /** the git dir shared by all worktrees (refs/memory/* live here) */
  commonDir: string;
  /** the top of the working tree, null for a bare repository */
  worktree: string | null;
}

export const OID_RE = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** The repository containing `start` (like git's discovery, GIT_DIR honoured), or null. */
export function locateRepo(start: string, env: NodeJS.ProcessEnv = {}): RepoLocation | null {
  if (env.GIT_DIR) {
    const gitDir = resolve(start, env.GIT_DIR);
    return { gitDir, commonDir: commonDirOf(gitDir), worktree: env.GIT_WORK_TREE ? resolve(start, env.GIT_WORK_TREE) : null };
  }
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const gitDir = gitDirAt(dotGit);
    if (gitDir) return { gitDir, commonDir: commonDirOf(gitDir), worktree: dir };
    if (looksLikeGitDir(dir)) return { gitDir: dir, commonDir: commonDirOf(dir), worktree: null };
    if (dirname(dir) === dir) return null;
  }
}

/** `.git` as a folder, or as a file `gitdir: <path>` (linked worktrees, submodules). */
function gitDirAt(dotGit: string): string | null {
  let st;
  try {
    st = statSync(dotGit);
  } catch {
    return null;
  }
  if (st.isDirectory()) return looksLikeGitDir(dotGit) ? dotGit : null;
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    return m ? resolve(dirname(dotGit), m[1]!) : null;
  } catch {
    return null;
  }
}

function looksLikeGitDir(dir: string): boolean {
  return existsSync(join(dir, 'HEAD')) && (existsSync(join(dir, 'objects')) || existsSync(join(dir, 'commondir'))) && existsSync(join(dir, 'refs'));
}

function commonDirOf(gitDir: string): string {
  try {
    return resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    return gitDir;
  }
}

/** The OID a ref's line in packed-refs gives, or null. */
export function packedRef(packed: string, ref: string): string | null {
  const suffix = ` ${ref}`;
  for (const line of packed.split('\n')) {
    if (line.endsWith(suffix) && !line.startsWith('#') && !line.startsWith('^')) {
      const oid = line.slice(0, line.length - suffix.length);
      if (OID_RE.test(oid)) return oid;
    }
  }
  return null;
}

/**
 * A full ref name whose file in the common git dir is the ref itself: no revision syntax (`~`,
 * `^`, `:`, `@{`), no `..`, no lock file, and not one of the refs each worktree keeps in its own
 * git dir (`refs/worktree/`, `refs/bisect/`, `refs/rewritten/`).
 */
const SHARED_REF = /^refs\/(?!worktree\/|bisect\/|rewritten\/)(?!.*(?:\.\.|@\{|\.lock(?:\/|$)))[^\s~^:?*[\\]+$/;

/** A ref's OID from its loose file or packed-refs; null when absent; 'unknown' when only git can tell (any other name, reftable, a symbolic or unreadable ref). */
export function readRefSync(commonDir: string, ref: string): string | null | 'unknown' {
  if (!SHARED_REF.test(ref) || existsSync(join(commonDir, 'reftable'))) return 'unknown';
  try {
    const v = readFileSync(join(commonDir, ref), 'utf8').trim();
    return OID_RE.test(v) ? v : 'unknown';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return 'unknown';
  }
  try {
    return packedRef(readFileSync(join(commonDir, 'packed-refs'), 'utf8'), ref);
  } catch (err) {
    // no packed-refs file: no such ref; an unreadable one: only git can tell
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : 'unknown';
  }
}

/**
 * A ref's OID read from its file where the file tells (readRefSync), else git's answer through
 * `git` (reftable, symbolic refs, short names, unreadable files); null when absent.
 */
export async function resolveRefOid(
  commonDir: string,
  ref: string,
  git: (args: string[]) => Promise<{ code: number | null; stdout: Buffer }>,
): Promise<string | null> {
  const fromFile = readRefSync(commonDir, ref);
  if (fromFile !== 'unknown') return fromFile;
  const r = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', ref]);
  if (r.code === 0) return r.stdout.toString('utf8').trim();
  // a loose file git ignores as broken is damage to say, not a ref that is not there
  const text = brokenRefText(commonDir, ref);
  if (text !== null) throw refFileDamage(ref, text);
  return null;
}

/** The text of a ref's loose file when it is neither an object name nor a symbolic ref (`ref: …`), else null. */
function brokenRefText(commonDir: string, ref: string): string | null {
  if (!SHARED_REF.test(ref)) return null;
  try {
    const text = readFileSync(join(commonDir, ref), 'utf8').trim();
    return OID_RE.test(text) || text.startsWith('ref:') ? null : text;
  } catch {
    return null;
  }
}

/**
 * False when no ref under `prefix` (e.g. `refs/memory/proposals/`) can exist: no loose folder, no
 * packed line, files backend. Lets a frequent caller skip spawning `git for-each-ref`.
 */
export function mayHaveRefs(commonDir: string, prefix: string): boolean {
  if (existsSync(join(commonDir, 'reftable')) || existsSync(join(commonDir, prefix))) return true;
  try {
    return readFileSync(join(commonDir, 'packed-refs'), 'utf8').includes(` ${prefix}`);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** The branch checked out in a git dir (`ref: refs/heads/<name>`), null when detached or unreadable. */
export function currentBranch(gitDir: string): string | null {
  try {
    const m = /^ref:\s*refs\/heads\/(.+?)\s*$/.exec(readFileSync(join(gitDir, 'HEAD'), 'utf8'));
    return m ? m[1]! : null;
  } catch {
    return null;
  }
}

/**
 * The commit HEAD of a git dir points at, read from files (no git process): null when there is
 * none yet (an unborn branch), 'unknown' when only git can tell (reftable, an unreadable ref).
 */
export function headCommitSync(gitDir: string, commonDir: string): string | null | 'unknown' {
  let head: string;
  try {
    head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
  } catch {
    return 'unknown';
  }
  if (OID_RE.test(head)) return head;
  const m = /^ref:\s*(refs\/\S+)$/.exec(head);
  if (!m) return 'unknown';
  return readRefSync(commonDir, m[1]!);
}
