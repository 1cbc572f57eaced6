import { normalizeTitle } from '../model/dedup.ts';
import { nextId, type IdPrefix } from '../model/ids.ts';
import type { KindName } from '../model/kind.ts';
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
export function nextDisplayId(st: Staged, kind: KindName, prefix: IdPrefix): string {
  const state = st.state;
  const used: string[] = [...(state.brokenIds[kind] ?? [])];
  for (const i of state.items[kind] as Array<{ id?: string; aliases?: string[] }>) {
    if (i.id) used.push(i.id);
    used.push(...(i.aliases ?? []));
  }
  return nextId(prefix, used);
}

/** A slug for a new item that no file uses yet (broken files and staged items included). */
export function freeSlug(st: Staged, kind: KindName, title: string, fallback?: string): string {
  return uniqueSlug(slugify(title, fallback), (s) => kind !== 'session' && pathTaken(st, itemPath(kind, s)));
}

/** The first item whose normalized title equals `title`'s among those `filter` keeps. */
export function findDuplicate<T extends { title?: string }>(kb: KnowledgeBase, items: T[], title: string, filter: (i: T) => boolean): T | undefined {
  const key = normalizeTitle(title);
  if (!key) return undefined;
  const keyOf = (i: T) => {
    let k = kb.titleKeys.get(i);
    if (k === undefined) kb.titleKeys.set(i, (k = normalizeTitle(i.title ?? '')));
    return k;
  };
  return items.find((i) => filter(i) && keyOf(i) === key);
}


/** A write's result with where its item lives: path, git location and the commit. */
export function written<R extends { item: { slug: string; created: string } }>(kb: KnowledgeBase, kind: KindName, r: { result: R; commit: string | null }): R & { path: string; location: string; commit: string | null; store?: string } {
  const path = itemPath(kind, r.result.item.slug, r.result.item.created);
  const out = { ...r.result, path, location: locationOf(kb, path), commit: r.commit };
  return kb.label ? { ...out, store: kb.label } : out;
}

/** `<ref>:<path>`, followed by `in <store>` when the store is not the session's own repository. */
export function locationOf(kb: KnowledgeBase, path: string): string {
  return `${kb.ref}:${path}${kb.label ? ` in ${kb.label}` : ''}`;
}
