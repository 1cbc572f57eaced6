import { recordGitHookFacts } from '../../knowledge/history/git-hook-files.ts';
import { commitsCitingPrs, isFastForward } from '../../knowledge/history/pushed-commits.ts';
import { isAgentEnv } from '../../model/agent-env.ts';
import { matchesName } from '../../safety/patterns.ts';
import { agentReason, type GitHookIO, hookSetting, prProblem } from './context.ts';

const ZERO = /^0+$/;
/** All PR lookups of one push share this much time; what has not answered by then counts as unknown. */
const PR_CHECK_BUDGET_MS = 6_000;

/**
 * pre-push: for each pushed ref (git's stdin lines), rejects pushes to protected branches,
 * deletion of them and non-fast-forward updates (unless allowed) — for agents, or for everyone
 * with `git.enforceFor: everyone` — and, for everyone, commits whose Axme-PR names a merged PR.
 */
export async function prePush(io: GitHookIO): Promise<number> {
  const s = await hookSetting(io);
  const { policy } = s;
  if (s.loc && !isAgentEnv(io.env)) recordGitHookFacts(s.loc, policy, { workspace: s.workspace, now: io.now() });
  const agent = agentReason(io.env, s.loc);
  const binds = agent !== null || policy.enforceFor === 'everyone';
  const directAllowed = policy.allowDirectPushToMain && !policy.requirePrForMain;
  const problems: string[] = [];
  // commits citing a PR, by PR: looked up together afterwards, in parallel and within one deadline
  const citing = new Map<string, { repo: string; pr: number; commits: string[] }>();
  for (const line of io.stdin.split('\n')) {
    const [localRef, localOid, remoteRef, remoteOid] = line.trim().split(/\s+/);
    if (!localRef || !localOid || !remoteRef || !remoteOid) continue;
    const branch = remoteRef.startsWith('refs/heads/') ? remoteRef.slice('refs/heads/'.length) : null;
    const prot = branch ? matchesName(branch, policy.protectedBranches) : null;
    if (ZERO.test(localOid)) {
      if (prot && binds) problems.push(`deleting the protected branch ${branch} is not allowed`);
      continue;
    }
    if (prot && binds && !directAllowed)
      problems.push(
        `pushing to the protected branch ${branch} is not allowed (git.allowDirectPushToMain=${policy.allowDirectPushToMain}, git.requirePrForMain=${policy.requirePrForMain}): push a feature branch and open a pull request`,
      );
    if (!ZERO.test(remoteOid) && binds && !policy.allowForcePush && !(await isFastForward(s.at, remoteOid, localOid))) {
      problems.push(`${remoteRef} would be rewritten (not a fast-forward) and git.allowForcePush is false: fetch, rebase or merge, then push without force`);
    }
    // a protected branch or a tag carries merged work by design: the stale-branch check is for feature branches
    if (prot || remoteRef.startsWith('refs/tags/')) continue;
    for (const { commit, pr, repo } of await commitsCitingPrs(s.at, localOid, remoteOid)) {
      const key = `${repo}#${pr}`;
      const entry = citing.get(key) ?? { repo, pr, commits: [] };
      entry.commits.push(commit);
      citing.set(key, entry);
    }
  }
  // the stale-branch check lets unknown states through: a slow or unreachable GitHub must not hold the push
  const lenient = { ...s, policy: { ...policy, unverifiedPr: 'allow' as const } };
  const deadline = new Promise<null>((resolve) => setTimeout(() => resolve(null), PR_CHECK_BUDGET_MS).unref());
  const verdicts = await Promise.all([...citing.values()].map((c) => Promise.race([prProblem(lenient, c.repo, c.pr), deadline])));
  [...citing.values()].forEach((c, i) => {
    if (verdicts[i]) problems.push(`commit${c.commits.length > 1 ? 's' : ''} ${c.commits.map((x) => x.slice(0, 12)).join(', ')}: ${verdicts[i]}`);
  });
  if (!problems.length) return 0;
  const who = agent
    ? `the branch rules bind this push because ${agent}`
    : policy.enforceFor === 'everyone'
      ? 'the branch rules bind everyone (git.enforceFor: everyone)'
      : null;
  io.stderr(`axme: push refused:\n${[...new Set(problems)].map((p) => `  - ${p}`).join('\n')}\n${who ? `(${who})\n` : ''}`);
  return 1;
}
