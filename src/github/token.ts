import { spawnSync } from 'node:child_process';

export interface GitHubAuth {
  token: string | null;
  /** where the token came from, for messages: GITHUB_TOKEN, GH_TOKEN, `gh auth token` */
  source: string | null;
}

/** The API base URL: GITHUB_API_URL (GitHub Enterprise, tests), else api.github.com. */
export function apiBaseUrl(env: NodeJS.ProcessEnv): string {
  return (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
}

/** The host `gh` holds a token for: github.com for api.github.com, else the API URL's host. */
export function apiHost(env: NodeJS.ProcessEnv): string {
  try {
    const host = new URL(apiBaseUrl(env)).host;
    return host === 'api.github.com' ? 'github.com' : host;
  } catch {
    return 'github.com';
  }
}

/**
 * The token for GitHub's API: GITHUB_TOKEN, GH_TOKEN, else what the GitHub CLI holds
 * (`gh auth token`, when gh is installed and logged in). None is not an error: public
 * repositories can still be read.
 */
export function resolveToken(env: NodeJS.ProcessEnv, host = 'github.com'): GitHubAuth {
  if (env.GITHUB_TOKEN) return { token: env.GITHUB_TOKEN, source: 'GITHUB_TOKEN' };
  if (env.GH_TOKEN) return { token: env.GH_TOKEN, source: 'GH_TOKEN' };
  const r = spawnSync('gh', ['auth', 'token', '--hostname', host], { env, encoding: 'utf8', timeout: 3_000, stdio: ['ignore', 'pipe', 'ignore'] });
  const token = r.status === 0 ? r.stdout.trim() : '';
  return token ? { token, source: '`gh auth token`' } : { token: null, source: null };
}
