import { isAncestorOf, mergeBase, resolve } from '../../store/remote.ts';
import { changedFiles, snapshotAt } from '../../store/tree.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import {
  dropProposalRecord,
  listProposalRecords,
  localProposals,
  PROPOSAL_BRANCH_PREFIX,
  PROPOSALS_REF_PREFIX,
  type ProposalRecord,
  REVIEWED_BRANCH,
  reviewedTip,
  reviewedTrackingRef,
} from './proposals.ts';
import { renumberAdopted } from './renumber.ts';

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
  /** display IDs two adopted proposals both used, renumbered in one commit */
  renumbered: Array<{ path: string; from: string; to: string }>;
  adopted: Array<{ name: string; pr: number | null; source: string }>;
  closed: Array<{ name: string; pr: number; url: string | null; source: string }>;
  pending: Array<{ name: string; pr: number | null; detail?: string }>;
}

export type Integrate = (tip: string | null) => Promise<'none' | 'up-to-date' | 'fast-forward' | 'merged' | 'ahead'>;

/** `tracked`: what the sync's fetch left in the tracking refs (fetchKnowledge, the reviewed branch's mirror with them when the remote has it); `env`: for GitHub's API. */
export async function adoptReviewed(
  kb: KnowledgeBase,
  remote: string,
  integrate: Integrate,
  opts: { tracked: ReadonlyMap<string, string>; env?: NodeJS.ProcessEnv | undefined },
): Promise<AdoptionReport> {
  const { repo } = kb;
  const env = opts.env;
  const reviewed = await reviewedTip(repo, remote, opts.tracked);
  const report: AdoptionReport = { reviewed, integrated: 'none', renumbered: [], adopted: [], closed: [], pending: [] };
  if (!reviewed) return report;
  const before = await resolve(repo, kb.ref);
  report.integrated = await integrate(reviewed);
  if (report.integrated === 'fast-forward' || report.integrated === 'merged') report.renumbered = await renumberAdopted(kb, before);

  // one entry per proposal: a local proposal ref (with its record, found by source), or a record alone (proposed from refs/memory/main)
  const records = listProposalRecords(repo).filter((r) => r.remote === remote);
  const refs = await localProposals(repo);
  const entries: Array<{ name: string; ref: string | null; head: string; rec: ProposalRecord | undefined }> = [];
  for (const [name, head] of refs)
    entries.push({ name, ref: `${PROPOSALS_REF_PREFIX}${name}`, head, rec: records.find((r) => r.source === `${PROPOSALS_REF_PREFIX}${name}`) });
  for (const rec of records) {
    if (rec.source.startsWith(PROPOSALS_REF_PREFIX)) {
      // its ref was dropped by hand (a closed proposal let go): nothing left to settle
      if (!refs.has(rec.source.slice(PROPOSALS_REF_PREFIX.length))) dropProposalRecord(repo, rec.name);
      continue;
    }
    entries.push({ name: rec.name, ref: null, head: rec.head, rec });
  }
  for (const { name, ref, head, rec } of entries) {
    const branch = `${PROPOSAL_BRANCH_PREFIX}${rec?.name ?? name}`;
    let merged = await containedIn(kb, head, reviewed);
    const state =
      !merged && rec?.pr && rec.repo && env ? await (await import('../../github/pr-state.ts')).prState({ repo: rec.repo, pr: rec.pr, env, now: kb.now }) : null;
    // merged on GitHub with the reviewer's edits: the reviewed branch has the accepted version
    if (state?.state === 'merged') merged = true;
    if (merged) {
      if (ref) await repo.git(['update-ref', '-d', ref, head], { allowFail: true });
      // only if it still holds what was proposed: a branch of that name reused for a new proposal stays
      const lease = rec?.head ?? head;
      await repo.git(['push', '--quiet', '--no-verify', `--force-with-lease=refs/heads/${branch}:${lease}`, remote, `:refs/heads/${branch}`], {
        allowFail: true,
      });
      if (rec) dropProposalRecord(repo, rec.name);
      report.adopted.push({ name: rec?.name ?? name, pr: rec?.pr ?? null, source: ref ?? rec!.source });
      continue;
    }
    if (state?.state === 'closed') report.closed.push({ name: rec!.name, pr: rec!.pr!, url: rec!.url, source: ref ?? rec!.source });
    else if (rec || ref)
      report.pending.push(
        state?.state === 'unknown' ? { name: rec?.name ?? name, pr: rec?.pr ?? null, detail: state.detail } : { name: rec?.name ?? name, pr: rec?.pr ?? null },
      );
  }
  return report;
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
  if (r.integrated === 'fast-forward' || r.integrated === 'merged')
    lines.push(`Adopted the reviewed knowledge from ${remote}'s ${REVIEWED_BRANCH} (${r.integrated === 'merged' ? 'merged' : 'fast-forward'}).`);
  for (const x of r.renumbered) lines.push(`Renumbered ${x.from} -> ${x.to} (${x.path}): two adopted proposals used the ID.`);
  for (const a of r.adopted)
    lines.push(`Proposal ${a.name}${a.pr ? ` (PR #${a.pr})` : ''} was merged: its knowledge is on refs/memory/main; the proposal ref and branch are removed.`);
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
