import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PROPOSAL_BRANCH_PREFIX, PROPOSALS_REF_PREFIX } from '../../model/refs.ts';
import { writeFileAtomicSync } from '../../store/atomic-file.ts';
import { mayHaveRefs } from '../../store/locate.ts';
import { commitAt, deleteRef, type MirroredRef } from '../../store/remote.ts';
import type { Repo } from '../../store/repo.ts';

/**
 * Knowledge under review. A proposal is a memory line that is not (yet) on refs/memory/main:
 * locally `refs/memory/proposals/<name>` (an agent's writes when `review.required`), on the
 * remote the branch `axme/proposals/<name>` with a pull request into `axme/memory`, the
 * reviewed line `axme sync` adopts from.
 */

/** The remote branch pull requests go into: the reviewed knowledge. */
export const REVIEWED_BRANCH = 'axme/memory';
// the local proposals' ref namespace is the write loop's too (write-target.ts), the branch's the diff's: defined in model/
export { PROPOSAL_BRANCH_PREFIX, PROPOSALS_REF_PREFIX };

/** Where the reviewed branch is fetched to (its own namespace: a remote may have any refs/memory/<name>). */
export const reviewedTrackingRef = (remote: string) => `refs/memory-reviewed/${remote}`;

/** What this clone remembers of a proposal it opened: enough to say later what became of it. */
export interface ProposalRecord {
  name: string;
  /** the local ref proposed (refs/memory/main or refs/memory/proposals/<name>) */
  source: string;
  head: string;
  /** what the reviewed branch held when the proposal was made (the pull request's base) */
  base: string;
  remote: string;
  repo: string | null;
  pr: number | null;
  url: string | null;
  created: string;
}

const dirOf = (repo: Repo) => join(repo.axmeDir, 'proposals');
const fileOf = (repo: Repo, name: string) => join(dirOf(repo), `${name.replace(/\//g, '__')}.json`);

export function saveProposalRecord(repo: Repo, rec: ProposalRecord): void {
  mkdirSync(dirOf(repo), { recursive: true });
  writeFileAtomicSync(fileOf(repo, rec.name), `${JSON.stringify(rec, null, 2)}\n`);
}

/** The proposals this clone opened (records that do not parse are skipped: they only add detail). */
export function listProposalRecords(repo: Repo): ProposalRecord[] {
  let names: string[];
  try {
    names = readdirSync(dirOf(repo)).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: ProposalRecord[] = [];
  for (const n of names.sort()) {
    try {
      out.push(JSON.parse(readFileSync(join(dirOf(repo), n), 'utf8')) as ProposalRecord);
    } catch {
      // a torn or hand-edited record: the proposal refs still say what is pending
    }
  }
  return out;
}

export function dropProposalRecord(repo: Repo, name: string): void {
  rmSync(fileOf(repo, name), { force: true });
}

/** Local proposal refs: name -> tip. */
export async function localProposals(repo: Repo): Promise<Map<string, string>> {
  // every context read asks: without proposals, no git process
  if (!mayHaveRefs(repo.commonDir, PROPOSALS_REF_PREFIX)) return new Map();
  const r = await repo.git(['for-each-ref', '--format=%(objectname) %(refname)', PROPOSALS_REF_PREFIX]);
  const out = new Map<string, string>();
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [oid, ref] = line.split(' ');
    if (oid && ref) out.set(ref.slice(PROPOSALS_REF_PREFIX.length), oid);
  }
  return out;
}

/** The remote's reviewed branch and the ref that mirrors it, to go into the same fetch as the knowledge. */
export const reviewedMirror = (remote: string): MirroredRef => ({ remoteRef: `refs/heads/${REVIEWED_BRANCH}`, localRef: reviewedTrackingRef(remote) });

/**
 * The reviewed branch's tip as fetched: `tracked` is what fetchKnowledge returned (it holds the
 * reviewed branch's mirror when the remote listed it, reviewedMirror); a tracking ref of a branch
 * the remote dropped is dropped here.
 */
export async function reviewedTip(repo: Repo, remote: string, tracked: ReadonlyMap<string, string>): Promise<string | null> {
  const oid = tracked.get(reviewedTrackingRef(remote));
  if (oid !== undefined) return commitAt(repo, oid);
  await deleteRef(repo, reviewedTrackingRef(remote));
  return null;
}
