import { matchesName } from '../../safety/patterns.ts';
import { commitsToPush, isAncestor } from '../../store/code-commits.ts';
import { hookSetting, isAgent, prProblem, type GitHookIO } from './context.ts';

const ZERO = /^0+$/;

/**
 * pre-push: for each pushed ref (git's stdin lines), rejects pushes to protected branches,
 * deletion of them and non-fast-forward updates (unless allowed) — for agents, or for everyone
 * with `git.enforceFor: everyone` — and, for everyone, commits whose Axme-PR names a merged PR.
 */
export async function prePush(io: GitHookIO): Promise<number> {
  const s = await hookSetting(io);
  const { policy } = s;
  const binds = isAgent(io.env, s.loc) || policy.enforceFor === 'everyone';
  const directAllowed = policy.allowDirectPushToMain && !policy.requirePrForMain;
  const problems: string[] = [];
  const checked = new Map<string, string | null>();
  for (const line of io.stdin.split('\n')) {
    const [localRef, localOid, remoteRef, remoteOid] = line.trim().split(/\s+/);
    if (!localRef || !localOid || !remoteRef || !remoteOid) continue;
    const branch = remoteRef.startsWith('refs/heads/') ? remoteRef.slice('refs/heads/'.length) : null;
    const prot = branch ? matchesName(branch, policy.protectedBranches) : null;
    if (ZERO.test(localOid)) {
      if (prot && binds) problems.push(`deleting the protected branch ${branch} is not allowed`);
      continue;
    }
    if (prot && binds && !directAllowed) problems.push(`pushing to the protected branch ${branch} is not allowed (git.allowDirectPushToMain=${policy.allowDirectPushToMain}, git.requirePrForMain=${policy.requirePrForMain}): push a feature branch and open a pull request`);
    if (!ZERO.test(remoteOid) && binds && !policy.allowForcePush && !(await isAncestor(s.at, remoteOid, localOid))) {
      problems.push(`${remoteRef} would be rewritten (not a fast-forward) and git.allowForcePush is false: fetch, rebase or merge, then push without force`);
    }
    // a protected branch or a tag carries merged work by design: the stale-branch check is for feature branches
    if (prot || remoteRef.startsWith('refs/tags/')) continue;
    for (const { commit, pr: prText, repo } of await commitsToPush(s.at, localOid, remoteOid)) {
      const pr = Number(prText);
      if (!Number.isInteger(pr) || pr <= 0 || !repo) continue;
      const key = `${repo}#${pr}`;
      if (!checked.has(key)) checked.set(key, await prProblem({ ...s, policy: { ...policy, unverifiedPr: 'allow' } }, repo, pr));
      const problem = checked.get(key);
      if (problem) problems.push(`commit ${commit.slice(0, 12)}: ${problem}`);
    }
  }
  if (!problems.length) return 0;
  io.stderr(`axme: push refused:\n${[...new Set(problems)].map((p) => `  - ${p}`).join('\n')}\n`);
  return 1;
}
