import { fieldNorms, gainOf } from './fields.ts';
import type { Doc, Index, Postings, TermIds } from './index-shape.ts';

/** Past this share of documents added or removed, a build from the documents costs no more than a patch. */
const PATCH_SHARE = 1 / 8;

/**
 * The postings of `docs` made from `previous`'s (a build's, which kept each posting's term
 * frequencies and the documents' field lengths) when `docs` are `previous`'s documents in the same
 * order, a few added or removed (a changed item's document is a new object: one removed, one
 * added). Only the changed documents' terms are looked up; the rest is one pass over flat arrays:
 * the kept postings copied with their documents' new positions, the length norms (they depend on
 * every document) worked out again, and each posting's gain from its frequencies (`gainOf`, as a
 * build does). The result is what a build of `docs` gives, term ids aside (a term no document
 * holds any more is dropped, a new one takes the next id). Undefined when a build is due: no
 * frequencies kept, documents reordered, or too many changed.
 */
export function patchPostings(previous: Index, docs: readonly Doc[]): { postings: Postings; links: Links | undefined } | undefined {
  const old = flatOf(previous);
  if (!old) return undefined;
  const oldTf = old.tf;
  const oldLen = old.len;
  if (!oldTf || !oldLen || old.read) return undefined;
  const before = previous.docs;
  const where = new Map<Doc, number>();
  for (let j = 0; j < before.length; j++) where.set(before[j]!, j);
  // old position -> new (-1: removed), new position -> old (-1: added)
  const newOf = new Int32Array(before.length).fill(-1);
  const added: number[] = [];
  let last = -1;
  for (let i = 0; i < docs.length; i++) {
    const j = where.get(docs[i]!);
    if (j === undefined || newOf[j]! >= 0) {
      added.push(i);
      continue;
    }
    if (j < last) return undefined;
    newOf[j] = i;
    last = j;
  }
  const removed = before.length - (docs.length - added.length);
  if (added.length + removed > Math.max(16, docs.length * PATCH_SHARE)) return undefined;

  // each term's documents from now on: the old count, less the removed documents', plus the added ones'
  const oldTerms = old.start.length - 1;
  const fresh: FreshTerms = { first: oldTerms, terms: [], ids: new Map() };
  const moves = movesOf(newOf);
  const { df } = countTerms(countsOf(old.start), previous.docs, moves, docs, added, old.ids, fresh);

  // the terms some document still holds keep their order; the new ones follow
  const ids = new Map<string, number>();
  const remap = new Int32Array(oldTerms).fill(-1);
  let count = 0;
  for (const [t, id] of old.ids) if (df[id]! > 0) ids.set(t, (remap[id] = count++));
  for (const t of fresh.terms) ids.set(t, count++);
  const start = new Int32Array(count + 1);
  for (let id = 0; id < oldTerms; id++) if (remap[id]! >= 0) start[remap[id]! + 1] = df[id]!;
  fresh.terms.forEach((_, j) => (start[count - fresh.terms.length + j + 1] = df[oldTerms + j]!));
  for (let k = 0; k < count; k++) start[k + 1]! += start[k]!;

  const extra = addedPostings(docs, added, (t) => ids.get(t)!);

  const out = new Int32Array(start[count]!);
  const tf = new Float64Array(out.length);
  const was = { docs: old.docs, tf: oldTf };
  const fill = (k: number, from: number, to: number) => mergeTerm({ docs: out, tf }, start[k]!, was, from, to, newOf, extra.get(k));
  for (let id = 0; id < oldTerms; id++) if (remap[id]! >= 0) fill(remap[id]!, old.start[id]!, old.start[id + 1]!);
  for (let k = count - fresh.terms.length; k < count; k++) fill(k, 0, 0);

  // the norms depend on every document's lengths: worked out again, then every gain from its frequencies
  const len = lengthsAfter(oldLen, moves, docs, added);
  const norms = fieldNorms(len);
  const gain = new Float64Array(out.length);
  for (let p = 0; p < out.length; p++) gain[p] = gainOf(tf[p]!, norms, out[p]!);
  const links = patchLinks(previous, docs, moves, added);
  // the decisions a map again: a patch already works over every posting, and a view over a view would grow with each write
  return { postings: { ids, start, docs: out, gain, tf, len }, links: links && { ...links, decisions: new Map(links.decisions) } };
}

