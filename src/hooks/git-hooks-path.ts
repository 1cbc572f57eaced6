import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { locateRepo, type RepoLocation } from '../knowledge/core/location.ts';
import { GIT_HOOK_MARK, GIT_HOOK_NAMES } from '../model/hook-names.ts';

/**
 * The folder git runs the hooks of the repository around `dir` from when nothing overrides its
 * settings — core.hooksPath (the repository's own, such as husky's `.husky/_`, or the user's: a
 * team's folder, `axme init --hooks-path`), else `<git-common-dir>/hooks`; absolute — when axme's
 * git hooks are installed there; null otherwise (no repository, no axme hooks). Asked only for a
 * call whose client switches git hooks off (Gemini CLI), and on the hook's fast path: git's config
 * files are read as git reads them (system, user, repository, worktree; the last one wins), and
 * `askGit` (git itself, from the hooks' slow half: no process module on every call) only when they
 * hold what this reader does not follow (an include).
 */
export async function axmeGitHooksPath(dir: string, env: NodeJS.ProcessEnv, askGit: (dir: string) => Promise<string | null>): Promise<string | null> {
  const loc = locateRepo(dir, env);
  if (!loc?.worktree) return null;
  const set = hooksPathSetting({ ...loc, worktree: loc.worktree }, env);
  const path = set === UNKNOWN ? await askGit(dir) : (set ?? join(loc.commonDir, 'hooks'));
  return path && holdsAxmeHooks(path) ? path : null;
}

/** Whether `path` (a folder git runs hooks from) runs axme's: its hook files, or for husky's `.husky/_` the user's `.husky/<hook>`. */
function holdsAxmeHooks(path: string): boolean {
  const own = /(^|\/)\.husky\/_\/?$/.test(path) ? dirname(path) : path;
  return GIT_HOOK_NAMES.some((hook) => readOr(join(own, hook)).includes(GIT_HOOK_MARK));
}

const UNKNOWN = Symbol('unknown');

/** git's config files in the order it reads them (a later one wins): system, the user's, the repository's, the worktree's. */
function configFiles(loc: RepoLocation, env: NodeJS.ProcessEnv): string[] {
  const files: string[] = [];
  if (!/^(1|true|yes|on)$/i.test(env.GIT_CONFIG_NOSYSTEM ?? '')) files.push(env.GIT_CONFIG_SYSTEM || '/etc/gitconfig');
  if (env.GIT_CONFIG_GLOBAL !== undefined) files.push(env.GIT_CONFIG_GLOBAL);
  else if (env.HOME) files.push(join(env.XDG_CONFIG_HOME || join(env.HOME, '.config'), 'git', 'config'), join(env.HOME, '.gitconfig'));
  files.push(join(loc.commonDir, 'config'), join(loc.gitDir, 'config.worktree'));
  return files;
}

/**
 * core.hooksPath as git's config files set it, resolved as git does (from the top of the working
 * tree, `~/` from HOME); null when none sets it; UNKNOWN when only git can tell.
 */
function hooksPathSetting(loc: RepoLocation & { worktree: string }, env: NodeJS.ProcessEnv): string | null | typeof UNKNOWN {
  let value: string | null = null;
  for (const file of configFiles(loc, env)) {
    const v = configValue(readOr(file), 'core', 'hookspath');
    if (v === UNKNOWN) return UNKNOWN;
    if (v !== null) value = v;
  }
  if (value === null) return null;
  if (value === '') return UNKNOWN;
  if (value.startsWith('~')) return value.startsWith('~/') && env.HOME ? join(env.HOME, value.slice(2)) : UNKNOWN;
  return isAbsolute(value) ? value : resolve(loc.worktree, value);
}

/**
 * The last value of `section.key` in a git config file's text (names case-insensitive, values
 * unquoted, comments dropped); null when it is not set; UNKNOWN for what this reader does not
 * follow (includes, continued lines, escapes).
 */
function configValue(text: string, section: string, key: string): string | null | typeof UNKNOWN {
  let current = '';
  let found: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(\s+"[^"]*")?\s*\]\s*(?:[#;].*)?$/.exec(line);
    if (header) {
      // a subsection (`[core "x"]`) is another section
      current = header[1]!.toLowerCase() + (header[2] ?? '');
      if (current === 'include' || current === 'includeif') return UNKNOWN;
      continue;
    }
    if (line.startsWith('[')) return UNKNOWN;
    if (current !== section) continue;
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!m || m[1]!.toLowerCase() !== key) continue;
    const v = (m[2] ?? '').replace(/\s+[#;].*$/, '').trim();
    if (v.endsWith('\\') || v.includes('\\')) return UNKNOWN;
    found = /^"([^"]*)"$/.test(v) ? v.slice(1, -1) : v.includes('"') ? null : v;
    if (found === null) return UNKNOWN;
  }
  return found;
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
