import type { ItemBase, KindSpec } from '../../../model/kind.ts';
import { ID_KINDS } from '../../../model/kinds.ts';
import { SPECS } from '../../../model/paths.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { renumberCollisions } from '../../core/renumber-ids.ts';
import type { MergeInput, MergePlan } from './merge-plan.ts';
import { mergedItems } from './merged-items.ts';

/**
 * Two items created on two clones can get one display ID. The earlier (created, then path) keeps
 * it; each later one takes the next free number and keeps the old one in `aliases`.
 */
export async function renumberMerged(kb: KnowledgeBase, input: MergeInput, plan: MergePlan): Promise<void> {
  for (const kind of ID_KINDS) {
    const spec = SPECS[kind] as unknown as KindSpec<ItemBase>;
    // only a change can bring a collision: skip the decoding when no item of this kind changed
    if (![...plan.changes.keys()].some((p) => p.startsWith(`${spec.dir}/`))) continue;
    const items = await mergedItems(kb, input, plan, kind);
    for (const r of renumberCollisions(spec, items)) {
      plan.changes.set(r.path, Buffer.from(r.text, 'utf8'));
      plan.renumbered.push({ path: r.path, from: r.from, to: r.to });
    }
  }
}
