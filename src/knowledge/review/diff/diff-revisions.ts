import { z } from 'zod';
import { AxmeError } from '../../../model/errors.ts';
import { PROPOSAL_BRANCH_PREFIX, PROPOSALS_REF_PREFIX } from '../../../model/refs.ts';
import { parseInput } from '../../../model/validate.ts';
import { mergeBase, pickRemote, readRemotes, resolve, trackingRef } from '../../../store/remote.ts';
import { resolveAt } from '../../../store/revision.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { notInitialized } from '../../core/kb.ts';
import { type SemanticDiff, semanticDiff } from './semantic-diff.ts';

/** `axme diff [<from>] [<to>]` and axme_diff: which revisions to compare. */
export const DiffInput = z.object({
  from: z
    .string()
    .max(300)
    .optional()
    .describe(
      'the older revision: a commit, ~N (relative to the local tip), a date, a ref; default: where the local store and the remote-tracking tip diverged (their merge base)',
    ),
  to: z.string().max(300).optional().describe('the newer revision; default: the local tip of refs/memory/main'),
  remote: z.string().max(200).optional().describe('whose tracking tip is the default <from> (default: origin, else the only remote)'),
  proposal: z
    .string()
    .max(200)
    .optional()
    .describe(
      "a proposal by name, instead of <from> and <to>: this clone's (refs/memory/proposals/<name>) or one open on the remote, a teammate's too (axme/proposals/<name> as the last sync or fetch saw it); what it changes since it left refs/memory/main",
    ),
});
export type DiffInput = z.input<typeof DiffInput>;

export interface RevisionDiff extends SemanticDiff {
  /** how each side was named: "refs/memory-remotes/origin/main", "refs/memory/main", "~3", ... */
  fromName: string;
  toName: string;
}

/**
 * The semantic diff between two memory revisions. Without <from>: what the local store changed
 * since it and the remote-tracking tip (last `axme sync` or `git fetch`) diverged — what a push
 * or a proposal would share.
 */
export async function diffRevisions(kb: KnowledgeBase, input: DiffInput): Promise<RevisionDiff> {
  const { from, to, remote, proposal } = parseInput(DiffInput, input, 'diff');
  if (proposal !== undefined) {
    if (from !== undefined || to !== undefined) throw new AxmeError('INVALID_INPUT', 'give either --proposal or <from> and <to>, not both');
    return proposalDiff(kb, proposal, remote);
  }
  const now = kb.now();
  const toOid = await resolveAt(kb.repo, kb.ref, to, now, 'revision');
  if (!toOid) throw notInitialized(kb);
  let fromName: string;
  let fromOid: string | null;
  if (from !== undefined) {
    fromName = from;
    fromOid = await resolveAt(kb.repo, kb.ref, from, now, 'revision');
  } else {
    const name = await defaultRemote(kb, remote);
    fromName = trackingRef(name);
    const tracked = await resolve(kb.repo, fromName);
    if (!tracked) {
      throw new AxmeError(
        'WRONG_STATE',
        `nothing fetched from ${name} yet (${fromName} does not exist): run \`axme sync\` (or \`git fetch ${name}\`), or name the older revision: axme diff <from> [<to>], e.g. axme diff ~3`,
        { remote: name },
      );
    }
    // from where the two diverged (like git diff A...B): what the remote gained meanwhile is not "removed" here
    fromOid = (await mergeBase(kb.repo, tracked, toOid)) ?? tracked;
    if (fromOid !== tracked) fromName = `merge-base of ${fromName} and ${to ?? kb.ref}`;
  }
  const d = await semanticDiff(kb, fromOid, toOid);
  return { ...d, fromName, toName: to ?? kb.ref };
}

async function defaultRemote(kb: KnowledgeBase, remote: string | undefined): Promise<string> {
  const remotes = await readRemotes(kb.repo);
  if (!remotes.names.length) {
    throw new AxmeError(
      'INVALID_INPUT',
      'this repository has no git remote, so there is no remote knowledge to compare with: name the older revision (axme diff <from> [<to>], e.g. axme diff ~3)',
    );
  }
  return pickRemote(kb.repo, remote, remotes);
}

/**
 * What a proposal changes: from where it left refs/memory/main (their merge base, as a pull request
 * shows it) to its tip. The name is looked for in this clone's proposals, then among the remote's
 * proposal branches as the last sync or fetch mirrored them (`refs/remotes/<remote>/axme/proposals/<name>`).
 */
async function proposalDiff(kb: KnowledgeBase, name: string, remote: string | undefined): Promise<RevisionDiff> {
  if (!/^[\w.-]+(?:\/[\w.-]+)*$/.test(name) || name.split('/').some((p) => p === '.' || p === '..' || p.endsWith('.lock')))
    throw new AxmeError('INVALID_INPUT', `no proposal can be named ${JSON.stringify(name)}: give the name axme status lists (axme/proposals/<name>)`);
  const remotes = (await readRemotes(kb.repo)).names;
  const wanted = remote !== undefined ? [remote] : remotes;
  const refs = [`${PROPOSALS_REF_PREFIX}${name}`, ...wanted.map((r) => `refs/remotes/${r}/${PROPOSAL_BRANCH_PREFIX}${name}`)];
  for (const ref of refs) {
    const tip = await resolve(kb.repo, ref);
    if (!tip) continue;
    const main = await resolve(kb.repo, kb.ref);
    const base = main ? await mergeBase(kb.repo, tip, main) : null;
    const d = await semanticDiff(kb, base, tip);
    return { ...d, fromName: base ? `merge-base of ${ref} and ${kb.ref}` : '(empty)', toName: ref };
  }
  throw new AxmeError(
    'NOT_FOUND',
    `no proposal ${name} here or on ${wanted.join(', ') || 'a remote'} as last fetched: run \`axme sync\` to see the remote's open proposals (axme status lists them)`,
    { proposal: name },
  );
}
