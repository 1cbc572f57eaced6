import { locateRepo, settingOf, UNKNOWN } from '../knowledge/core/location.ts';

/**
 * A setting of the repository around `dir` (or at `gitDir`), as git's config files set it
 * (git-config.ts: system, user, repository, worktree; the last one wins): plain file reads, no git
 * process. Null when it is unset, there is no repository, or only git can tell.
 */
export function gitSettingAt(dir: string, env: NodeJS.ProcessEnv, gitDir: string | null, key: string): string | null {
  const loc = gitDir ? { commonDir: gitDir, gitDir } : locateRepo(dir, env);
  const value = loc ? settingOf(loc, env, key) : null;
  return value === UNKNOWN ? null : value;
}

/** The URL a remote of the repository around `dir` (or at `gitDir`) has (gitSettingAt): null when there is no such remote, no repository, or only git can tell. */
export const remoteUrlAt = (dir: string, env: NodeJS.ProcessEnv, gitDir: string | null, name: string): string | null =>
  gitSettingAt(dir, env, gitDir, `remote.${name}.url`);
