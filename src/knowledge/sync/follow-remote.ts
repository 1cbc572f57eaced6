import { isAxmeError } from '../../model/errors.ts';
import { fastForwardRef } from '../../store/commit.ts';
import { commitAt, fetchKnowledge, listRemotes, remoteKnowledgeRefs, resolve, trackingRef } from '../../store/remote.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { checkRemoteStore } from './validate-remote.ts';

/** What following the remote's store did: the commit the local store now starts at, or why it did not. */
export type FollowResult = { followed: true; remote: string; commit: string } | { followed: false; remote: string | null; reason: string };

/** How long `axme init` waits for the remote (listing, then fetching): a slow network must not hold it. */
export const FOLLOW_TIMEOUT_MS = 15_000;

/**
 * On a clone whose remote already holds the knowledge, the local store starts as the remote's —
 * a fast-forward of `refs/memory/main` to it — instead of a second, unrelated history that every
 * teammate's `axme sync` would then have to merge. Only when the local store does not exist yet;
 * the remote is `origin`, else the only one, and its store must pass the check a sync makes
 * (checkRemoteStore). Never fails: a remote that cannot be reached in time, has no knowledge or
 * holds a store a sync would refuse is reported (nothing of it taken), and the caller creates the store as before — the next
 * `axme sync` merges the two histories without loss.
 */
export async function followRemoteStore(kb: KnowledgeBase, opts: { timeoutMs?: number } = {}): Promise<FollowResult | null> {
  const { repo } = kb;
  if ((await resolve(repo, kb.ref)) !== null) return null;
  const remotes = await listRemotes(repo);
  const remote = remotes.includes('origin') ? 'origin' : remotes.length === 1 ? remotes[0]! : null;
  if (remote === null)
    return remotes.length
      ? {
          followed: false,
          remote: null,
          reason: `several remotes and none is origin (${remotes.join(', ')}): run \`axme sync <remote>\` to bring one's knowledge in`,
        }
      : null;
  const timeoutMs = opts.timeoutMs ?? FOLLOW_TIMEOUT_MS;
  let tracked: ReadonlyMap<string, string>;
  try {
    const heads = await remoteKnowledgeRefs(repo, remote, [], timeoutMs);
    if (!heads.memory.has(kb.ref)) return { followed: false, remote, reason: `${remote} holds no knowledge yet` };
    tracked = await fetchKnowledge(repo, remote, heads, [], timeoutMs);
  } catch (err) {
    if (!isAxmeError(err)) throw err;
    return {
      followed: false,
      remote,
      reason: `${remote} could not be read (${err.message.split('\n')[0]}): this store starts on its own, and the next \`axme sync\` merges it with ${remote}'s without loss`,
    };
  }
  const tip = await commitAt(repo, tracked.get(trackingRef(remote, kb.ref.slice('refs/memory/'.length))));
  if (!tip) return { followed: false, remote, reason: `${remote}'s knowledge did not arrive` };
  try {
    // the same check as the sync that would take it: a store sync refuses is never adopted
    await checkRemoteStore(kb, remote, tip, null);
  } catch (err) {
    if (!isAxmeError(err)) throw err;
    return {
      followed: false,
      remote,
      reason: `${err.message} This store starts on its own meanwhile, without ${remote}'s knowledge: once ${remote}'s is fixed, \`axme sync\` merges the two without loss`,
    };
  }
  const r = await fastForwardRef(repo, kb.ref, tip, null, `init: start from ${remote}'s knowledge`, kb.now);
  if (r !== 'updated') return { followed: false, remote, reason: `the local store was created meanwhile: \`axme sync\` brings ${remote}'s knowledge in` };
  return { followed: true, remote, commit: tip };
}
