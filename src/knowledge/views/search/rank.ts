import type { KindName } from '../../../model/kind.ts';
import type { Doc, Index, Scratch } from './build-index.ts';
import { docFreq, termCount, termDocs, termPostings } from './index-terms.ts';
import { GAP } from './item-document.ts';
import { bestPassage, type TermValue } from './passage.ts';
import type { QueryGroup } from './query.ts';

/** Revoked items: kept findable, ranked low. */
const REVOKED = 0.25;
/** Other items no longer current (archived memories, done backlog items, answered questions). */
const NOT_CURRENT = 0.5;
/** Items whose anchors changed since they were written. */
const STALE = 0.6;
/** How many of the best documents get the proximity bonus: as many as a search may ask for, so that `k` never changes the order. */
export const RERANK = 100;
/** Bonus for two query words next to each other, by field, as a share of the rarer word's IDF. */
const PROXIMITY = { title: 0.6, body: 0.3 };
/** Bonus for the best passage (`bestPassage`): this share of the worth of the query's words found together in it. */
const PASSAGE = 0.2;
/** How many consecutive words a passage spans (stop words not counted): about a sentence or two. */
const PASSAGE_WIDTH = 8;

export interface Ranked {
  doc: Doc;
  score: number;
  /** the superseded decision that brought this one in */
  via?: string;
}

/** A term's IDF among `n` documents when `df` of them hold it. */
export const idfOf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** The BM25F scores of one query by document position; `touched[0..count)` lists the positions scored. */
export interface Scored {
  scores: Float64Array;
  touched: Int32Array;
  count: number;
  /** the buffers, handed back to the index by `rank` */
  scratch: Scratch;
  /** each term looked for, with the word of the query it stands for and its worth (IDF times weight): what `bestPassage` reads */
  values: Map<string, TermValue>;
  /** the query's groups, and, when the scoring was pruned (prune.ts), the only documents scored (1 a document) */
  groups: QueryGroup[];
  only?: Uint8Array | undefined;
}

/**
 * BM25F by word of the query: each group (a word and its other ways of being said) adds, to each
 * document, the best of its alternatives — a term's IDF times its gain in the document
 * (`Postings.gain`) times the alternative's weight; a phrase's, its terms' mean. The buffers are
 * the index's, taken while the query holds them (another query on the same index meanwhile gets
 * its own) and handed back by `rank`. Given `only`, scores just the documents it marks (1): the
 * others are left at 0 (prune.ts `rankTop`).
 */
export function scoreQuery(index: Index, groups: QueryGroup[], only?: Uint8Array): Scored {
  const n = index.docs.length;
  const own = index.scratch;
  index.scratch = undefined;
  const x: Scratch = own ?? newScratch(n);
  const values = new Map<string, TermValue>();
  const count = addGroups(index, x, groups, values, 0, only);
  return { scores: x.scores, touched: x.touched, count, scratch: x, values, groups, only };
}

/** Zeroed ranking buffers for `n` documents, with room for some more (the index after a few writes takes them over: after-write.ts). */
export function newScratch(n: number): Scratch {
  n += 64 + (n >> 6);
  return {
    scores: new Float64Array(n),
    touched: new Int32Array(n),
    group: new Float64Array(n),
    groupTouched: new Int32Array(n),
    alt: new Float64Array(n),
    altTouched: new Int32Array(n),
  };
}

/**
 * Adds the scores of `groups` to the buffers (and each term's worth to `values`), only to the
 * documents `only` marks when given; how many documents were touched, counting on from `count`.
 */
export function addGroups(index: Index, x: Scratch, groups: QueryGroup[], values: Map<string, TermValue>, count = 0, only?: Uint8Array): number {
  const n = index.docs.length;
  const { scores, touched, group, groupTouched, alt, altTouched } = x;
  const { ids } = index.postings;
  const value = (term: string, group: number, v: number) => {
    const was = values.get(term);
    if (!was || was.value < v) values.set(term, { group, value: v });
  };
  for (let gi = 0; gi < groups.length; gi++) {
    const { alternatives } = groups[gi]!;
    let size = 0;
    for (const { terms, weight } of alternatives) {
      if (terms.length === 1) {
        const id = ids.get(terms[0]!);
        if (id === undefined) continue;
        const { docs, gain, from, to } = termPostings(index.postings, id, only);
        const w = idfOf(n, termCount(index.postings, id)) * weight;
        value(terms[0]!, gi, w);
        for (let i = from; i < to; i++) {
          const d = docs[i]!;
          if (only && only[d] === 0) continue;
          const v = w * gain[i]!;
          const g = group[d]!;
          if (g === 0) groupTouched[size++] = d;
          if (v > g) group[d] = v;
        }
        continue;
      }
      let altSize = 0;
      for (const term of terms) {
        const id = ids.get(term);
        if (id === undefined) continue;
        const { docs, gain, from, to } = termPostings(index.postings, id, only);
        const idf = idfOf(n, termCount(index.postings, id));
        value(term, gi, (idf * weight) / terms.length);
        for (let i = from; i < to; i++) {
          const d = docs[i]!;
          if (only && only[d] === 0) continue;
          if (alt[d] === 0) altTouched[altSize++] = d;
          alt[d]! += idf * gain[i]!;
        }
      }
      for (let j = 0; j < altSize; j++) {
        const d = altTouched[j]!;
        const v = (alt[d]! * weight) / terms.length;
        const g = group[d]!;
        if (g === 0) groupTouched[size++] = d;
        if (v > g) group[d] = v;
        alt[d] = 0;
      }
    }
    for (let j = 0; j < size; j++) {
      const d = groupTouched[j]!;
      if (scores[d] === 0) touched[count++] = d;
      scores[d]! += group[d]!;
      group[d] = 0;
    }
  }
  return count;
}

