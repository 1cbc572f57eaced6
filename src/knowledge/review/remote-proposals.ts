import { isProposalName } from '../../model/refs.ts';
import { mayHaveRefs } from '../../store/locate.ts';
import { isAncestorOf, type MirroredRef, type RemoteKnowledge, resolve } from '../../store/remote.ts';
import type { Repo } from '../../store/repo.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { listProposalRecords, PROPOSAL_BRANCH_PREFIX, reviewedTrackingRef } from './proposals.ts';

/**
 * Proposals open on a remote, whoever opened them: the remote's `axme/proposals/<name>` branches,
 * mirrored at `refs/remotes/<remote>/axme/proposals/<name>` — where a plain `git fetch` of a clone
 * puts them too — so a teammate's proposal is seen and its semantic diff read from this clone
 * (docs/review.md, "A teammate's proposals").
 */

/** The remote's proposal branches, as `git ls-remote` is asked for them (one glob in the sync's listing). */
export const PROPOSAL_BRANCHES = `refs/heads/${PROPOSAL_BRANCH_PREFIX}*`;

/** Where a remote's proposal branch is mirrored: git's own remote-tracking ref of that branch. */
export const proposalTrackingRef = (remote: string, name: string) => `refs/remotes/${remote}/${PROPOSAL_BRANCH_PREFIX}${name}`;

/** The mirrors of each proposal branch the listing shows, to go into the sync's one fetch. */
export function proposalMirrors(remote: string, listed: RemoteKnowledge): MirroredRef[] {
  const prefix = `refs/heads/${PROPOSAL_BRANCH_PREFIX}`;
  return [...listed.extra.keys()]
    .filter((r) => r.startsWith(prefix) && isProposalName(r.slice(prefix.length)))
    .map((remoteRef) => ({ remoteRef, localRef: proposalTrackingRef(remote, remoteRef.slice(prefix.length)) }));
}

/** Drops the mirrors of proposal branches the remote no longer has (merged and cleaned up, or deleted by hand). */
export async function pruneProposalMirrors(repo: Repo, remote: string, listed: RemoteKnowledge): Promise<void> {
  // every sync asks: without such mirrors here, no git process
  if (!mayHaveRefs(repo.commonDir, `refs/remotes/${remote}/${PROPOSAL_BRANCH_PREFIX}`)) return;
  const keep = new Set(proposalMirrors(remote, listed).map((m) => m.localRef));
  for (const p of await mirroredProposals(repo))
    if (p.remote === remote && !keep.has(p.ref)) await repo.git(['update-ref', '-d', p.ref, p.tip], { allowFail: true });
}

/** A proposal open on a remote. */
export interface RemoteProposal {
  remote: string;
  name: string;
  /** the remote's branch, `axme/proposals/<name>` */
  branch: string;
  /** the local ref mirroring it (what `axme diff --proposal` reads) */
  ref: string;
  tip: string;
  /** its pull request, when this clone's proposals record knows it (the proposal was opened here) */
  pr: number | null;
  url: string | null;
  /** opened from this clone (its record is here) */
  mine: boolean;
}

async function mirroredProposals(repo: Repo): Promise<Array<{ remote: string; name: string; ref: string; tip: string }>> {
  const r = await repo.git(['for-each-ref', '--format=%(objectname) %(refname)', `refs/remotes/*/${PROPOSAL_BRANCH_PREFIX}*`], { allowFail: true });
  const out: Array<{ remote: string; name: string; ref: string; tip: string }> = [];
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [tip, ref] = line.split(' ');
    const m = ref ? /^refs\/remotes\/([^/]+)\/axme\/proposals\/(.+)$/.exec(ref) : null;
    if (tip && ref && m && isProposalName(m[2]!)) out.push({ remote: m[1]!, name: m[2]!, ref, tip });
  }
  return out;
}

/**
 * The proposals open on the remotes as last fetched (`axme sync` or `git fetch`): each mirrored
 * proposal branch whose tip the remote's reviewed branch (`axme/memory`, the base of the pull
 * requests) does not hold yet — one merged there is not open, though its branch may wait for the
 * proposer's sync to remove it. Sorted by remote, then name. No network: what the last fetch saw.
 */
export async function remoteProposals(kb: KnowledgeBase): Promise<RemoteProposal[]> {
  const records = listProposalRecords(kb.repo);
  const out: RemoteProposal[] = [];
  for (const p of (await mirroredProposals(kb.repo)).sort((a, b) => (a.remote + a.name < b.remote + b.name ? -1 : 1))) {
    const reviewed = await resolve(kb.repo, reviewedTrackingRef(p.remote));
    if (reviewed && (await isAncestorOf(kb.repo, p.tip, reviewed))) continue;
    const rec = records.find((r) => r.name === p.name && r.remote === p.remote);
    out.push({ ...p, branch: `${PROPOSAL_BRANCH_PREFIX}${p.name}`, pr: rec?.pr ?? null, url: rec?.url ?? null, mine: !!rec });
  }
  return out;
}

/** One line per open proposal: `origin: axme/proposals/caching (PR #7, yours)`. */
export function remoteProposalLine(p: RemoteProposal): string {
  const about = [p.pr ? `PR #${p.pr}` : '', p.mine ? 'opened here' : "a teammate's"].filter(Boolean).join(', ');
  return `${p.remote}: ${p.branch} (${about}): axme diff --proposal ${p.name}`;
}
