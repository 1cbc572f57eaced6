import { locateRepo, settingOf, UNKNOWN } from '../knowledge/core/location.ts';

/**
 * The URL a remote of the repository around `dir` (or at `gitDir`) has, as git's config files set
 * it (git-config.ts: system, user, repository, worktree; the last one wins): plain file reads, no
 * git process. Null when there is no such remote, no repository, or only git can tell.
 */
export function remoteUrlAt(dir: string, env: NodeJS.ProcessEnv, gitDir: string | null, name: string): string | null {
  const loc = gitDir ? { commonDir: gitDir, gitDir } : locateRepo(dir, env);
  const url = loc ? settingOf(loc, env, `remote.${name}.url`) : null;
  return url === UNKNOWN ? null : url;
}