/** True for a document whose item is stale (`axme verify`). */
export type StalePredicate = (d: Doc) => boolean;

/** The share of its score a document keeps for its revoked and current marks. */
const markFactor = (d: Doc) => (d.revoked ? REVOKED : d.current ? 1 : NOT_CURRENT);

/**
 * How much of its score the document at position `i` keeps: less when revoked, no longer
 * current, or stale (at most 1). Its marks read once an index (`Index.factors`): the
 * ranking asks it of thousands of documents a query, and a document read from a file answers
 * each mark through a getter. `isStale` only when some item is stale.
 */
export function factorAt(index: Index, i: number, isStale?: StalePredicate): number {
  const known = (index.factors ??= new Float64Array(index.docs.length));
  let f = known[i]!;
  if (f === 0) f = known[i] = markFactor(index.docs[i]!);
  return isStale?.(index.docs[i]!) ? f * STALE : f;
}

/** The live decision a superseded one (at position `old`) ends at, following `superseded_by`; undefined when there is none. */
export function successorOf(index: Index, old: number): number | undefined {
  let succ = index.decisions.get(index.docs[old]!.supersededBy!);
  for (let hops = 0; succ !== undefined && index.docs[succ]!.supersededBy && hops < 50; hops++)
    succ = index.decisions.get(index.docs[succ]!.supersededBy!) ?? succ;
  return succ === old ? undefined : succ;
}

/**
 * How many pairs of the query's consecutive words stand within two words of each other in the
 * document's title and in its body, from the positions kept at index time (`Doc.near`).
 */
function adjacentPairs(said: string[], d: Doc): { title: number; body: number } {
  const slots = said.map((t) => d.terms.indexOf(t));
  const pairs: number[] = [];
  for (let i = 0; i + 1 < said.length; i++) if (slots[i]! >= 0 && slots[i + 1]! >= 0 && said[i] !== said[i + 1]) pairs.push(i);
  const found = { title: 0, body: 0 };
  if (!pairs.length) return found;
  const wanted = new Map<number, number>();
  slots.forEach((s, i) => s >= 0 && !wanted.has(s) && wanted.set(s, i));
  const last = new Float64Array(said.length).fill(-Infinity);
  const seen = new Uint8Array(said.length);
  const { near, titleEnd } = d;
  for (let p = 0; p < near.length; p++) {
    if (p === titleEnd) {
      seen.fill(0);
      last.fill(-Infinity);
    }
    const s = near[p]!;
    if (s === GAP) {
      last.fill(-Infinity);
      continue;
    }
    if (!wanted.has(s)) continue;
    for (let i = 0; i < said.length; i++) if (slots[i] === s) last[i] = p;
    for (const i of pairs) {
      if (seen[i] || (slots[i] !== s && slots[i + 1] !== s)) continue;
      if (Math.abs(last[i]! - last[i + 1]!) <= 2) {
        seen[i] = 1;
        if (p < titleEnd) found.title++;
        else found.body++;
      }
    }
  }
  return found;
}

/**
 * The ranking of `scoreQuery`'s result: a bonus where the query's words stand together, lower for
 * revoked, old and stale items; a superseded decision is folded into its live successor (which
 * takes the better of the two scores and names it in `via`). The best `k` of `kinds` (all when
 * absent), how many items of them matched (`total`: worked out when first read, when the scoring
 * was pruned) and how many documents were scored. Hands the buffers back to the index.
 */
