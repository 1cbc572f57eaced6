import { z } from 'zod';
import { AxmeError } from '../../../model/errors.ts';
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
  const { from, to, remote } = parseInput(DiffInput, input, 'diff');
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
