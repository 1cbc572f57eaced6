import type { KnowledgeBase } from '../core/kb.ts';
import type { StaleItem, VerifyResult } from './types.ts';
import { verifyKnowledge, type VerifyInput } from './verify-knowledge.ts';

const indexes = new WeakMap<VerifyResult, Map<string, StaleItem>>();

/**
 * The stale items by `${kind}:${slug}`, for surfaces that mark what they show (context, search,
 * reads). Built from verifyKnowledge's result, which is remembered per (memory tree, HEAD): a
 * repeated call re-reads two refs from files and looks the map up.
 */
export async function staleIndex(kb: KnowledgeBase, opts: VerifyInput = {}): Promise<Map<string, StaleItem>> {
  const result = await verifyKnowledge(kb, opts);
  let index = indexes.get(result);
  if (!index) indexes.set(result, (index = new Map(result.stale.map((s) => [`${s.kind}:${s.slug}`, s]))));
  return index;
}