export function rank(
  index: Index,
  scored: Scored,
  said: string[],
  k: number,
  isStale?: StalePredicate,
  kinds?: ReadonlySet<KindName>,
): { ranked: Ranked[]; total: number; scored: number } {
  const { scores, touched } = scored;
  const scoredCount = scored.count;
  let { count } = scored;
  const via = new Map<number, string>();
  for (const old of index.superseded) {
    const s = scores[old]!;
    if (s <= 0) continue;
    const succ = successorOf(index, old);
    if (succ === undefined) continue;
    scores[old] = -1;
    if (scores[succ]! < s) {
      if (scores[succ] === 0) touched[count++] = succ;
      scores[succ] = s;
      if (!via.has(succ)) via.set(succ, index.docs[old]!.slug);
    }
  }
  const factor = (i: number) => factorAt(index, i, isStale);
  const { top: positions, live } = best(index, scores, touched, count, Math.max(RERANK, k), factor, kinds);
  const top = positions.map(([i, final]): Ranked => {
    const doc = index.docs[i]!;
    const r: Ranked = { doc, score: final };
    const v = via.get(i);
    if (v) r.via = v;
    return r;
  });
  for (let j = 0; j < top.length; j++) top[j]!.score += PASSAGE * bestPassage(top[j]!.doc, scored.values, PASSAGE_WIDTH) * factor(positions[j]![0]);
  const distinct = [...new Set(said)];
  if (distinct.length > 1) {
    const pairIdf = Math.min(...distinct.map((t) => idfOf(index.docs.length, docFreq(index.postings, t))));
    for (let j = 0; j < top.length; j++) {
      const pairs = adjacentPairs(said, top[j]!.doc);
      const bonus = PROXIMITY.title * pairs.title + PROXIMITY.body * pairs.body;
      top[j]!.score += bonus * pairIdf * factor(positions[j]![0]);
    }
  }
  for (let j = 0; j < count; j++) scores[touched[j]!] = 0;
  index.scratch = scored.scratch;
  const order = (x: Ranked, y: Ranked) => y.score - x.score || (x.doc.slug < y.doc.slug ? -1 : 1);
  const { only, groups } = scored;
  let total: number | undefined = only ? undefined : live;
  return {
    ranked: top.sort(order).slice(0, k),
    get total() {
      total ??= live + unscoredMatches(index, groups, only!, kinds);
      return total;
    },
    scored: scoredCount,
  };
}

/** How many documents of `kinds` hold a term of `groups` but were left out of a pruned scoring (`only`): each counts as a match, as an exhaustive scoring finds. */
function unscoredMatches(index: Index, groups: QueryGroup[], only: Uint8Array, kinds: ReadonlySet<KindName> | undefined): number {
  const n = index.docs.length;
  let count = 0;
  // a term every document holds (a common word of a large store): every document matches, no postings read
  const everywhere = groups.some(({ alternatives }) => alternatives.some(({ terms }) => terms.some((t) => docFreq(index.postings, t) === n)));
  if (everywhere) {
    for (let d = 0; d < n; d++) if (!only[d] && (!kinds || kinds.has(index.docs[d]!.kind))) count++;
    return count;
  }
  const seen = new Uint8Array(n);
  for (const { alternatives } of groups)
    for (const { terms } of alternatives)
      for (const term of terms) {
        const id = index.postings.ids.get(term);
        if (id === undefined) continue;
        const { docs, from, to } = termDocs(index.postings, id);
        for (let i = from; i < to; i++) {
          const d = docs[i]!;
          if (only[d] || seen[d]) continue;
          seen[d] = 1;
          if (!kinds || kinds.has(index.docs[d]!.kind)) count++;
        }
      }
  return count;
}

/**
 * The `n` touched positions of `kinds` (all when absent) with the highest score times `factor`
 * (of equal ones, the first in the index), best first, and how many scored above 0. A bounded
 * min-heap; as `factor` is at most 1, a score below the heap's least is passed over without
 * looking at its document. Which ties make the cut depends on nothing but the scores, so a
 * scoring that leaves out documents that cannot make it (prune.ts) keeps the same ones.
 */
function best(
  index: Index,
  scores: Float64Array,
  touched: Int32Array,
  count: number,
  n: number,
  factor: (i: number) => number,
  kinds?: ReadonlySet<KindName>,
): { top: Array<[number, number]>; live: number } {
  const at = new Int32Array(n);
  const val = new Float64Array(n);
  let size = 0;
  let live = 0;
  // a is worse than b: a lower value, or the same value further on in the index
  const worse = (va: number, a: number, vb: number, b: number) => va < vb || (va === vb && a > b);
  const swap = (i: number, j: number) => {
    const a = at[i]!;
    const v = val[i]!;
    at[i] = at[j]!;
    val[i] = val[j]!;
    at[j] = a;
    val[j] = v;
  };
  for (let j = 0; j < count; j++) {
    const i = touched[j]!;
    const s = scores[i]!;
    if (s <= 0 || (kinds && !kinds.has(index.docs[i]!.kind))) continue;
    live++;
    if (size === n && s < val[0]!) continue;
    const f = s * factor(i);
    if (size < n) {
      at[size] = i;
      val[size] = f;
      for (let c = size++; c > 0 && worse(val[c]!, at[c]!, val[(c - 1) >> 1]!, at[(c - 1) >> 1]!); c = (c - 1) >> 1) swap(c, (c - 1) >> 1);
    } else if (worse(val[0]!, at[0]!, f, i)) {
      at[0] = i;
      val[0] = f;
      for (let c = 0; ; ) {
        const l = 2 * c + 1;
        const r = l + 1;
        let m = c;
        if (l < size && worse(val[l]!, at[l]!, val[m]!, at[m]!)) m = l;
        if (r < size && worse(val[r]!, at[r]!, val[m]!, at[m]!)) m = r;
        if (m === c) break;
        swap(c, m);
        c = m;
      }
    }
  }
  const top: Array<[number, number]> = [];
  for (let j = 0; j < size; j++) top.push([at[j]!, val[j]!]);
  return { top: top.sort((a, b) => b[1] - a[1] || a[0] - b[0]), live };
}
