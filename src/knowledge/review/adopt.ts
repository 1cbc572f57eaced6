import { prState } from '../../github/pr-state.ts';
import { isAncestorOf, mergeBase, resolve } from '../../store/remote.ts';
import { changedFiles, snapshotAt } from '../../store/tree.ts';
import type { Repo } from '../../store/repo.ts';
import type { KnowledgeBase } from '../kb.ts';
import { dropProposalRecord, listProposalRecords, localProposals, PROPOSAL_BRANCH_PREFIX, PROPOSALS_REF_PREFIX, REVIEWED_BRANCH, reviewedTrackingRef, type ProposalRecord } from './proposals.ts';

/**
 * Adoption (part of `axme sync`): the remote's reviewed branch `axme/memory` is fetched and
 * integrated into refs/memory/main like a teammate's knowledge (fast-forward or three-way merge),
 * whether pull requests reached it by merge commit, squash or rebase. Then each proposal this
 * clone holds is settled: adopted (its changes are on the reviewed branch) -> its ref, record and
 * remote branch are removed; closed without merging (GitHub says so) -> reported, kept, left out.
 */

export interface AdoptionReport {
  /** the reviewed branch's tip, null when the remote has none */
  reviewed: string | null;
  /** how it came into refs/memory/main */
  integrated: 'none' | 'up-to-date' | 'fast-forward' | 'merged' | 'ahead';
  adopted: Array<{ name: string; pr: number | null; source: string }>;
  closed: Array<{ name: string; pr: number; url: string | null; source: string }>;
  pending: Array<{ name: string; pr: number | null; detail?: string }>;
}

export type Integrate = (tip: string | null) => Promise<'none' | 'up-to-date' | 'fast-forward' | 'merged' | 'ahead'>;

/** `listed`: the remote has the reviewed branch (from the sync's ls-remote); `env`: for GitHub's API. */
export async function adoptReviewed(kb: KnowledgeBase, remote: string, integrate: Integrate, opts: { listed: boolean; env?: NodeJS.ProcessEnv | undefined }): Promise<AdoptionReport> {
  const { repo } = kb;
  const env = opts.env;
  const reviewed = await fetchReviewedBranch(repo, remote, opts.listed);
  const report: AdoptionReport = { reviewed, integrated: 'none', adopted: [], closed: [], pending: [] };
  if (!reviewed) return report;
  report.integrated = await integrate(reviewed);

  const records = new Map(listProposalRecords(repo).filter((r) => r.remote === remote).map((r) => [r.name, r]));
  const refs = await localProposals(repo);
  for (const name of new Set([...refs.keys(), ...records.keys()])) {
    const rec = records.get(name);
    const head = refs.get(name) ?? rec?.head;
    if (!head) continue;
    if (await containedIn(kb, head, reviewed)) {
      if (refs.has(name)) await repo.git(['update-ref', '-d', `${PROPOSALS_REF_PREFIX}${name}`, head], { allowFail: true });
      // GitHub may have deleted the branch on merge already: a failed delete changes nothing
      await repo.git(['push', '--quiet', '--no-verify', remote, `:refs/heads/${PROPOSAL_BRANCH_PREFIX}${name}`], { allowFail: true });
      dropProposalRecord(repo, name);
      report.adopted.push({ name, pr: rec?.pr ?? null, source: rec?.source ?? `${PROPOSALS_REF_PREFIX}${name}` });
      continue;
    }
    const state = rec?.pr && rec.repo && env ? await prState({ repo: rec.repo, pr: rec.pr, env, now: kb.now }) : null;
    if (state?.state === 'closed') report.closed.push({ name, pr: rec!.pr!, url: rec!.url, source: rec!.source });
    else report.pending.push(state?.state === 'unknown' ? { name, pr: rec?.pr ?? null, detail: state.detail } : { name, pr: rec?.pr ?? null });
  }
  return report;
}

async function fetchReviewedBranch(repo: Repo, remote: string, listed: boolean): Promise<string | null> {
  const ref = reviewedTrackingRef(remote);
  if (!listed) {
    await repo.git(['update-ref', '-d', ref], { allowFail: true });
    return null;
  }
  const r = await repo.git(['fetch', '--no-tags', '--no-write-fetch-head', '--quiet', remote, `+refs/heads/${REVIEWED_BRANCH}:${ref}`], { allowFail: true });
  if (r.code !== 0) {
    // no such branch on the remote (the usual case before the first proposal): nothing to adopt
    if (/couldn't find remote ref|no such ref|not our ref/i.test(r.stderr)) {
      await repo.git(['update-ref', '-d', ref], { allowFail: true });
      return null;
    }
    return resolve(repo, ref); // a transport problem the main fetch did not have: adopt what is known
  }
  return resolve(repo, ref);
}

/**
 * True when the proposal's changes are on `reviewed`: its tip is an ancestor (merged or fast-
 * forwarded), or every file it changed against the common base has the proposal's content there
 * (squashed or rebased: new commits, the same files).
 */
async function containedIn(kb: KnowledgeBase, head: string, reviewed: string): Promise<boolean> {
  const { repo } = kb;
  if (await isAncestorOf(repo, head, reviewed)) return true;
  const base = await mergeBase(repo, head, reviewed);
  const [from, to, there] = await Promise.all([base ? snapshotAt(repo, base) : null, snapshotAt(repo, head), snapshotAt(repo, reviewed)]);
  if (!from) return false;
  const changed = changedFiles(from, to);
  if (!changed.size) return true;
  for (const [path, oid] of changed) if ((there.files.get(path)?.oid ?? null) !== oid) return false;
  return true;
}

export function adoptionLines(r: AdoptionReport, remote: string): string[] {
  const lines: string[] = [];
  if (r.integrated === 'fast-forward' || r.integrated === 'merged') lines.push(`Adopted the reviewed knowledge from ${remote}'s ${REVIEWED_BRANCH} (${r.integrated === 'merged' ? 'merged' : 'fast-forward'}).`);
  for (const a of r.adopted) lines.push(`Proposal ${a.name}${a.pr ? ` (PR #${a.pr})` : ''} was merged: its knowledge is on refs/memory/main; the proposal ref and branch are removed.`);
  for (const c of r.closed) {
    lines.push(
      c.source.startsWith(PROPOSALS_REF_PREFIX)
        ? `Proposal ${c.name} (PR #${c.pr}) was closed without merging: its items stay out of refs/memory/main. They are kept on ${c.source}; \`git update-ref -d ${c.source}\` drops them.`
        : `Proposal ${c.name} (PR #${c.pr}) was closed without merging: it was proposed from ${c.source}, where its changes were written directly and stay (\`axme diff\` shows them; revoke or archive what the review rejected).`,
    );
  }
  for (const p of r.pending) lines.push(`Proposal ${p.name}${p.pr ? ` (PR #${p.pr})` : ''} is still under review${p.detail ? ` (${p.detail})` : ''}.`);
  return lines;
}

export type { ProposalRecord };
