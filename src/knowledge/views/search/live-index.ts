import { isWord } from './analyze.ts';
import { fieldTotals, gainsFromLengths, meansOf } from './fields.ts';
import { FileVocabulary, sortedOrder } from './file-vocabulary.ts';
import type { Delta, Doc, Index, Postings, TermIds } from './index-shape.ts';
import { baseRange, type TermPostings, termMarked } from './marked-postings.ts';
import {
  addedPostings,
  countsOf,
  countTerms,
  decisionsAt,
  type FreshTerms,
  flatOf,
  lengthsAfter,
  type Moves,
  mergeTerm,
  mergeTermDocs,
} from './patch-postings.ts';

/** Past this share of the documents changed since the base, the postings are laid out flat again (a delta costs every query that reads it). */
const DELTA_SHARE = 1 / 8;

/**
 * The postings of `docs` as the previous index's (`previous`) with a write's changes laid over
 * them, touching no posting: `moves` says where each of `previous`'s documents is now (`Moves.newOf`, -1: gone),
 * `added` the positions of the documents new since. The base stays the flat postings of the last
 * index laid out (a build's, a file's, a compaction's); each term's count is kept up to date from
 * the changed documents' terms, and a term's postings (base documents moved to their positions
 * now, the added ones merged in, each gain worked out from its frequencies, its document's lengths
 * and the fields' mean lengths of now)
 * are made when a query first reads the term. The result ranks as a build of `docs` (the gains
 * are `gainOf` of the same frequencies and norms, the postings in document order, a term no
 * document holds hidden). Undefined when the previous postings kept no frequencies, or more
 * than a share of the documents changed since the base: a layout of every posting is then due.
 */
export function layOver(
  previous: Index,
  docs: readonly Doc[],
  moves: Moves,
  added: readonly number[],
): { postings: Postings; delta: Delta; tables: Pick<Index, 'sorted' | 'byLength'> } | undefined {
  // a flat base (a build's, a patch's) seen as a delta of nothing changed: one way of laying a write over, whatever the index was
  const before = previous.delta ?? unchangedDelta(previous.postings, previous.docs.length);
  if (!before) return undefined;
  const { base } = before;
  const { newOf } = moves;
  let baseNewOf: Int32Array;
  const keptAdded: number[] = [];
  // the base documents gone: this write's, or, over a delta, every write's since the base (counted as they are moved)
  let removed = 0;
  if (before.exact) {
    // nothing moved since the base: where a base document is now is where this write put it
    baseNewOf = newOf;
    removed = moves.gone.length;
  } else {
    baseNewOf = new Int32Array(before.newOf.length);
    removed = composeMoves(before.newOf, newOf, baseNewOf);
    for (const at of before.added) if (newOf[at]! >= 0) keptAdded.push(newOf[at]!);
  }
  if (removed + keptAdded.length + added.length > Math.max(16, docs.length * DELTA_SHARE)) return undefined;
  const fresh: FreshTerms = { first: base.terms, terms: [...before.fresh], ids: new Map(before.freshIds) };

  // each term's count: less the gone documents' terms, plus the new ones'
  const counted = countTerms(Int32Array.from(before.df), previous.docs, moves, docs, added, base.ids, fresh);
  const len = lengthsAfter(before.len, moves, docs, added);
  const all = Int32Array.from([...keptAdded, ...added]).sort();
  const totals = totalsAfter(before.totals, before.len, len, moves.gone, added);
  // the fields' means alone: a posting's norms are worked out when a query reads it (termOf)
  const delta = new LiveDelta(base, baseNewOf, all, fresh, counted.df, len, totals, removed, Math.min(before.unmoved, unmovedUpTo(moves)), false);
  return { postings: new LivePostings(delta, docs), delta, tables: carryTermTables(previous, counted.died, counted.born) };
}

/**
 * A delta's fields in one order, whatever made it (`layOver`, `readAsLive`): a class, not an
 * object literal, so that its shape is its own (a literal's is shared with every other literal of
 * the same first fields, and changes with theirs), and the code a warm query compiled does not
 * meet another after a write (V8 throws compiled code away when an object it relied on changes shape).
 */
class LiveDelta implements Delta {
  fresh: string[];
  freshIds: Map<string, number>;
  means: Float64Array;
  constructor(
    public base: Delta['base'],
    public newOf: Int32Array,
    public added: Int32Array,
    fresh: FreshTerms,
    public df: Int32Array,
    public len: Float64Array,
    public totals: Float64Array,
    public removed: number,
    public unmoved: number,
    public exact: boolean,
  ) {
    this.fresh = fresh.terms;
    this.freshIds = fresh.ids;
    this.means = meansOf(totals, len.length / 4);
  }
}

