import { AxmeError, isAxmeError } from '../../model/errors.ts';
import type { ItemBase, KindName } from '../../model/kind.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { findItem } from '../core/lookup.ts';
import { readMergedState, storeOf } from '../core/merged-state.ts';
import type { KnowledgeState } from '../core/state.ts';

/** A workspace item a repository reads (docs/workspaces.md, "Reading: the merged view"), with where it is stored. */
export interface WorkspaceItem<T> {
  item: T;
  /** the workspace folder (where `axme -C <root> …` edits it) */
  root: string;
  /** the workspace store, `<root>/.axme.git` */
  store: string;
}

/** True when the repository's own store holds the item `ref` names (a miss is false; a broken file or an ambiguous ID throws). */
export function ownHas(state: KnowledgeState, kind: KindName, ref: string): boolean {
  try {
    findItem(state, kind, ref);
    return true;
  } catch (err) {
    if (isAxmeError(err, 'NOT_FOUND')) return false;
    throw err;
  }
}

/**
 * The item `ref` names in this repository's merged view when it comes from the workspace store
 * (an item the repository lists as `[workspace]`), or null: outside a workspace, in the workspace
 * store itself, or when the repository's own item is the one named.
 */
export async function workspaceItem<T extends ItemBase>(kb: KnowledgeBase, kind: KindName, ref: string): Promise<WorkspaceItem<T> | null> {
  if (!kb.workspace || kb.workspace.self) return null;
  const merged = await readMergedState(kb);
  if (!merged.workspace?.state) return null;
  let item: T;
  try {
    item = findItem<T>(merged, kind, ref);
  } catch {
    return null;
  }
  return storeOf(merged, item) ? { item, root: merged.workspace.root, store: merged.workspace.store } : null;
}

/**
 * Runs an edit of one item of the repository's store; when the item it names is not there but is
 * the workspace's, the NOT_FOUND says so and how to edit it where it lives (`command` given the
 * item's slug, run in the workspace folder), instead of "no such item" about an item the listing shows.
 */
export async function editHere<R>(
  kb: KnowledgeBase,
  kinds: readonly KindName[],
  ref: string,
  command: (slug: string) => string | null,
  edit: () => Promise<R>,
): Promise<R> {
  try {
    return await edit();
  } catch (err) {
    if (!isAxmeError(err, 'NOT_FOUND') || (err.data.kind !== undefined && !kinds.includes(err.data.kind as KindName))) throw err;
    let theirs: WorkspaceItem<ItemBase> | null = null;
    let kind = kinds[0]!;
    for (const k of kinds) {
      theirs = await workspaceItem(kb, k, ref);
      kind = k;
      if (theirs) break;
    }
    if (!theirs) throw err;
    const there = command(theirs.item.slug);
    throw new AxmeError(
      'NOT_FOUND',
      `${kind} ${theirs.item.slug} is the workspace's (${theirs.store}), not this repository's: ${
        there
          ? `change it there, for every repository, with \`axme -C ${theirs.root} ${there}\``
          : `it is changed in the workspace folder (${theirs.root}), not from here`
      }${
        kind === 'decision'
          ? `; or override it in this repository alone: \`axme decision revoke ${theirs.item.slug} --reason …\` (a revoked copy here, under its slug), then add this repository's own`
          : ''
      }`,
      { kind, ref, store: theirs.store, root: theirs.root, slug: theirs.item.slug },
    );
  }
}
