import { dirname, isAbsolute, join, resolve } from 'node:path';
import { configFiles, configValue, locateRepo, type RepoLocation, readOr, UNKNOWN } from '../knowledge/core/location.ts';
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