/**
 * The flat postings `index` holds: its own, or, when they are read as a delta of nothing changed
 * (live-index.ts `readAsLive`), that delta's base; undefined when a delta holds changes.
 */
export function flatOf(index: Index): Postings | undefined {
  const { delta } = index;
  if (!delta) return index.postings;
  if (!delta.exact) return undefined;
  const { ids, start, docs, gain, tf } = delta.base;
  return { ids, start, docs, gain, tf, len: delta.len, totals: delta.totals };
}

/** Each term's count of documents in flat postings (`Postings.start`). */
export function countsOf(start: Int32Array): Int32Array {
  const df = new Int32Array(start.length - 1);
  for (let id = 0; id < df.length; id++) df[id] = start[id + 1]! - start[id]!;
  return df;
}

/** The terms a change brings that no earlier id is known for: term `terms[j]` takes id `first + j` (`ids`). */
export interface FreshTerms {
  first: number;
  terms: string[];
  ids: Map<string, number>;
}

/**
 * Each term's count of documents after a change: `df` (changed in place; a grown copy is returned
 * when fresh terms need more room) less the terms of `before`'s documents that are gone (`Moves.gone`), plus those
 * of `docs`' `added` ones; a term neither `ids` nor `fresh` knows becomes fresh. With the terms no
 * document holds any more (`died`) and those no document held before (`born`).
 */
export function countTerms(
  df: Int32Array,
  before: readonly Doc[],
  { gone }: Moves,
  docs: readonly Doc[],
  added: Iterable<number>,
  ids: TermIds,
  fresh: FreshTerms,
): { df: Int32Array; died: Set<string>; born: Set<string> } {
  const idOf = (t: string) => ids.get(t) ?? fresh.ids.get(t);
  const died = new Set<string>();
  const born = new Set<string>();
  for (const j of gone) for (const t of before[j]!.terms) if (--df[idOf(t)!]! === 0) died.add(t);
  for (const i of added) {
    for (const t of docs[i]!.terms) {
      let id = idOf(t);
      if (id === undefined) {
        id = fresh.first + fresh.terms.length;
        fresh.terms.push(t);
        fresh.ids.set(t, id);
      }
      if (id >= df.length) {
        const grown = new Int32Array(Math.max(df.length * 2, id + 1));
        grown.set(df);
        df = grown;
      }
      if (df[id]!++ === 0 && !died.delete(t)) born.add(t);
    }
  }
  return { df, died, born };
}

/**
 * Where a change moved the documents: `newOf` (position before -> position now, -1 gone), and,
 * worked out in the one pass over it (`movesOf`), the positions before of the documents gone and
 * the runs of documents that moved together (`[from, end, to]` a run: documents `[from, end)`
 * before, now at `to` onwards, in order). What a change does per document reads these, not `newOf`.
 */
export interface Moves {
  newOf: Int32Array;
  gone: number[];
  runs: number[];
}

/** `Moves` of `newOf`: one pass over it. */
export function movesOf(newOf: Int32Array): Moves {
  const gone: number[] = [];
  const runs: number[] = [];
  for (let j = 0; j < newOf.length; ) {
    if (newOf[j]! < 0) {
      gone.push(j++);
      continue;
    }
    let end = j + 1;
    while (end < newOf.length && newOf[end] === newOf[end - 1]! + 1) end++;
    runs.push(j, end, newOf[j]!);
    j = end;
  }
  return { newOf, gone, runs };
}

