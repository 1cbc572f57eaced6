import { AxmeError } from '../../model/errors.ts';
import type { Repo } from '../../store/repo.ts';
import { resolve } from '../../store/remote.ts';
import { PROPOSAL_BRANCH_PREFIX, REVIEWED_BRANCH, reviewedTrackingRef } from './proposals.ts';

export interface ReviewedHeads {
  /** the reviewed branch's tip (fetched to refs/memory-reviewed/<remote>), null when the remote has none */
  reviewed: string | null;
  /** the remote's refs/memory/main */
  main: string | null;
  /** proposal branches on the remote: name -> tip */
  proposals: Map<string, string>;
}

/**
 * Fetches the remote's knowledge refs and its reviewed branch `axme/memory` into tracking refs
 * (forced there: they only mirror the remote); a reviewed branch the remote dropped is dropped here.
 */
export async function fetchReviewed(repo: Repo, remote: string): Promise<ReviewedHeads> {
  const ls = await repo.git(['ls-remote', '--refs', remote, 'refs/memory/*', `refs/heads/${REVIEWED_BRANCH}`, `refs/heads/${PROPOSAL_BRANCH_PREFIX}*`], { allowFail: true });
  if (ls.code !== 0) throw new AxmeError('GIT_FAILED', `cannot reach remote ${remote}: ${ls.stderr.trim() || `git ls-remote exited ${ls.code}`}`, { remote });
  const heads = new Map<string, string>();
  for (const line of ls.stdout.toString('utf8').split('\n')) {
    const [oid, ref] = line.split('\t');
    if (oid && ref) heads.set(ref, oid);
  }
  const specs: string[] = [];
  if ([...heads.keys()].some((r) => r.startsWith('refs/memory/'))) specs.push(`+refs/memory/*:refs/memory-remotes/${remote}/*`);
  if (heads.has(`refs/heads/${REVIEWED_BRANCH}`)) specs.push(`+refs/heads/${REVIEWED_BRANCH}:${reviewedTrackingRef(remote)}`);
  if (specs.length) {
    const r = await repo.git(['fetch', '--no-tags', '--no-write-fetch-head', '--quiet', remote, ...specs], { allowFail: true });
    if (r.code !== 0) throw new AxmeError('GIT_FAILED', `git fetch from ${remote} failed: ${r.stderr.trim() || `exit ${r.code}`}`, { remote });
  }
  if (!heads.has(`refs/heads/${REVIEWED_BRANCH}`)) await repo.git(['update-ref', '-d', reviewedTrackingRef(remote)], { allowFail: true });
  const proposals = new Map<string, string>();
  for (const [ref, oid] of heads) if (ref.startsWith(`refs/heads/${PROPOSAL_BRANCH_PREFIX}`)) proposals.set(ref.slice(`refs/heads/${PROPOSAL_BRANCH_PREFIX}`.length), oid);
  return { reviewed: await resolve(repo, reviewedTrackingRef(remote)), main: await resolve(repo, `refs/memory-remotes/${remote}/main`), proposals };
}
