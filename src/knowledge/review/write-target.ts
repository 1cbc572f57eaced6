import { MEMORY_REF } from '../../model/refs.ts';
import type { KnowledgeBase } from '../kb.ts';
import { readState } from '../state.ts';
import { PROPOSALS_REF_PREFIX } from './proposals.ts';

/**
 * Where a write goes. With `review.required: true` in axme.yaml, an agent's writes go to its
 * session's proposal `refs/memory/proposals/<session>` (started from refs/memory/main), which
 * `axme propose` opens as a pull request; everything else writes to the knowledge base's ref.
 */
export async function writeTarget(kb: KnowledgeBase): Promise<KnowledgeBase> {
  if (kb.actor !== 'agent' || kb.ref !== MEMORY_REF) return kb;
  const tip = await kb.repo.backend.resolveRef(kb.ref);
  if (!tip) return kb;
  const state = await readState(kb);
  if (state.config?.review?.required !== true) return kb;
  const ref = `${PROPOSALS_REF_PREFIX}${kb.session ?? 'agent'}`;
  // created from the accepted knowledge once; '' as the old value: a concurrent creator wins, we use its ref
  if (!(await kb.repo.backend.resolveRef(ref))) await kb.repo.git(['update-ref', ref, tip, ''], { allowFail: true });
  return { ...kb, ref };
}
