import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PrLookup, PrState } from '../model/pr-state.ts';
import { writeFileAtomicSync } from '../store/atomic-file.ts';
import { octokitFor } from './client.ts';
import { apiBaseUrl, apiHost, type GitHubAuth, resolveToken } from './token.ts';
import { unreachableApi } from './unreachable.ts';

export interface PrStateOptions {
  /** `owner/name` */
  repo: string;
  pr: number;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  /** machine-local cache folder (`<git-common-dir>/axme/github`); none: no cache */
  cacheDir?: string | undefined;
  /** per request (default 2.5 s: two tries fit the hook's 8 s deadline); one retry on a server error or a network failure */
  timeoutMs?: number | undefined;
  /** tests and callers that already know it */
  auth?: GitHubAuth | undefined;
}

/** How long an answer is reused: a merged PR stays merged; open and closed can change. */
const TTL_MS: Record<Exclude<PrState, 'unknown'>, number> = { merged: 24 * 3600_000, open: 60_000, closed: 60_000, 'not-found': 60_000 };

interface CacheEntry {
  state: Exclude<PrState, 'unknown'>;
  at: number;
}

/**
 * The state of a pull request through GitHub's API (`GET /repos/{owner}/{repo}/pulls/{n}`):
 * open | closed | merged | not-found, or unknown with the reason (no token for a private
 * repository, offline, rate limited, server errors). Answers are cached briefly, so a burst of
 * commits asks once; while the rate limit is exhausted nothing is asked until it resets.
 */
export async function prState(opts: PrStateOptions): Promise<PrLookup> {
  const [owner, name] = opts.repo.split('/') as [string, string];
  const now = opts.now().getTime();
  const key = `${owner}__${name}__${opts.pr}`.replace(/[^A-Za-z0-9._-]/g, '_');
  const cached = opts.cacheDir ? readJson<CacheEntry>(join(opts.cacheDir, `${key}.json`)) : null;
  if (cached && now - cached.at < TTL_MS[cached.state]) return { state: cached.state };
  const auth = opts.auth ?? resolveToken(opts.env, apiHost(opts.env));
  // the limit belongs to one API and one token: another token or host is asked anyway
  const limitFile = `rate-limit-${createHash('sha256')
    .update(`${apiBaseUrl(opts.env)}\0${auth.token ?? ''}`)
    .digest('hex')
    .slice(0, 16)}.json`;
  const limited = opts.cacheDir ? readJson<{ until: number }>(join(opts.cacheDir, limitFile)) : null;
  if (limited && limited.until > now) return { state: 'unknown', detail: `GitHub's rate limit is used up until ${new Date(limited.until).toISOString()}` };

  const octokit = octokitFor(opts.env, auth.token);
  let lastError = '';
  let unreachable = false;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const r = await octokit.rest.pulls.get({ owner, repo: name, pull_number: opts.pr, request: { signal: AbortSignal.timeout(opts.timeoutMs ?? 2_500) } });
      const state = r.data.merged || r.data.merged_at ? 'merged' : r.data.state === 'open' ? 'open' : 'closed';
      remember(opts.cacheDir, key, { state, at: now });
      return { state };
    } catch (err) {
      const e = err as { status?: number; response?: { headers?: Record<string, string | undefined> }; message?: string };
      const status = e.status ?? 0;
      const headers = e.response?.headers ?? {};
      if (status === 404) {
        // without a token a private repository's PR is a 404 too: that proves nothing
        if (!auth.token) return { state: 'unknown', detail: 'no GitHub token, and the PR is not public' };
        remember(opts.cacheDir, key, { state: 'not-found', at: now });
        return { state: 'not-found' };
      }
      if ((status === 403 || status === 429) && (headers['x-ratelimit-remaining'] === '0' || headers['retry-after'])) {
        const until = headers['x-ratelimit-reset'] ? Number(headers['x-ratelimit-reset']) * 1000 : now + Number(headers['retry-after'] ?? 60) * 1000;
        if (opts.cacheDir) writeJson(join(opts.cacheDir, limitFile), { until });
        return { state: 'unknown', detail: `GitHub's rate limit is used up until ${new Date(until).toISOString()}` };
      }
      if (status === 401)
        return {
          state: 'unknown',
          detail: auth.token ? `GitHub rejected the token from ${auth.source} (HTTP 401: invalid or expired)` : 'GitHub wants a token (HTTP 401)',
        };
      if (status === 403)
        return { state: 'unknown', detail: `GitHub refused the ${auth.source ?? 'anonymous'} request (HTTP 403: the token lacks access to this repository)` };
      // no HTTP answer (Octokit calls that a 500 without a response): the network, not GitHub
      const noAnswer = unreachableApi(err, opts.env);
      unreachable = noAnswer !== null;
      lastError = noAnswer ?? `GitHub HTTP ${status}`;
      if (status && status < 500 && e.response) break;
    }
  }
  return unreachable ? { state: 'unknown', detail: lastError, unreachable } : { state: 'unknown', detail: lastError };
}

function remember(dir: string | undefined, key: string, entry: CacheEntry): void {
  if (dir) writeJson(join(dir, `${key}.json`), entry);
}

function readJson<T>(path: string): T | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

function writeJson(path: string, value: unknown): void {
  try {
    writeFileAtomicSync(path, JSON.stringify(value));
  } catch {
    // a cache that cannot be written only costs another request
  }
}
