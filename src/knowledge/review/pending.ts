import { mergeBase } from '../../store/remote.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { isEmptyDiff, type SemanticDiff, semanticDiff } from './diff/semantic-diff.ts';
import { localProposals, PROPOSALS_REF_PREFIX } from './proposals.ts';

export interface PendingProposal {
  name: string;
  ref: string;
  head: string;
  /** what the proposal changes against the accepted knowledge it started from */
  diff: SemanticDiff;
}

/** The local proposals with changes refs/memory/main does not have: knowledge waiting for review. */
export async function pendingProposals(kb: KnowledgeBase, main: string): Promise<PendingProposal[]> {
  const out: PendingProposal[] = [];
  for (const [name, head] of [...(await localProposals(kb.repo))].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (head === main) continue;
    const base = await mergeBase(kb.repo, head, main);
    if (base === head) continue; // already in the accepted knowledge
    const diff = await semanticDiff(kb, base, head);
    if (!isEmptyDiff(diff)) out.push({ name, ref: `${PROPOSALS_REF_PREFIX}${name}`, head, diff });
  }
  return out;
}
