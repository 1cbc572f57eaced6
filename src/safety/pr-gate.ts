import type { PrLookup, PrState } from '../model/pr-state.ts';
import type { Finding } from './git-rules.ts';

export type { PrLookup, PrState };

/**
 * What a `#!axme pr=N repo=o/r` marker may not be used for, given the PR's state: a merged PR
 * (the branch is stale), a PR that does not exist, and — when `unverifiedPr` is deny — one whose
 * state could not be checked. The one rule for the harness hook and the git hooks alike.
 */
export function prFinding(repo: string, pr: number, answer: PrState | PrLookup, unverifiedPr: 'deny' | 'allow'): Finding | null {
  const { state, detail, unreachable } = typeof answer === 'string' ? { state: answer, detail: undefined, unreachable: false } : answer;
  const where = `PR #${pr} of ${repo}`;
  switch (state) {
    case 'open':
    case 'closed':
      return null;
    case 'merged':
      return {
        rule: 'axme.pr-merged',
        reason: `${where} is already merged, so this branch is stale. Start a new branch from the updated base and open a new PR (or use pr=none)`,
      };
    case 'not-found':
      return {
        rule: 'axme.pr-not-found',
        reason: `${where} does not exist (or the token cannot see it). Check the number and repo in the #!axme marker (or use pr=none)`,
      };
    default:
      if (unverifiedPr === 'allow') return null;
      return {
        rule: 'github.unverifiedPr',
        // no answer came at all: a token would not help, the network or the API URL is the problem
        reason: `the state of ${where} could not be checked${detail ? ` (${detail})` : ''}, and github.unverifiedPr is deny. ${unreachable ? 'Check the network connection and the API URL (GITHUB_API_URL, or git config axme.githubApiUrl) and try again' : 'Provide a token (GITHUB_TOKEN or GH_TOKEN, or `gh auth login`)'}, use pr=none when there is no PR, or ask the user to run: axme safety set github.unverifiedPr allow`,
      };
  }
}
