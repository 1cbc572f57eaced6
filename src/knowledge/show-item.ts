import type { ItemBase, KindName } from '../model/kind.ts';
import { itemPath } from '../model/paths.ts';
import type { KnowledgeBase } from './kb.ts';
import { locationOf } from './items.ts';
import { findItem } from './lookup.ts';
import { readState } from './state.ts';

export interface ShowResult<T> {
  item: T;
  path: string;
  location: string;
  /** the file as stored */
  text: string;
  commit: string;
}

/** One item by slug, ID or alias, at the tip or at a revision, with its file text. */
export async function showItem<T extends ItemBase>(kb: KnowledgeBase, opts: { kind: KindName; ref: string; at?: string | undefined }): Promise<ShowResult<T>> {
  const state = await readState(kb, opts.at);
  const item = findItem<T>(state, opts.kind, opts.ref);
  const path = itemPath(opts.kind, item.slug, item.created);
  const blob = state.snapshot.files.get(path)!;
  const text = (await kb.repo.backend.readBlob(blob.oid)).toString('utf8');
  return { item, path, location: locationOf(kb, path), text, commit: state.commit! };
}
