import type { ItemBase } from '../../model/kind.ts';
import { ID_KINDS, type IdKind } from '../../model/kinds.ts';
import { itemPath } from '../../model/paths.ts';

/** A display ID that several items of one kind carry: their paths in the order given (a store's: path order). */
export interface SharedId {
  kind: IdKind;
  id: string;
  paths: string[];
}

/**
 * The display IDs several items of one kind carry, among `items` (a store's, or those of a view
 * without its workspace's). Lookups by such an ID are refused (`axme fsck`, the context's store
 * problems), and sync refuses a remote that brings one (sync/inbound.ts).
 */
export function sharedIds(items: { [K in IdKind]: ItemBase[] }): SharedId[] {
  const out: SharedId[] = [];
  for (const kind of ID_KINDS) {
    const byId = new Map<string, string[]>();
    for (const item of items[kind] as Array<ItemBase & { id: string }>) byId.set(item.id, [...(byId.get(item.id) ?? []), itemPath(kind, item.slug)]);
    for (const [id, paths] of byId) if (paths.length > 1) out.push({ kind, id, paths });
  }
  return out;
}
