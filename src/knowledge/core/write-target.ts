import { MEMORY_REF, PROPOSALS_REF_PREFIX } from '../../model/refs.ts';
import type { KnowledgeBase } from './kb.ts';
import { readState } from './state.ts';

/**
 * Where a write goes. With `review.required: true` in axme.yaml, an agent's (and its auditor's) writes go to its
 * session's proposal `refs/memory/proposals/<session>` (started from refs/memory/main), which
 * `axme propose` opens as a pull request (review/); everything else writes to the knowledge
 * base's ref. Part of the write loop (mutate.ts): it knows the proposal ref's name, nothing of review.
 */
export async function writeTarget(kb: KnowledgeBase): Promise<{ kb: KnowledgeBase; created: string | null }> {
  if ((kb.actor !== 'agent' && kb.actor !== 'auditor') || kb.ref !== MEMORY_REF) return { kb, created: null };
  const tip = await kb.repo.backend.resolveRef(kb.ref);
  if (!tip) return { kb, created: null };
  const state = await readState(kb);
  if (state.config?.review?.required !== true) return { kb, created: null };
  const ref = `${PROPOSALS_REF_PREFIX}${kb.session ?? 'agent'}`;
  if (await kb.repo.backend.resolveRef(ref)) return { kb: { ...kb, ref }, created: null };
  // created from the accepted knowledge; '' as the old value: a concurrent creator wins and we use its ref
  const r = await kb.repo.git(['update-ref', ref, tip, ''], { allowFail: true });
  return { kb: { ...kb, ref }, created: r.code === 0 ? tip : null };
}

/** A proposal ref created for a write that then committed nothing (it failed, or found a duplicate) is removed again, if still untouched. */
export async function dropUnusedProposal(kb: KnowledgeBase, created: string): Promise<void> {
  await kb.repo.git(['update-ref', '-d', kb.ref, created], { allowFail: true });
}
