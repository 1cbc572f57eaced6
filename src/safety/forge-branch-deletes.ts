import type { Invocation } from './command.ts';
import { optionValues } from './families/args.ts';
import type { Finding } from './git-rules.ts';
import { matchesName } from './patterns.ts';
import type { Policy } from './policy.ts';

/**
 * Other forges' CLIs deleting a branch by its name, as `git push --delete` would (docs/safety.md,
 * P2): Azure DevOps' `az repos ref delete --name refs/heads/main` (or `heads/main`), GitLab's
 * `glab api -X DELETE projects/:id/repository/branches/main`. A protected branch so deleted is
 * denied as the git rule denies it; any other branch is the infra family's (an ask).
 */

/** The branch a forge command deletes, as written (`refs/heads/` taken off), or null. */
function deletedBranch(inv: Invocation): string | null {
  const a = inv.args.map((w) => w.value);
  if (inv.program === 'az' && a[0] === 'repos' && a[1] === 'ref' && a[2] === 'delete') {
    const name = optionValues(a, '--name')[0];
    return name === undefined ? null : (/^(?:refs\/)?heads\/(.+)$/.exec(name)?.[1] ?? null);
  }
  if (inv.program === 'glab' && a[0] === 'api') {
    const method = optionValues(a, '-X', '--method')[0];
    if (method?.toUpperCase() !== 'DELETE') return null;
    const endpoint = a.slice(1).find((v) => !v.startsWith('-') && /\/repository\/branches\//.test(v));
    return endpoint ? decodeURIComponent(endpoint.replace(/^.*\/repository\/branches\//, '').replace(/[?#].*$/, '')) : null;
  }
  return null;
}

/** The finding of a forge command that deletes a protected branch, or null. */
export function checkForgeBranchDelete(inv: Invocation, policy: Policy): Finding | null {
  const branch = deletedBranch(inv);
  if (branch === null || matchesName(branch, policy.protectedBranches) === null) return null;
  return {
    rule: 'git.protectedBranches',
    reason: `\`${inv.program} ${inv.args
      .slice(0, 3)
      .map((w) => w.value)
      .join(' ')}\` deletes the protected branch ${branch} on the forge, as \`git push --delete\` would; that is not allowed`,
  };
}
