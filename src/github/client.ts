import { Octokit } from '@octokit/rest';
import { apiBaseUrl } from './token.ts';

/**
 * The Octokit client axme uses: the API base URL from the environment (GitHub Enterprise, a
 * test's stand-in), silent (callers turn errors into messages). Import this module lazily from
 * anything a CLI start loads: Octokit is ~150 KB to compile.
 */
export function octokitFor(env: NodeJS.ProcessEnv, token: string | null): Octokit {
  return new Octokit({
    auth: token ?? undefined,
    baseUrl: apiBaseUrl(env),
    userAgent: 'axme',
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
}