/** A delta's base (`Delta.base`): a class of its own, as `LiveDelta`. */
class DeltaBase implements Readonly<Delta['base']> {
  constructor(
    readonly ids: TermIds,
    readonly start: Int32Array,
    readonly docs: Int32Array,
    readonly tf: Float64Array,
    readonly gain: Float64Array,
    readonly terms: number,
  ) {}
}

/** Flat postings that keep their frequencies and lengths (`n` documents) as a delta of nothing changed, or undefined when they keep none. */
function unchangedDelta(p: Postings, n: number): Delta | undefined {
  if (!p.tf || !p.len || p.read || p.tf.length !== p.docs.length || p.len.length !== 4 * n) return undefined;
  const terms = p.start.length - 1;
  const base = new DeltaBase(p.ids, p.start, p.docs, p.tf, p.gain, terms);
  const same = new Int32Array(n);
  for (let i = 0; i < n; i++) same[i] = i;
  const fresh: FreshTerms = { first: terms, terms: [], ids: new Map() };
  return new LiveDelta(base, same, new Int32Array(0), fresh, countsOf(p.start), p.len, p.totals ?? fieldTotals(p.len), 0, n, true);
}

/**
 * `index` read through a delta of nothing changed over the flat postings `flat` (an index file's,
 * or a delta laid out flat after a write): its postings, its delta and its decisions by slug made
 * what they are in an index a write was laid over (`LivePostings`, `LiveDelta`, patch-postings.ts
 * `decisionsAt`), so that a query reads the one as the other — the same objects' shapes, the same
 * code — and the next write is laid over them without a pass over every document (the counts of
 * terms and the fields' totals are worked out here, once). False, `index` left as it was, when
 * `flat` keeps no frequencies.
 */
export function readAsLive(index: Index, flat: Postings): boolean {
  const delta = unchangedDelta(flat, index.docs.length);
  if (!delta) return false;
  index.postings = new LivePostings(delta, index.docs);
  index.delta = delta;
  index.decisions = decisionsAt(index.decisions instanceof Map ? index.decisions : new Map(index.decisions), delta.newOf);
  return true;
}

/**
 * Where each base document is after this write (`out`): where it was before it (`was`, -1 gone)
 * taken through where this write moved that (`newOf`); how many are gone. A function of its own,
 * the one loop over every base document a write runs, so that V8 compiles it alone and at once.
 */
function composeMoves(was: Int32Array, newOf: Int32Array, out: Int32Array): number {
  let gone = 0;
  for (let b = 0; b < was.length; b++) {
    const now = was[b]! < 0 ? -1 : newOf[was[b]!]!;
    out[b] = now;
    if (now < 0) gone++;
  }
  return gone;
}

/** How many of the first documents a change left where they were (`Moves.runs`: a first run from 0 to 0). */
const unmovedUpTo = ({ runs }: Moves) => (runs.length && runs[0] === 0 && runs[2] === 0 ? runs[1]! : 0);

/**
 * The fields' total lengths of the documents now (`len`), from those of before (`totals`, of
 * `oldLen`) less the gone documents' and plus the added ones': no pass over every document. Sums
 * of whole numbers: the same as adding up `len`.
 */
function totalsAfter(was: Float64Array, oldLen: Float64Array, len: Float64Array, gone: readonly number[], added: readonly number[]): Float64Array {
  const totals = Float64Array.from(was);
  for (const j of gone) for (let f = 0; f < 4; f++) totals[f]! -= oldLen[j * 4 + f]!;
  for (const i of added) for (let f = 0; f < 4; f++) totals[f]! += len[i * 4 + f]!;
  return totals;
}

const NO_DOCS = new Int32Array(0);
const NO_GAINS = new Float64Array(0);

/**
 * The postings a delta stands for: a term's worked out when first read whole (`termOf`), kept for
 * the next queries. Read for the documents a pruned scoring marks (`only`), only theirs are
 * looked up and worked out (`termMarked`), and not kept: a common term's thousands of postings
 * are neither walked nor merged, nor their gains worked out, for the hundred or so documents
 * scored. Counting the matches reads the documents alone (`docsOf`). A class, its reads methods:
 * every index's postings one shape, and one function called, whichever index a query reads.
 */
