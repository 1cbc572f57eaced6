import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What `git rev-parse --git-dir --git-common-dir --is-bare-repository --show-object-format` says. */
export interface Discovered {
  gitDir: string;
  commonDir: string;
  bare: boolean;
  objectFormat: string;
}

/** Variables that change how git finds a repository or reads it: with any of them set, git itself is asked. */
const DISCOVERY_ENV = [
  'GIT_DIR',
  'GIT_COMMON_DIR',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
  'GIT_OBJECT_DIRECTORY',
  'GIT_CONFIG_COUNT',
  'GIT_CONFIG_PARAMETERS',
  'GIT_NAMESPACE',
];

/**
 * The answer `git rev-parse` would give for an ordinary working tree, found with a few file
 * reads instead of a git process (a read command's start-up, docs/benchmarks.md "Start-up"), or
 * null whenever the case is anything but ordinary — then the caller asks git, whose answer
 * (and error message) is the reference. Ordinary means: a working tree whose `.git` is a folder
 * or a `gitdir:` file; no variable of DISCOVERY_ENV set; the repository and the working tree
 * owned by this user (git's safe.directory check is then moot); no filesystem boundary crossed
 * on the way up; a config with no `[extensions]` (object format, reftable, worktree config) and
 * not `bare = true`. Paths are real paths, as git gives them.
 */
export function discoverOrdinaryRepo(cwd: string, env: NodeJS.ProcessEnv): Discovered | null {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return null;
  if (DISCOVERY_ENV.some((k) => env[k] !== undefined)) return null;
  try {
    const start = realpathSync(cwd);
    const uid = process.getuid();
    const dev = statSync(start).dev;
    for (let dir = start; ; dir = dirname(dir)) {
      const st = statSync(dir);
      if (st.dev !== dev) return null;
      const gitDir = gitDirOf(join(dir, '.git'));
      if (gitDir === 'other') return null;
      if (gitDir) {
        if (st.uid !== uid || statSync(gitDir).uid !== uid) return null;
        const commonDir = commonDirOf(gitDir);
        if (commonDir !== gitDir && statSync(commonDir).uid !== uid) return null;
        if (!ordinaryConfig(commonDir)) return null;
        return { gitDir, commonDir, bare: false, objectFormat: 'sha1' };
      }
      // a git directory itself (inside .git, a bare repository): git's own rules are subtle there
      if (isGitDirLike(dir)) return null;
      if (dirname(dir) === dir) return null;
    }
  } catch {
    return null;
  }
}

/** The git dir `.git` names (a folder, or a `gitdir:` file), null when there is no `.git`, 'other' for anything unexpected. */
function gitDirOf(dotGit: string): string | null | 'other' {
  let st;
  try {
    st = statSync(dotGit);
  } catch {
    return null;
  }
  if (st.isDirectory()) return isGitDirLike(dotGit) ? realpathSync(dotGit) : 'other';
  if (!st.isFile()) return 'other';
  const m = /^gitdir: (.+)$/.exec(readFileSync(dotGit, 'utf8').replace(/\r?\n$/, ''));
  if (!m) return 'other';
  const target = m[1]!.startsWith('/') ? m[1]! : join(dirname(dotGit), m[1]!);
  return isGitDirLike(target) ? realpathSync(target) : 'other';
}

function isGitDirLike(dir: string): boolean {
  try {
    if (!statSync(join(dir, 'HEAD')).isFile()) return false;
    // a linked worktree's git dir keeps HEAD; refs and objects are in the common dir (as git checks it)
    const common = existsSync(join(dir, 'commondir')) ? commonDirOf(dir) : dir;
    return statSync(join(common, 'refs')).isDirectory() && statSync(join(common, 'objects')).isDirectory();
  } catch {
    return false;
  }
}

function commonDirOf(gitDir: string): string {
  let text: string;
  try {
    text = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
  } catch {
    return gitDir;
  }
  return realpathSync(text.startsWith('/') ? text : join(gitDir, text));
}

/** A repository config git reads the ordinary way: format 0 or 1, no extensions, not bare. */
function ordinaryConfig(commonDir: string): boolean {
  const text = readFileSync(join(commonDir, 'config'), 'utf8');
  if (/^\s*\[\s*extensions/im.test(text) || /^\s*\[\s*include/im.test(text)) return false;
  if (/^\s*bare\s*=\s*(true|yes|on|1)\s*$/im.test(text)) return false;
  const version = /^\s*repositoryformatversion\s*=\s*(\d+)\s*$/im.exec(text);
  return !version || version[1] === '0' || version[1] === '1';
}