/**
 * Rows of `width` numbers a document (`from`, by position before) moved to the documents'
 * positions now in `to`, run by run (`Moves.runs`): the rows of gone documents are dropped,
 * those of added documents left as they are.
 */
export function moveRows(from: Float64Array, to: Float64Array, { runs }: Moves, width: number): void {
  for (let r = 0; r < runs.length; r += 3) to.set(from.subarray(runs[r]! * width, runs[r + 1]! * width), runs[r + 2]! * width);
}

/** The documents' field lengths now (4 a document, FIELDS order): those before (`oldLen`) moved, the `added` documents' own. */
export function lengthsAfter(oldLen: Float64Array, moves: Moves, docs: readonly Doc[], added: Iterable<number>): Float64Array {
  const len = new Float64Array(docs.length * 4);
  moveRows(oldLen, len, moves, 4);
  for (const i of added) {
    const l = docs[i]!.len;
    len[i * 4] = l.title;
    len[i * 4 + 1] = l.keys;
    len[i * 4 + 2] = l.anchors;
    len[i * 4 + 3] = l.body;
  }
  return len;
}

/**
 * The added documents' postings by term (`idOf` gives a term's id): per term, the documents'
 * positions and frequencies, `[position, packed frequencies, …]`, in document order (`added` is).
 */
export function addedPostings(docs: readonly Doc[], added: Iterable<number>, idOf: (term: string) => number): Map<number, number[]> {
  const extra = new Map<number, number[]>();
  for (const i of added) {
    const d = docs[i]!;
    for (let j = 0; j < d.terms.length; j++) {
      const id = idOf(d.terms[j]!);
      const list = extra.get(id) ?? extra.set(id, []).get(id)!;
      list.push(i, d.tfs[j]!);
    }
  }
  return extra;
}

/** No added document holds the term. */
export const NONE: readonly number[] = [];

// Two merges of one term's postings, one for each way a posting is read whole (with its
// frequency, its document alone), rather than one with branches: the first query after a write
// runs them over thousands of postings as soon as V8 compiles them, and each branch not yet taken
// when it did threw the compiled code away (six compilations of the one merge in a process's
// first five writes). The documents a pruned scoring marks are looked up, not merged
// (marked-postings.ts `termMarked`).

/**
 * One term's postings after a change, written into `out` from `at`: its earlier postings
 * `was.docs[from..to)` (frequencies `was.tf`) at their documents' positions now (`newOf`; -1,
 * gone, is dropped), with the added documents' (`more`, from `addedPostings`) merged in, in
 * document order. Returns the position after the last written.
 */
export function mergeTerm(
  out: { docs: Int32Array; tf: Float64Array },
  at: number,
  was: { docs: Int32Array; tf: Float64Array },
  from: number,
  to: number,
  newOf: Int32Array,
  more: readonly number[] = NONE,
): number {
  const { docs, tf } = out;
  let m = 0;
  for (let p = from; p < to; p++) {
    const i = newOf[was.docs[p]!]!;
    if (i < 0) continue;
    for (; m < more.length && more[m]! < i; m += 2, at++) {
      docs[at] = more[m]!;
      tf[at] = more[m + 1]!;
    }
    docs[at] = i;
    tf[at++] = was.tf[p]!;
  }
  for (; m < more.length; m += 2, at++) {
    docs[at] = more[m]!;
    tf[at] = more[m + 1]!;
  }
  return at;
}

/** `mergeTerm`'s documents alone, written into `docs` from 0 (no frequency read). */
export function mergeTermDocs(docs: Int32Array, was: { docs: Int32Array }, from: number, to: number, newOf: Int32Array, more: readonly number[] = NONE): void {
  let at = 0;
  let m = 0;
  for (let p = from; p < to; p++) {
    const i = newOf[was.docs[p]!]!;
    if (i < 0) continue;
    for (; m < more.length && more[m]! < i; m += 2) docs[at++] = more[m]!;
    docs[at++] = i;
  }
  for (; m < more.length; m += 2) docs[at++] = more[m]!;
}

