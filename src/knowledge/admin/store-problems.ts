import type { ItemBase } from '../../model/kind.ts';
import { ID_KINDS, type IdKind } from '../../model/kinds.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import type { MergedState } from '../core/merged-state.ts';
import { sharedIds } from '../core/shared-ids.ts';
import type { Diagnostic, KnowledgeState } from '../core/state.ts';

/**
 * The problems in a store that need a person, cheap enough for every session start: the errors
 * found reading it (broken item files, rules, axme.yaml, an unreadable workspace store) and
 * display IDs that several items of one store carry — lookups by such an ID are refused until
 * one is renumbered. `axme fsck` finds these and more (missing objects, supersession links).
 */
export function storeProblems(kb: KnowledgeBase, state: MergedState): Diagnostic[] {
  // a state never changes: its problems are worked out once (a warm server answers every context
  // call from here). Keyed by its items, which a view without a workspace shares with its state.
  const known = kb.cache.perObject<Diagnostic[]>('store-problems');
  let out = known.get(state.items);
  if (!out) known.set(state.items, (out = problemsOf(state)));
  return out;
}

function problemsOf(state: MergedState): Diagnostic[] {
  const out = state.diagnostics.filter((d) => d.severity === 'error');
  out.push(...duplicateIds(state));
  const ws = state.workspace;
  if (ws?.state) out.push(...duplicateIds(ws.state).map((d) => ({ ...d, store: ws.store })));
  return out;
}

/** One error per item whose display ID an earlier item (by path order) of its kind already holds; worded as `axme fsck` words it. */
function duplicateIds(state: KnowledgeState): Diagnostic[] {
  // the workspace items of a merged view are the workspace store's: they are checked there
  const ws = (state as MergedState).workspace;
  const own = ws
    ? (Object.fromEntries(ID_KINDS.map((k) => [k, (state.items[k] as ItemBase[]).filter((i) => !ws.items.has(i))])) as Record<IdKind, ItemBase[]>)
    : state.items;
  return sharedIds(own).flatMap(({ id, paths }) =>
    paths.slice(1).map(
      (path): Diagnostic => ({
        path,
        severity: 'error',
        reason: `display ID ${id} is also used by ${paths[0]}: renumber one and keep its old ID in aliases`,
      }),
    ),
  );
}
