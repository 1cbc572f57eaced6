import type { ItemBase, KindName } from '../../model/kind.ts';
import { itemPath } from '../../model/paths.ts';
import { itemVersion } from '../core/item-version.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { findItem } from '../core/lookup.ts';
import { readMergedState, storeOf } from '../core/merged-state.ts';
import { locationOf } from '../core/results.ts';

export interface ShowResult<T> {
  item: T;
  path: string;
  location: string;
  /** the file as stored */
  text: string;
  commit: string;
  /** the item's version (its file's blob id, item-version.ts): what an edit made from this reading gives as its base */
  version: string;
  /** set when the item comes from the workspace store (its path); `commit` is then that store's */
  store?: string;
}

/** One item by slug, ID or alias, at the tip or at a revision, with its file text. */
export async function showItem<T extends ItemBase>(kb: KnowledgeBase, opts: { kind: KindName; ref: string; at?: string | undefined }): Promise<ShowResult<T>> {
  const state = await readMergedState(kb, opts.at);
  const item = findItem<T>(state, opts.kind, opts.ref);
  const path = itemPath(opts.kind, item.slug, item.created);
  // a workspace item is read from the workspace store (and says so)
  const ws = storeOf(state, item) ? state.workspace! : null;
  const from = ws ? { kb: ws.kb!, state: ws.state! } : { kb, state };
  const version = itemVersion(from.state, opts.kind, item);
  const text = (await from.kb.repo.backend.readBlob(version)).toString('utf8');
  const r: ShowResult<T> = { item, path, location: locationOf(from.kb, path), text, commit: from.state.commit!, version };
  if (ws) r.store = ws.store;
  return r;
}
