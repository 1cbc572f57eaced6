import { decodeItem, encodeItem, type ItemBase, type KindSpec } from '../../../model/kind.ts';
import { ID_KINDS } from '../../../model/kinds.ts';
import { SPECS } from '../../../model/paths.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { renumberCollisions } from '../../core/renumber-ids.ts';
import type { MergeInput, MergePlan } from './merge-plan.ts';
import { type MergedItem, mergedItems } from './merged-items.ts';

/**
 * Two items created on two clones can get one display ID; only newcomers do (new on one side since
 * the merge base), and a display ID once shared never moves. Of the items sharing one, the one that
 * held it at the merge base keeps it (a newcomer may not take an existing item's ID); then, when the
 * merge says which side is published (a sync's remote), that side's newcomer (teammates may have
 * cited it); then the earlier created, then the path. Each other takes the next free number and
 * keeps the old one in `aliases`. So a remote that is the team's merge never changes the ID of an
 * item this clone had at the base, which sync/inbound.ts (idsChangedByRemote) then refuses.
 */
export async function renumberMerged(kb: KnowledgeBase, input: MergeInput, plan: MergePlan): Promise<void> {
  for (const kind of ID_KINDS) {
    const spec = SPECS[kind] as unknown as KindSpec<ItemBase>;
    // only a change can bring a collision: skip the decoding when no item of this kind changed
    if (![...plan.changes.keys()].some((p) => p.startsWith(`${spec.dir}/`))) continue;
    const items = await mergedItems(kb, input, plan, kind);
    await keepPublishedIds(kb, input, plan, spec, items);
    const ranks = await ranksOf(kb, input, spec, items);
    for (const r of renumberCollisions(spec, items, (path) => ranks.get(path) ?? 2)) {
      plan.changes.set(r.path, Buffer.from(r.text, 'utf8'));
      plan.renumbered.push({ path: r.path, from: r.from, to: r.to });
    }
  }
}

/**
 * An item both sides changed differently (the same slug added on two clones, most often) is merged
 * field by field, its display ID with the rest: the published side's ID stays its ID, the other
 * goes to its aliases, as a renumbering would put it. Only such files are read again.
 */
async function keepPublishedIds(kb: KnowledgeBase, input: MergeInput, plan: MergePlan, spec: KindSpec<ItemBase>, items: MergedItem[]): Promise<void> {
  const side = input.published;
  if (!side) return;
  for (const e of items) {
    const [x, y] = [input.ours.files.get(e.path)?.oid, input.theirs.files.get(e.path)?.oid];
    if (!plan.changes.has(e.path) || !x || !y || x === y) continue;
    const id = await idIn(kb, spec, e.path, side === 'ours' ? x : y);
    if (!id || id === e.item.id) continue;
    e.item = { ...e.item, id, aliases: [...new Set([...(e.item.aliases ?? []), e.item.id])].filter((a) => a !== id) };
    plan.changes.set(e.path, Buffer.from(encodeItem(spec, spec.schema.parse(e.item)), 'utf8'));
  }
}

/**
 * The rank of each item that shares its display ID with another (none else is read): 0 it had that
 * ID at the merge base, 1 a newcomer of the published side, 2 another newcomer.
 */
async function ranksOf(kb: KnowledgeBase, input: MergeInput, spec: KindSpec<ItemBase>, items: MergedItem[]): Promise<Map<string, number>> {
  const count = new Map<string, number>();
  for (const e of items) count.set(e.item.id, (count.get(e.item.id) ?? 0) + 1);
  const ranks = new Map<string, number>();
  for (const e of items) {
    if ((count.get(e.item.id) ?? 0) < 2) continue;
    const atBase = input.base?.files.get(e.path)?.oid;
    if (atBase && (await idIn(kb, spec, e.path, atBase)) === e.item.id) ranks.set(e.path, 0);
    else ranks.set(e.path, input.published && input[input.published].files.has(e.path) ? 1 : 2);
  }
  return ranks;
}

/** The display ID of the item at `path` in the blob `oid`; undefined when it does not decode. */
async function idIn(kb: KnowledgeBase, spec: KindSpec<ItemBase>, path: string, oid: string): Promise<string | undefined> {
  const d = decodeItem(spec, path.slice(spec.dir.length + 1, -3), (await kb.repo.backend.readBlob(oid)).toString('utf8'));
  return d.ok ? (d.item as { id?: string }).id : undefined;
}
