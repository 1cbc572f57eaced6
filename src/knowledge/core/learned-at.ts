import { headCommitSync } from '../../store/locate.ts';
import type { KnowledgeBase } from './kb.ts';

/**
 * The code commit an item saved now is learned at (`learned_at`): the commit HEAD of the
 * repository points at, or undefined when there is none (an unborn branch, a store without code).
 * `axme verify` compares an item's anchors between this commit and HEAD.
 */
export function learnedAtNow(kb: KnowledgeBase): string | undefined {
  return headCommitSync(kb.repo.gitDir, kb.repo.commonDir) ?? undefined;
}
