import { normalizeTitle } from '../../model/dedup.ts';
import { parseId } from '../../model/ids.ts';
import type { ItemBase } from '../../model/kind.ts';
import type { DerivedCache } from './derived-cache.ts';

/**
 * What an add asks of a whole item list — the highest display number in use, the items with a
 * given title — answered without walking the list: built once per parsed list, and moved to the
 * next state's list when a write derives it (a warm writer at 100k items must not scan them all).
 * Derived and held in memory only; a list that has none builds it on first use.
 */
export interface ListIndex {
  /** the highest display-ID number by prefix (D, B, Q), over IDs and aliases */
  maxId: Map<string, number>;
  /** normalized title -> the items with it, in list order */
  titles: Map<string, ItemBase[]>;
}

const indexesIn = (cache: DerivedCache) => cache.perObject<ListIndex>('list-index');

/** The text duplicates are judged by: a title, or a question's text. */
export function titleKey(item: ItemBase): string {
  const i = item as { title?: string; question?: string };
  return normalizeTitle(i.title ?? i.question ?? '');
}

/** The index of a list, built on first use. */
export function listIndex(cache: DerivedCache, list: ItemBase[]): ListIndex {
  const indexes = indexesIn(cache);
  let ix = indexes.get(list);
  if (!ix) {
    ix = { maxId: new Map(), titles: new Map() };
    for (const item of list) addToIndex(ix, item);
    indexes.set(list, ix);
  }
  return ix;
}

/** The display numbers an item holds: its ID and its aliases. */
export function idsOf(item: ItemBase): string[] {
  const i = item as { id?: string; aliases?: string[] };
  return i.id ? [i.id, ...(i.aliases ?? [])] : (i.aliases ?? []);
}

function addToIndex(ix: ListIndex, item: ItemBase, order?: (a: ItemBase, b: ItemBase) => number): void {
  for (const id of idsOf(item)) {
    const p = parseId(id);
    if (p && p.n > (ix.maxId.get(p.prefix) ?? 0)) ix.maxId.set(p.prefix, p.n);
  }
  const key = titleKey(item);
  if (!key) return;
  const same = ix.titles.get(key);
  if (!same) ix.titles.set(key, [item]);
  else if (!order) same.push(item);
  else {
    let at = same.length;
    while (at > 0 && order(same[at - 1]!, item) > 0) at--;
    same.splice(at, 0, item);
  }
}

/**
 * Moves the index of `prev` to `next`, a list that is `prev` without `removed` and with `added`
 * (in `order`). Nothing is moved when `prev` has no index, or when a removed item held the
 * highest number of its prefix (the highest would have to be found again): `next` then builds
 * its own on first use.
 */
export function carryIndex(
  cache: DerivedCache,
  prev: ItemBase[],
  next: ItemBase[],
  removed: ItemBase[],
  added: ItemBase[],
  order: (a: ItemBase, b: ItemBase) => number,
): void {
  const indexes = indexesIn(cache);
  const ix = indexes.get(prev);
  if (!ix) return;
  for (const item of removed) {
    for (const id of idsOf(item)) {
      const p = parseId(id);
      if (p && p.n >= (ix.maxId.get(p.prefix) ?? 0)) return;
    }
  }
  indexes.delete(prev);
  for (const item of removed) {
    const key = titleKey(item);
    const same = ix.titles.get(key);
    const at = same ? same.indexOf(item) : -1;
    if (at >= 0) same!.splice(at, 1);
    if (same && !same.length) ix.titles.delete(key);
  }
  for (const item of added) addToIndex(ix, item, order);
  indexes.set(next, ix);
}
