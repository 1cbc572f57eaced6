import { AxmeError } from '../model/errors.ts';
import { octokitFor } from './client.ts';
import { assertRepoSlug } from './repo-slug.ts';
import { apiHost, type GitHubAuth, resolveToken } from './token.ts';
import { UNREACHABLE_ADVICE, unreachableApi } from './unreachable.ts';

/**
 * Opening knowledge pull requests through GitHub's REST API (Octokit): the one place axme writes
 * to GitHub. GITHUB_API_URL points it at GitHub Enterprise (or a test's local stand-in).
 */

export interface PullRequestRef {
  number: number;
  url: string;
  /** true when a pull request for this branch was open already (its body was updated) */
  existed: boolean;
}

export interface OpenPullOptions {
  /** `owner/name` */
  repo: string;
  head: string;
  base: string;
  title: string;
  body: string;
  env: NodeJS.ProcessEnv;
  auth?: GitHubAuth | undefined;
}

/** Opens a pull request from `head` into `base`; when one is open for that branch already, updates its title and body. */
export async function openPullRequest(opts: OpenPullOptions): Promise<PullRequestRef> {
  assertRepoSlug(opts.repo);
  const [owner, repo] = opts.repo.split('/') as [string, string];
  const auth = opts.auth ?? resolveToken(opts.env, apiHost(opts.env));
  if (!auth.token) {
    throw new AxmeError(
      'GITHUB_FAILED',
      'opening a pull request needs a GitHub token: set GITHUB_TOKEN (or GH_TOKEN), or log in with `gh auth login`. The proposal branch was pushed; run axme propose again once a token is set.',
    );
  }
  const octokit = octokitFor(opts.env, auth.token);
  const request = { signal: AbortSignal.timeout(15_000) };
  try {
    const r = await octokit.rest.pulls.create({ owner, repo, head: opts.head, base: opts.base, title: opts.title, body: opts.body, request });
    return { number: r.data.number, url: r.data.html_url, existed: false };
  } catch (err) {
    const e = err as { status?: number; message?: string; response?: { data?: { errors?: Array<{ message?: string }> } } };
    const already = e.status === 422 && JSON.stringify(e.response?.data ?? '').includes('already exists');
    if (!already) throw githubError(e, opts.repo, auth, opts.env);
  }
  // one open PR per head branch: find it and bring its body up to date
  try {
    const open = await octokit.rest.pulls.list({ owner, repo, head: `${owner}:${opts.head}`, base: opts.base, state: 'open', request });
    const pr = open.data[0];
    if (!pr)
      throw new AxmeError(
        'GITHUB_FAILED',
        `GitHub says a pull request from ${opts.head} into ${opts.base} exists, but lists none open: look at https://github.com/${opts.repo}/pulls`,
      );
    await octokit.rest.pulls.update({ owner, repo, pull_number: pr.number, title: opts.title, body: opts.body, request });
    return { number: pr.number, url: pr.html_url, existed: true };
  } catch (err) {
    if (err instanceof AxmeError) throw err;
    throw githubError(err as { status?: number; message?: string }, opts.repo, auth, opts.env);
  }
}

function githubError(e: { status?: number; message?: string }, repo: string, auth: GitHubAuth, env: NodeJS.ProcessEnv): AxmeError {
  // no HTTP answer came (Octokit calls that a 500 without a response): say so, and what to check
  const unreachable = unreachableApi(e, env);
  if (unreachable)
    return new AxmeError(
      'GITHUB_FAILED',
      `${unreachable}: ${UNREACHABLE_ADVICE}. The proposal branch was pushed; run axme propose again to open the pull request.`,
      { status: null, unreachable: true },
    );
  const status = e.status ?? 0;
  const message = (e.message ?? '').replace(/\/\/[^/@\s]+@/g, '//***@').split('\n')[0];
  const why =
    status === 401
      ? `GitHub rejected the token from ${auth.source} (HTTP 401: invalid or expired)`
      : status === 403
        ? `the token from ${auth.source} may not open pull requests on ${repo} (HTTP 403)`
        : status === 404
          ? `GitHub knows no repository ${repo}, or the token from ${auth.source} cannot see it (HTTP 404): pass --repo owner/name`
          : status === 422
            ? `GitHub refused the pull request (HTTP 422: ${message})`
            : status
              ? `GitHub answered HTTP ${status} (${message})`
              : `GitHub could not be reached (${message})`;
  return new AxmeError('GITHUB_FAILED', `${why}. The proposal branch was pushed; run axme propose again to open the pull request.`, { status });
}
