import type { KindName } from '../../../model/kind.ts';
import type { Index } from './build-index.ts';
import { K1 } from './fields.ts';
import { termCount } from './index-terms.ts';
import type { QueryGroup } from './query.ts';
import { addGroups, factorAt, idfOf, newScratch, RERANK, rank, type StalePredicate, scoreQuery } from './rank.ts';

/**
 * `rank(scoreQuery(...))` without scoring the documents that cannot be among the best
 * `max(RERANK, k)`: the same hits, scores, order and total (test/knowledge/search-prune.test.ts),
 * for the query at the tip, where a prompt's common words would otherwise score every document.
 */
export function rankTop(index: Index, groups: QueryGroup[], said: string[], k: number, isStale?: StalePredicate, kinds?: ReadonlySet<KindName>) {
  const only = candidatesOf(index, groups, Math.max(RERANK, k), (i) => factorAt(index, i, isStale), kinds);
  return rank(index, scoreQuery(index, groups, only), said, k, isStale, kinds);
}

/** Past this share of the documents touched by the groups scored first, the scoring is not pruned: the other groups' postings are read whole. */
const PRUNE_SHARE = 1 / 2;

/** The most `term` can add to a document's score, per unit of its alternative's weight: its IDF times the most BM25's saturation gives. */
function termBound(index: Index, term: string): number {
  const id = index.postings.ids.get(term);
  if (id === undefined) return 0;
  return idfOf(index.docs.length, termCount(index.postings, id)) * (K1 + 1);
}

/** The most a group (one word of the query) can add: the best of its alternatives' bounds (a phrase's, its terms' mean). */
function groupBound(index: Index, { alternatives }: QueryGroup): number {
  let most = 0;
  for (const { terms, weight } of alternatives) {
    let sum = 0;
    for (const t of terms) sum += termBound(index, t);
    most = Math.max(most, (sum * weight) / terms.length);
  }
  return most;
}

/**
 * MaxScore, word by word: the groups are scored from the one that can add the most down; once
 * the groups left could add less, together, than the `n`-th best score so far (times `factor`,
 * of `kinds`), a document none of the scored groups touched cannot reach the best `n`, so only
 * the touched ones (and the superseded decisions and their successors, whose scores are folded
 * together) need scoring. Those marked 1; undefined when nothing can be left out.
 */
function candidatesOf(
  index: Index,
  groups: QueryGroup[],
  n: number,
  factor: (i: number) => number,
  kinds: ReadonlySet<KindName> | undefined,
): Uint8Array | undefined {
  const size = index.docs.length;
  if (size <= n || groups.length < 2) return undefined;
  const bounds = groups.map((g) => groupBound(index, g));
  const order = groups.map((_, i) => i).sort((a, b) => bounds[b]! - bounds[a]!);
  let rest = bounds.reduce((a, b) => a + b, 0);
  const superseded = new Uint8Array(size);
  for (const i of index.superseded) superseded[i] = 1;
  // lower bounds of the scores: the groups scored so far (a sum in another order than the exact one: a margin below)
  const x = index.scratch ?? newScratch(size);
  index.scratch = undefined;
  let count = 0;
  let only: Uint8Array | undefined;
  for (let j = 0; j < order.length; j++) {
    count = addGroups(index, x, [groups[order[j]!]!], new Map(), count);
    rest -= bounds[order[j]!]!;
    if (j === order.length - 1 || count < n) continue;
    // most documents scored already: what pruning would leave out does not pay for the marks (a pruned read looks each marked one up)
    if (count > size * PRUNE_SHARE) break;
    const least = nthBest(index, x.scores, x.touched, count, n, factor, kinds, superseded);
    if (!(rest < least * (1 - 1e-9))) continue;
    only = new Uint8Array(size);
    for (let t = 0; t < count; t++) only[x.touched[t]!] = 1;
    for (const i of index.superseded) only[i] = 1;
    markSuccessors(index, only);
    break;
  }
  // the buffers handed back zeroed (addGroups leaves the others at 0): the scoring that follows takes them, not new ones
  for (let t = 0; t < count; t++) x.scores[x.touched[t]!] = 0;
  index.scratch = x;
  return only;
}

/** Marks every decision a superseded one ends at (`successorOf` follows chains of them). */
function markSuccessors(index: Index, only: Uint8Array): void {
  for (const old of index.superseded) {
    let succ = index.decisions.get(index.docs[old]!.supersededBy!);
    for (let hops = 0; succ !== undefined && hops < 50; hops++) {
      only[succ] = 1;
      const next = index.docs[succ]!.supersededBy;
      succ = next ? index.decisions.get(next) : undefined;
    }
  }
}

/** The `n`-th best of the touched scores times `factor` (of `kinds`, superseded decisions left out: they never rank), or 0 when fewer. */
function nthBest(
  index: Index,
  scores: Float64Array,
  touched: Int32Array,
  count: number,
  n: number,
  factor: (i: number) => number,
  kinds: ReadonlySet<KindName> | undefined,
  superseded: Uint8Array,
): number {
  // a min-heap of the best n so far: most scores are below its least and cost one comparison
  const heap = new Float64Array(n);
  let m = 0;
  for (let t = 0; t < count; t++) {
    const d = touched[t]!;
    if (superseded[d] || (kinds && !kinds.has(index.docs[d]!.kind))) continue;
    if (m === n && scores[d]! <= heap[0]!) continue; // a factor is at most 1
    const v = scores[d]! * factor(d);
    if (m < n) {
      let c = m++;
      for (; c > 0 && heap[(c - 1) >> 1]! > v; c = (c - 1) >> 1) heap[c] = heap[(c - 1) >> 1]!;
      heap[c] = v;
    } else if (v > heap[0]!) siftDown(heap, v);
  }
  return m < n ? 0 : heap[0]!;
}

/** Replaces the least of the full min-heap `heap` by `v`. */
function siftDown(heap: Float64Array, v: number): void {
  const size = heap.length;
  let c = 0;
  for (;;) {
    const l = 2 * c + 1;
    if (l >= size) break;
    const r = l + 1;
    const m = r < size && heap[r]! < heap[l]! ? r : l;
    if (heap[m]! >= v) break;
    heap[c] = heap[m]!;
    c = m;
  }
  heap[c] = v;
}
