import { normalizeTitle } from '../../model/dedup.ts';
import { formatId, nextId } from '../../model/ids.ts';
import type { ItemBase, KindName } from '../../model/kind.ts';
import { type IdKind, KINDS } from '../../model/kinds.ts';
import { itemPath } from '../../model/paths.ts';
import { slugify, uniqueSlug } from '../../model/slug.ts';
import type { KnowledgeBase } from './kb.ts';
import { idsOf, listIndex, titleKey } from './list-index.ts';
import { pathTaken, type Staged } from './staging.ts';

/** Next free display ID of a kind, counting aliases, broken files' numbers and staged items. */
export function nextDisplayId(kb: KnowledgeBase, st: Staged, kind: IdKind): string {
  const prefix = KINDS[kind].idPrefix;
  const used = [...(st.state.brokenIds[kind] ?? []), ...[...(st.touched.get(kind)?.values() ?? [])].flatMap(idsOf)];
  const max = listIndex(kb.cache, st.base.items[kind] as ItemBase[]).maxId.get(prefix) ?? 0;
  return nextId(prefix, [formatId(prefix, max), ...used]);
}

/** A slug for a new item that no file uses yet (broken files and staged items included). */
export function freeSlug(st: Staged, kind: KindName, title: string, fallback?: string): string {
  return uniqueSlug(slugify(title, fallback), (s) => kind !== 'session' && pathTaken(st, itemPath(kind, s)));
}

/**
 * The first item of a kind, as staged, whose normalized title (a question's text) equals
 * `title`'s among those `filter` keeps: the tip's items by the list index, then staged ones.
 */
export function findDuplicate<T extends ItemBase>(kb: KnowledgeBase, st: Staged, kind: KindName, title: string, filter: (i: T) => boolean): T | undefined {
  const key = normalizeTitle(title);
  if (!key) return undefined;
  const staged = st.touched.get(kind);
  for (const item of listIndex(kb.cache, st.base.items[kind] as ItemBase[]).titles.get(key) ?? []) {
    const now = (staged?.get(item.slug) ?? item) as T;
    if (now === item || titleKey(now) === key) {
      if (filter(now)) return now;
    }
  }
  for (const item of staged?.values() ?? []) if (titleKey(item) === key && filter(item as T)) return item as T;
  return undefined;
}
