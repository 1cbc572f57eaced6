import { normalizeTitle } from '../model/dedup.ts';
import { formatId, nextId, type IdPrefix } from '../model/ids.ts';
import type { ItemBase, KindName } from '../model/kind.ts';
import { idsOf, listIndex, titleKey } from './list-index.ts';
import { itemPath } from '../model/paths.ts';
import { slugify, uniqueSlug } from '../model/slug.ts';
import type { KnowledgeBase } from './kb.ts';
import { pathTaken, type Staged } from './staging.ts';

/** Result of an add: the item, whether it already existed, where it lives, the commit written. */
export interface AddResult<T> {
  item: T;
  /** true when an equal item existed: it is returned and nothing was written */
  duplicate: boolean;
  path: string;
  /** git location, e.g. refs/memory/main:decisions/use-valkey.md */
  location: string;
  commit: string | null;
  /** the store written, when it is not the session's own repository (a workspace store, a repository named by `scope`) */
  store?: string;
  /** with a `scope` of several repositories: the results in the other repositories */
  others?: Array<AddResult<T>>;
}

/** Result of an edit of an existing item. */
export interface EditResult<T> {
  item: T;
  /** false when the item already was in the requested state */
  changed: boolean;
  path: string;
  location: string;
  commit: string | null;
}

/** Next free display ID of a kind, counting aliases, broken files' numbers and staged items. */
export function nextDisplayId(kb: KnowledgeBase, st: Staged, kind: KindName, prefix: IdPrefix): string {
  const used = [...(st.state.brokenIds[kind] ?? []), ...[...(st.touched.get(kind)?.values() ?? [])].flatMap(idsOf)];
  const max = listIndex(kb.indexes, st.base.items[kind] as ItemBase[]).maxId.get(prefix) ?? 0;
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
  for (const item of listIndex(kb.indexes, st.base.items[kind] as ItemBase[]).titles.get(key) ?? []) {
    const now = (staged?.get(item.slug) ?? item) as T;
    if (now === item || titleKey(now) === key) {
      if (filter(now)) return now;
    }
  }
  for (const item of staged?.values() ?? []) if (titleKey(item) === key && filter(item as T)) return item as T;
  return undefined;
}

/** A write's result with where its item lives: path, git location and the commit. */
export function written<R extends { item: { slug: string; created: string } }>(kb: KnowledgeBase, kind: KindName, r: { result: R; commit: string | null; ref?: string }): R & { path: string; location: string; commit: string | null; store?: string } {
  const path = itemPath(kind, r.result.item.slug, r.result.item.created);
  const out = { ...r.result, path, location: locationOf(r.ref ? { ...kb, ref: r.ref } : kb, path), commit: r.commit };
  return kb.label ? { ...out, store: kb.label } : out;
}

/** `<ref>:<path>`, followed by `in <store>` when the store is not the session's own repository. */
export function locationOf(kb: KnowledgeBase, path: string): string {
  return `${kb.ref}:${path}${kb.label ? ` in ${kb.label}` : ''}`;
}
