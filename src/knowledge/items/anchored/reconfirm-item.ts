import { ANCHORED_KINDS, type AnchoredKind, ReconfirmInput } from '../../../model/anchor.ts';
import { AxmeError, isAxmeError } from '../../../model/errors.ts';
import { parseId } from '../../../model/ids.ts';
import type { ItemBase } from '../../../model/kind.ts';
import { kindOfPrefix } from '../../../model/kinds.ts';
import { parseInput } from '../../../model/validate.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { headCommitOf, relearned } from '../../core/learned-at.ts';
import { findItem } from '../../core/lookup.ts';
import { mutate, subjectOf } from '../../core/mutate.ts';
import { type EditResult, writtenResult } from '../../core/results.ts';
import { putItem, single, stage } from '../../core/staging.ts';
import type { KnowledgeState } from '../../core/state.ts';
import { editHere } from '../../workspace/workspace-item.ts';

type Anchored = ItemBase & { anchors: string[]; learned_at?: string | undefined; reconfirmed_by?: string; title?: string; id?: string };

export interface ReconfirmResult extends EditResult<Anchored> {
  kind: AnchoredKind;
  /** the learned_at before */
  previous: string | null;
}

/**
 * Records that a person or agent checked an item against the code as it is now: one commit that
 * moves its `learned_at` to the commit HEAD points at (and, given `anchors`, replaces them), so
 * `axme verify` stops calling it stale, and names the reconfirming session (`reconfirmed_by`) when
 * another one saved it: its later commits carry the item out. Nothing is written when it already is
 * learned at HEAD with the same anchors.
 */
export async function reconfirmItem(kb: KnowledgeBase, input: ReconfirmInput): Promise<ReconfirmResult> {
  const data = parseInput(ReconfirmInput, input, 'reconfirm');
  // verify compares with HEAD as git resolves it (headCommitOf): reconfirm records the same commit
  const head = await headCommitOf(kb);
  if (!head)
    throw new AxmeError(
      'WRONG_STATE',
      'the repository has no code commit to reconfirm against (HEAD points at nothing): commit the code first, then reconfirm',
    );
  let kind: AnchoredKind = data.kind ?? 'decision';
  let previous: string | null = null;
  const kinds = data.kind ? [data.kind] : (['decision', 'memory'] as const);
  const r = await editHere(
    kb,
    kinds,
    data.id,
    () => null,
    () =>
      mutate(kb, (state) => {
        const found = locate(state, data.id, data.kind);
        kind = found.kind;
        const old = found.item;
        previous = old.learned_at ?? null;
        const anchors = data.anchors ?? old.anchors;
        if (old.learned_at === head && anchors.join('\n') === old.anchors.join('\n')) return { result: { item: old, changed: false } };
        const item: Anchored = { ...relearned(kb, old, head), anchors, updated: kb.now().toISOString() };
        const st = stage(state);
        putItem(st, kind, item as never, `${kind}.reconfirmed`, subjectOf(kind, 'reconfirm', old.id, old.title ?? old.slug));
        return single(st, { item, changed: true });
      }),
  );
  return { ...writtenResult(kb, kind, r), kind, previous };
}

/** The anchored item `ref` names: in `kind`, else by display ID, else the first kind holding the slug. */
function locate(state: KnowledgeState, ref: string, kind: AnchoredKind | undefined): { kind: AnchoredKind; item: Anchored } {
  if (kind) return { kind, item: findItem<Anchored>(state, kind, ref) };
  const id = parseId(ref.trim());
  const byId = id && kindOfPrefix(id.prefix);
  if (byId && (ANCHORED_KINDS as readonly string[]).includes(byId)) {
    const k = byId as AnchoredKind;
    return { kind: k, item: findItem<Anchored>(state, k, ref) };
  }
  for (const k of ANCHORED_KINDS) {
    try {
      return { kind: k, item: findItem<Anchored>(state, k, ref) };
    } catch (err) {
      if (!isAxmeError(err, 'NOT_FOUND')) throw err;
    }
  }
  throw new AxmeError('NOT_FOUND', `no decision, memory, backlog item or oracle page ${ref}: \`axme verify\` lists the stale ones by ID or slug`, { ref });
}
