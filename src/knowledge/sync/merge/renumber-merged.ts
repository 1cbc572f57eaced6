import type { ItemBase, KindSpec } from '../../../model/kind.ts';
import { ID_KINDS, type IdKind } from '../../../model/kinds.ts';
import { SPECS } from '../../../model/paths.ts';
import type { Snapshot } from '../../../store/tree.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { renumberCollisions } from '../../core/renumber-ids.ts';
import { parseSnapshot } from '../../core/state.ts';
import type { MergeInput, MergePlan } from './merge-plan.ts';
import { mergedItems } from './merged-items.ts';

/**
 * Two items created on two clones can get one display ID. One that held the ID before keeps it:
 * at its path in the merge base, or, with no base (two histories), at its path on both sides — so
 * an item a remote adds, however far back its `created`, never takes the ID of one the team has.
 * Otherwise the earlier (created, then path) keeps it. Each other one takes the next free number
 * and keeps the old one in `aliases`. Symmetric in the two sides.
 */
export async function renumberMerged(kb: KnowledgeBase, input: MergeInput, plan: MergePlan): Promise<void> {
  for (const kind of ID_KINDS) {
    const spec = SPECS[kind] as unknown as KindSpec<ItemBase>;
    // only a change can bring a collision: skip the decoding when no item of this kind changed
    if (![...plan.changes.keys()].some((p) => p.startsWith(`${spec.dir}/`))) continue;
    const items = await mergedItems(kb, input, plan, kind);
    const held = await heldIds(kb, input, kind, spec);
    for (const r of renumberCollisions(spec, items, (path, id) => held(path) === id)) {
      plan.changes.set(r.path, Buffer.from(r.text, 'utf8'));
      plan.renumbered.push({ path: r.path, from: r.from, to: r.to });
    }
  }
}

/** The ID each path's item held before the merge: in the base, or, with none, the same on both sides (else undefined). */
async function heldIds(kb: KnowledgeBase, input: MergeInput, kind: IdKind, spec: KindSpec<ItemBase>): Promise<(path: string) => string | undefined> {
  const ids = async (snap: Snapshot) =>
    new Map(((await parseSnapshot(kb, snap)).items[kind] as Array<ItemBase & { id: string }>).map((i) => [`${spec.dir}/${i.slug}.md`, i.id]));
  if (input.base) {
    const base = await ids(input.base);
    return (path) => base.get(path);
  }
  const [ours, theirs] = [await ids(input.ours), await ids(input.theirs)];
  return (path) => (ours.get(path) === theirs.get(path) ? ours.get(path) : undefined);
}
