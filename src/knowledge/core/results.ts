import type { KindName } from '../../model/kind.ts';
import { itemPath } from '../../model/paths.ts';
import type { KnowledgeBase } from './kb.ts';

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

/** Options every write takes. */
export interface WriteOptions {
  /** store content that looks like a credential anyway */
  allowSecret?: boolean;
  /** an edit of one item: the version it was made from (item-version.ts); refused when the item has changed since */
  base?: string | undefined;
}

/** A write's result with where its item lives: path, git location and the commit. */
export function writtenResult<R extends { item: { slug: string; created: string } }>(
  kb: KnowledgeBase,
  kind: KindName,
  r: { result: R; commit: string | null; ref?: string },
): R & { path: string; location: string; commit: string | null; store?: string } {
  const path = itemPath(kind, r.result.item.slug, r.result.item.created);
  const out = { ...r.result, path, location: locationOf(r.ref ? { ...kb, ref: r.ref } : kb, path), commit: r.commit };
  return kb.label ? { ...out, store: kb.label } : out;
}

/** `<ref>:<path>`, followed by `in <store>` when the store is not the session's own repository. */
export function locationOf(kb: KnowledgeBase, path: string): string {
  return `${kb.ref}:${path}${kb.label ? ` in ${kb.label}` : ''}`;
}