class LivePostings implements Postings {
  readonly ids: LiveTerms;
  readonly start = NO_DOCS;
  readonly docs = NO_DOCS;
  readonly gain = NO_GAINS;
  readonly df: Int32Array;
  readonly #delta: Delta;
  readonly #extra: Map<number, number[]>;
  readonly #made = new Map<number, TermPostings>();
  readonly #size: number;
  /** where each document now was in the base (-1: added since), worked out when a marked read first needs it */
  #baseOf: Int32Array | undefined;
  constructor(delta: Delta, docs: readonly Doc[]) {
    const { base, freshIds } = delta;
    this.ids = new LiveTerms(delta);
    this.df = delta.df;
    this.#delta = delta;
    this.#size = docs.length;
    this.#extra = addedPostings(docs, delta.added, (t) => base.ids.get(t) ?? freshIds.get(t)!);
  }
  read(id: number, only?: Uint8Array): TermPostings {
    const made = this.#made.get(id);
    if (made) return made;
    if (only && !this.#delta.exact) return termMarked(this.#delta, this.#extra, id, only, () => this.#whereInBase());
    const whole = termOf(this.#delta, this.#extra, id);
    this.#made.set(id, whole);
    return whole;
  }
  #whereInBase(): Int32Array {
    if (!this.#baseOf) {
      const baseOf = new Int32Array(this.#size).fill(-1);
      const { newOf } = this.#delta;
      for (let b = 0; b < newOf.length; b++) if (newOf[b]! >= 0) baseOf[newOf[b]!] = b;
      this.#baseOf = baseOf;
    }
    return this.#baseOf;
  }
  docsOf(id: number): Int32Array {
    return this.#made.get(id)?.docs ?? termDocsOf(this.#delta, this.#extra, id);
  }
}

/**
 * Term `id`'s postings now: its base documents at their positions now and the added ones, in
 * document order, each with its gain (worked out from its frequencies, its document's lengths
 * and the fields' means).
 */
function termOf(delta: Delta, extra: Map<number, number[]>, id: number): TermPostings {
  const { base, newOf, len, means } = delta;
  const count = delta.df[id]!;
  const [from, to] = baseRange(delta, id);
  // nothing changed since the base: its postings and gains as they are
  if (delta.exact) return { docs: base.docs.subarray(from, to), gain: base.gain.subarray(from, to), tf: base.tf.subarray(from, to) };
  if (unmoved(delta, extra, id, from, to)) {
    const docs = base.docs.subarray(from, to);
    const tf = base.tf.subarray(from, to);
    return { docs, gain: gainsFromLengths(tf, docs, count, len, means), tf };
  }
  const docs = new Int32Array(count);
  const tf = new Float64Array(count);
  const at = mergeTerm({ docs, tf }, 0, base, from, to, newOf, extra.get(id));
  if (at !== count) throw new Error(`search index: term ${id} has ${at} postings where ${count} were counted`);
  return { docs, gain: gainsFromLengths(tf, docs, count, len, means), tf };
}

/** Term `id`'s documents now, in document order: `termOf`'s without a frequency read or a gain worked out. */
function termDocsOf(delta: Delta, extra: Map<number, number[]>, id: number): Int32Array {
  const [from, to] = baseRange(delta, id);
  if (delta.exact || unmoved(delta, extra, id, from, to)) return delta.base.docs.subarray(from, to);
  const docs = new Int32Array(delta.df[id]!);
  mergeTermDocs(docs, delta.base, from, to, delta.newOf, extra.get(id));
  return docs;
}

/**
 * True when term `id`'s postings are its base postings (`[from, to)`) as they are: all of its
 * documents are where they were (before `Delta.unmoved`) and no added document holds it — most
 * terms of the items before a write's (a new item sorts last of its kind). Nothing is merged.
 */
const unmoved = (delta: Delta, extra: Map<number, number[]>, id: number, from: number, to: number) =>
  to > from && delta.base.docs[to - 1]! < delta.unmoved && !extra.has(id);

/** `index`'s postings laid out flat (what is written to disk): its own when they are (patch-postings.ts `flatOf`), else `compactPostings`. */
export const flatPostings = (index: Index): Postings => flatOf(index) ?? compactPostings(index);

/**
 * The postings of an index with a delta (`layOver`) laid out flat, as a build of its documents
 * gives them (term ids aside): every term some document holds, numbered anew, with each
 * posting's frequencies and gain, and the field lengths. What is written to disk, and the next
 * base.
 */
function compactPostings(index: Index): Postings {
  const delta = index.delta!;
  const { postings } = index;
  const live = postings.ids as LiveTerms;
  // the terms some document holds, numbered anew in their order: looked up in their sorted order, as in a file read back
  const vocab: string[] = [];
  const old: number[] = [];
  for (const [t, id] of live) {
    vocab.push(t);
    old.push(id);
  }
  const start = new Int32Array(old.length + 1);
  for (let k = 0; k < old.length; k++) start[k + 1] = start[k]! + delta.df[old[k]!]!;
  const docs = new Int32Array(start[old.length]!);
  const gain = new Float64Array(docs.length);
  const tf = new Float64Array(docs.length);
  for (let k = 0; k < old.length; k++) {
    const t = postings.read!(old[k]!) as TermPostings;
    docs.set(t.docs, start[k]!);
    gain.set(t.gain, start[k]!);
    tf.set(t.tf, start[k]!);
  }
  return { ids: new FileVocabulary(vocab, sortedOrder(vocab)), start, docs, gain, tf, len: delta.len, totals: delta.totals };
}

/** A delta's terms: the base's and the fresh ones, those no document holds any more hidden. */
class LiveTerms implements TermIds {
  readonly startingWith?: (prefix: string) => string[];
  #size: number | undefined;
  constructor(private readonly delta: Delta) {
    const within = delta.base.ids.startingWith?.bind(delta.base.ids);
    if (within) {
      this.startingWith = (prefix) => {
        const out = within(prefix).filter((t) => this.has(t));
        for (const t of delta.fresh) if (t.startsWith(prefix) && isWord(t) && this.has(t)) out.push(t);
        return out.sort();
      };
    }
  }
  /** how many terms some document holds: counted when first asked (writing the index's file does; a query does not) */
  get size(): number {
    if (this.#size === undefined) {
      const { base, fresh, df } = this.delta;
      let size = 0;
      for (let id = 0; id < base.terms + fresh.length; id++) if (df[id]! > 0) size++;
      this.#size = size;
    }
    return this.#size;
  }
  get(term: string): number | undefined {
    const id = this.delta.base.ids.get(term) ?? this.delta.freshIds.get(term);
    return id !== undefined && this.delta.df[id]! > 0 ? id : undefined;
  }
  has(term: string): boolean {
    return this.get(term) !== undefined;
  }
  *[Symbol.iterator](): Iterator<[string, number]> {
    const { base, fresh, df } = this.delta;
    for (const [t, id] of base.ids) if (df[id]! > 0) yield [t, id];
    for (let j = 0; j < fresh.length; j++) if (df[base.terms + j]! > 0) yield [fresh[j]!, base.terms + j];
  }
  *keys(): Iterable<string> {
    for (const [t] of this) yield t;
  }
}

/**
 * The previous index's tables of terms for prefix and typo look-ups (sorted, by length), with
 * the terms no document holds any more (`died`) taken out and the new ones (`born`) put in: a
 * query after a write does not sort the vocabulary again. Left for the first query to make when
 * the previous index had none.
 */
function carryTermTables(previous: Index, died: ReadonlySet<string>, born: ReadonlySet<string>): Pick<Index, 'sorted' | 'byLength'> {
  const words = (s: ReadonlySet<string>) => [...s].filter(isWord);
  const gone = new Set(words(died));
  const come = words(born).sort();
  const target: Pick<Index, 'sorted' | 'byLength'> = {};
  if (previous.sorted) {
    let sorted = gone.size ? previous.sorted.filter((t) => !gone.has(t)) : previous.sorted;
    if (come.length) sorted = mergeSorted(sorted, come);
    target.sorted = sorted;
  }
  if (previous.byLength) {
    let byLength = previous.byLength;
    if (gone.size || come.length) {
      byLength = new Map(byLength);
      const touched = new Set([...gone, ...come].map((t) => t.length));
      for (const l of touched)
        byLength.set(
          l,
          (byLength.get(l) ?? []).filter((t) => !gone.has(t)),
        );
      for (const t of come) byLength.get(t.length)!.push(t);
    }
    target.byLength = byLength;
  }
  return target;
}

/** Two sorted lists as one. */
function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) out.push(j >= b.length || (i < a.length && a[i]! < b[j]!) ? a[i++]! : b[j++]!);
  return out;
}
