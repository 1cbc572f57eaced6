import { AxmeError, isAxmeError } from '../../model/errors.ts';
import type { ItemBase, KindName } from '../../model/kind.ts';
import { itemPath } from '../../model/paths.ts';
import type { KnowledgeState } from './state.ts';

/**
 * The version of an item in a state: the blob id of its file, which names its content exactly (a
 * change of any field, by anyone, is a new blob; a commit elsewhere in the store is not). An edit
 * made from what a person saw carries it as its `base`.
 */
export function itemVersion(state: KnowledgeState, kind: KindName, item: ItemBase): string {
  return state.snapshot.files.get(itemPath(kind, item.slug, item.created))!.oid;
}

/**
 * Refuses an edit made from an older version of the item than the one in `state` (WRONG_STATE,
 * with the versions and the item in `data`): the fields it sends would overwrite what was changed
 * since. No `base`: the edit is made on the item as it is now (the CLI, an agent's tool call).
 */
export function assertVersion(state: KnowledgeState, kind: KindName, item: ItemBase, base: string | undefined): void {
  if (base === undefined) return;
  const current = itemVersion(state, kind, item);
  if (base === current) return;
  throw new AxmeError(
    'WRONG_STATE',
    `${kind} ${item.slug} changed since the version this edit was made from (${base.slice(0, 12) || 'none given'}, now ${current.slice(0, 12)}): nothing was written; read it again and redo the edit on what it says now`,
    { kind, slug: item.slug, base, current },
  );
}

/** True when `err` is assertVersion's refusal: the item changed since the edit's base. */
export function isChangedSince(err: unknown): err is AxmeError & { data: { kind: KindName; slug: string; base: string; current: string } } {
  return isAxmeError(err, 'WRONG_STATE') && typeof err.data.current === 'string' && typeof err.data.base === 'string';
}
