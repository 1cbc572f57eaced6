import { commitsToPush, type GitAt, isAncestor } from '../../store/code-commits.ts';

/** What the pre-push hook asks about a pushed ref: is it a fast-forward, which new commits cite a PR. */

/** Whether moving a remote ref from `remote` to `local` needs no force (false when `remote` is unknown here). */
export function isFastForward(at: GitAt, remote: string, local: string): Promise<boolean> {
  return isAncestor(at, remote, local);
}

/**
 * The commits `local` brings that the remote (`remote`, every remote-tracking ref) lacks and
 * whose trailers name a PR: `Axme-PR: <N>` with N a positive number and an `Axme-Repo`.
 */
export async function commitsCitingPrs(at: GitAt, local: string, remote: string): Promise<Array<{ commit: string; pr: number; repo: string }>> {
  const out: Array<{ commit: string; pr: number; repo: string }> = [];
  for (const { commit, pr: prText, repo } of await commitsToPush(at, local, remote)) {
    const pr = Number(prText);
    if (Number.isInteger(pr) && pr > 0 && repo) out.push({ commit, pr, repo });
  }
  return out;
}
