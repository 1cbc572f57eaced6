import { headCommitSync } from '../../store/locate.ts';
import type { KnowledgeBase } from './kb.ts';

/**
 * The code commit an item saved now is learned at (`learned_at`): the commit HEAD of the
 * repository points at, or undefined when there is none (an unborn branch, a store without code).
 * `axme verify` compares an item's anchors between this commit and HEAD.
 */
export function learnedAtNow(kb: KnowledgeBase): string | undefined {
  const head = headCommitSync(kb.repo.gitDir, kb.repo.commonDir);
  return head === null || head === 'unknown' ? undefined : head;
}

/** The commit HEAD points at, from files when they tell (no git process), else from git; null when there is none. */
export async function headCommitOf(kb: KnowledgeBase): Promise<string | null> {
  const head = headCommitSync(kb.repo.gitDir, kb.repo.commonDir);
  if (head !== 'unknown') return head;
  const r = await kb.repo.git(['rev-parse', '--verify', '-q', 'HEAD^{commit}'], { allowFail: true });
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** What every item saved now records about its saving: who (actor, session), at which code commit, and when (created = updated = `now`). */
export function savedNow(kb: KnowledgeBase, now: string) {
  return { source: kb.actor, session: kb.session, learned_at: learnedAtNow(kb), created: now, updated: now };
}

/**
 * An existing item learned anew now (reconfirmed, rescanned): `item` with `learned_at` set to
 * `head` and `reconfirmed_by` naming this session when another one saved the item (none: a person,
 * or the saving session itself). The session that confirms an item at a commit carries it out
 * afterwards, as the one that saved it does (docs/staleness.md#the-sessions-own-commits).
 */
export function relearned<T extends { session?: string | undefined; reconfirmed_by?: string | undefined }>(
  kb: KnowledgeBase,
  item: T,
  head: string | undefined,
): T & { learned_at: string | undefined } {
  const { reconfirmed_by: _, ...rest } = item;
  const by = kb.session && kb.session !== item.session ? { reconfirmed_by: kb.session } : {};
  return { ...(rest as T), ...by, learned_at: head };
}