export type Links = Pick<Index, 'decisions' | 'superseded' | 'decisionDocs'>;

/**
 * The decisions by slug and the superseded documents of `docs`, moved from `previous`'s to the
 * documents' positions now (`newOf`) with the `added` documents' own: the decisions a view of the
 * previous ones through `newOf` with the added ones over it (nothing copied per decision: a
 * write's first query does not wait for it; writing the index's file makes it a map again), the
 * superseded list moved. What `indexFrom` works out from every document. Undefined when two
 * decisions shared a slug before (which one a slug names would need every document).
 */
export function patchLinks(previous: Index, docs: readonly Doc[], { newOf, gone }: Moves, added: readonly number[]): Links | undefined {
  let decisionDocs = previous.decisionDocs;
  const base = previous.decisions;
  if (decisionDocs === undefined || decisionDocs !== base.size) return undefined;
  const extra = new Map<string, number>();
  const live = (slug: string) => extra.get(slug) ?? moved(base, newOf, slug);
  let size = base.size;
  for (const j of gone) {
    if (previous.docs[j]!.kind !== 'decision') continue;
    decisionDocs--;
    size--;
  }
  for (const i of added) {
    const d = docs[i]!;
    if (d.kind !== 'decision') continue;
    decisionDocs++;
    const now = live(d.slug);
    if (now === undefined) size++;
    // two decisions of one slug: the later document's, as a build over every document leaves it
    if (!((now ?? -1) > i)) extra.set(d.slug, i);
  }
  const superseded: number[] = [];
  for (const j of previous.superseded) if (newOf[j]! >= 0) superseded.push(newOf[j]!);
  for (const i of added) if (docs[i]!.supersededBy) superseded.push(i);
  superseded.sort((a, b) => a - b);
  return { decisions: new MovedDecisions(base, newOf, extra, size), superseded, decisionDocs };
}

/** `decisions` (by slug, at their positions before) seen through where their documents are now (`newOf`): what a write's `patchLinks` gives, so that every index a write can be laid over holds its decisions in one kind of object. */
export function decisionsAt(decisions: ReadonlyMap<string, number>, newOf: Int32Array): ReadonlyMap<string, number> {
  return new MovedDecisions(decisions, newOf, new Map(), decisions.size);
}

/** Where the decision `slug` of `base` is now (undefined when it is gone). */
function moved(base: ReadonlyMap<string, number>, newOf: Int32Array, slug: string): number | undefined {
  const j = base.get(slug);
  return j === undefined || newOf[j]! < 0 ? undefined : newOf[j]!;
}

/** The previous index's decisions by slug seen through where their documents are now, the added ones over them. */
class MovedDecisions implements ReadonlyMap<string, number> {
  constructor(
    private readonly base: ReadonlyMap<string, number>,
    private readonly newOf: Int32Array,
    private readonly extra: Map<string, number>,
    readonly size: number,
  ) {}
  get(slug: string): number | undefined {
    return this.extra.get(slug) ?? moved(this.base, this.newOf, slug);
  }
  has(slug: string): boolean {
    return this.get(slug) !== undefined;
  }
  *entries(): MapIterator<[string, number]> {
    for (const [slug, j] of this.base) if (!this.extra.has(slug) && this.newOf[j]! >= 0) yield [slug, this.newOf[j]!];
    yield* this.extra;
  }
  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }
  *keys(): MapIterator<string> {
    for (const [slug] of this.entries()) yield slug;
  }
  *values(): MapIterator<number> {
    for (const [, at] of this.entries()) yield at;
  }
  forEach(f: (value: number, key: string, map: ReadonlyMap<string, number>) => void): void {
    for (const [slug, at] of this.entries()) f(at, slug, this);
  }
}
