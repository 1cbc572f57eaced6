import { join } from 'node:path';
import { getConfig } from '../store/code-commits.ts';
import type { RepoLocation } from '../store/locate.ts';
import type { PrStateOptions } from './pr-state.ts';

/**
 * PR state through GitHub for a hook in the repository at `loc`; Octokit is loaded only when a
 * `#!axme pr=N` marker asks. The API URL is GITHUB_API_URL, else the repository's local
 * `git config axme.githubApiUrl` (GitHub Enterprise) — never a setting from the shared store,
 * which would send the user's token wherever a teammate's commit pointed it. Answers are cached
 * in `<git-common-dir>/axme/github`.
 */
export async function lookupPr(opts: Omit<PrStateOptions, 'cacheDir'> & { loc: RepoLocation | null }) {
  const { loc, ...rest } = opts;
  let env = opts.env;
  if (!env.GITHUB_API_URL && loc) {
    const url = await getConfig({ cwd: loc.gitDir, env: { ...env, GIT_DIR: loc.gitDir } }, 'axme.githubApiUrl');
    if (url && /^https?:\/\//.test(url)) env = { ...env, GITHUB_API_URL: url };
  }
  return (await import('./pr-state.ts')).prState({ ...rest, env, cacheDir: loc ? join(loc.commonDir, 'axme', 'github') : undefined });
}
