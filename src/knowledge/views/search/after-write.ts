import type { KnowledgeBase } from '../../core/kb.ts';
import type { MergedState } from '../../core/merged-state.ts';
import { byIdThenSlug } from '../../core/state.ts';
import { type Doc, documentOf, type Index, indexFrom, sameGroups } from './build-index.ts';
import { diffLists } from './list-diff.ts';
import { layOver } from './live-index.ts';
import { moveRows, patchLinks } from './patch-postings.ts';
import { INDEX_ORDER, searchLists, sourceOf } from './sources.ts';

/** Past this share of items changed, comparing the lists stops: the index is made the usual way. */
const CHANGED_SHARE = 1 / 8;

/**
 * The index of `state` made from `previous`, this process's index of an earlier tip (the one
 * before its own write, say), with only what changed since: the item lists compared by object
 * (an unchanged item is the same parsed object in both states), the new items tokenized, and
 * their postings laid over the previous ones (live-index.ts) without touching the others. Nothing
 * is done per unchanged item but moving its document to its new position. Undefined when that
 * does not apply — a workspace merged in, the glossary changed, too many items changed, the
 * previous postings keep no frequencies — and the caller makes the index the usual way.
 */
export function indexAfterWrite(kb: KnowledgeBase, previous: Index, state: MergedState, glossary: string[][]): Index | undefined {
  const made = previous.madeFrom;
  if (!made || state.workspace || !sameGroups(previous.glossary ?? [], glossary)) return undefined;
  const lists = searchLists(state);
  const size = lists.reduce((n, l) => n + l.length, 0);
  const diff = diffLists(made.lists, lists, byIdThenSlug as (a: object, b: object) => number, Math.max(16, size * CHANGED_SHARE));
  if (!diff || diff.newOf.length !== previous.docs.length) return undefined;
  // the documents in order: the kept ones (in the same order as before), run by run, and the added ones between
  const pieces: Doc[][] = [];
  let a = 0;
  const addBefore = (at: number) => {
    for (; a < diff.added.length && diff.added[a]!.at < at; a++) {
      const { list, item } = diff.added[a]!;
      pieces.push([documentOf(kb, sourceOf(state, INDEX_ORDER[list]!, item as never))]);
    }
  };
  // where the documents moved, worked out as the lists were compared (patch-postings.ts `Moves`)
  const moves = diff;
  const { runs } = moves;
  for (let r = 0; r < runs.length; r += 3) {
    addBefore(runs[r + 2]!);
    pieces.push(previous.docs.slice(runs[r]!, runs[r + 1]!));
  }
  addBefore(diff.size);
  const docs = ([] as Doc[]).concat(...pieces);
  if (docs.length !== diff.size) return undefined;
  const added = diff.added.map((a) => a.at);
  const laid = layOver(previous, docs, moves, added);
  if (!laid) return undefined;
  const links = patchLinks(previous, docs, moves, added);
  const index = indexFrom(docs, () => laid.postings, glossary, docs.length - added.length, links && { ...links, synonyms: previous.synonyms });
  Object.assign(index, laid.tables);
  index.delta = laid.delta;
  index.patched = true;
  index.madeFrom = { lists };
  // the unchanged documents' marks as the ranking read them (rank.ts factorAt): not read again
  if (previous.factors) moveRows(previous.factors, (index.factors = new Float64Array(docs.length)), moves, 1);
  // the ranking's buffers (zeroed between queries) taken over when they have room: a query after a write allocates none
  const scratch = previous.scratch;
  if (scratch && scratch.scores.length >= docs.length) {
    previous.scratch = undefined;
    index.scratch = scratch;
  }
  return index;
}
