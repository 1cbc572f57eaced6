import { formatId, nextId } from '../../model/ids.ts';
import { encodeItem, type ItemBase, type KindSpec } from '../../model/kind.ts';

/**
 * Items of one kind that share a display ID: one keeps it, each other takes the next free number
 * (past every ID and alias) and keeps the old one in `aliases`. Which keeps it: the lowest `rank`
 * (0 when not given: a merge ranks the item that held the ID at its base, then the one already
 * published, sync/merge/renumber-merged.ts), then the earlier `created`, then the path. Returns the
 * new file text of each renumbered item.
 */
export function renumberCollisions(
  spec: KindSpec<ItemBase>,
  items: Array<{ path: string; item: ItemBase & { id: string; aliases?: string[] } }>,
  rank: (path: string) => number = () => 0,
): Array<{ path: string; from: string; to: string; text: string }> {
  const out: Array<{ path: string; from: string; to: string; text: string }> = [];
  const byId = new Map<string, typeof items>();
  for (const e of items) byId.set(e.item.id, [...(byId.get(e.item.id) ?? []), e]);
  let next = Number(
    nextId(
      spec.idPrefix!,
      items.flatMap((e) => [e.item.id, ...(e.item.aliases ?? [])]),
    ).slice(2),
  );
  for (const [id, group] of [...byId].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (group.length < 2) continue;
    group.sort(
      (a, b) => rank(a.path) - rank(b.path) || (a.item.created < b.item.created ? -1 : a.item.created > b.item.created ? 1 : a.path < b.path ? -1 : 1),
    );
    for (const e of group.slice(1)) {
      const to = formatId(spec.idPrefix!, next++);
      const item = { ...e.item, id: to, aliases: [...new Set([...(e.item.aliases ?? []), id])] };
      out.push({ path: e.path, from: id, to, text: encodeItem(spec, spec.schema.parse(item)) });
    }
  }
  return out;
}
