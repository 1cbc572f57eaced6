import { gainsFromLengths } from './fields.ts';
import type { Delta } from './index-shape.ts';
import { NONE } from './patch-postings.ts';

// A delta's postings of one term for the documents a pruned scoring marks (live-index.ts
// `LivePostings.read`): looked up, not walked.

/** One term's postings: its documents, their gains and their frequencies (packTf). */
export interface TermPostings {
  docs: Int32Array;
  gain: Float64Array;
  tf: Float64Array;
}

/** Postings a marked read makes room for at first: about the documents a pruned scoring marks of a common word. */
const FIRST_ROOM = 128;

/** `to` with `from` copied to its start. */
function copiedInto<A extends Int32Array | Float64Array>(from: A, to: A): A {
  to.set(from);
  return to;
}

/** Where term `id`'s base postings are: `[from, to)` in the base's arrays (empty for a fresh term). */
export const baseRange = (delta: Delta, id: number): [number, number] => (id < delta.base.terms ? [delta.base.start[id]!, delta.base.start[id + 1]!] : [0, 0]);

/**
 * The postings of term `id` (live-index.ts `termOf`'s) of just the documents `only` marks (1):
 * each marked document, in order (found by the typed array's own search, not a loop over every
 * document), looked up in the term's base postings (where it was in the base: itself before
 * `Delta.unmoved`, else `baseOf()`) or among the added ones' (`extra`), and only those found
 * given a gain. The base postings are searched forward (`locate`), not walked: a common word's
 * thousands of postings cost a few reads per marked document. The same documents, order,
 * frequencies and gains as `termOf`'s restricted to them.
 */
export function termMarked(delta: Delta, extra: Map<number, number[]>, id: number, only: Uint8Array, baseOf: () => Int32Array): TermPostings {
  const { base, unmoved } = delta;
  const [from, to] = baseRange(delta, id);
  const more = extra.get(id) ?? NONE;
  const room = delta.df[id]!;
  // sized to what is found, not to the term's documents (a common word's ten thousand): doubled when full
  let docs = new Int32Array(Math.min(room, FIRST_ROOM));
  let tf = new Float64Array(docs.length);
  let at = 0;
  let p = from;
  let m = 0;
  let where: Int32Array | undefined;
  for (let d = only.indexOf(1); d >= 0 && at < room; d = only.indexOf(1, d + 1)) {
    // a document added since the base (most often the last ones) is found among them without working out `baseOf`
    const b = d < unmoved ? d : locate(delta.added, 0, delta.added.length, d) >= 0 ? -1 : (where ??= baseOf())[d]!;
    let f: number;
    if (b < 0) {
      // added since the base: among the added documents' postings of the term (by position now)
      while (m < more.length && more[m]! < d) m += 2;
      if (m >= more.length || more[m] !== d) continue;
      f = more[m + 1]!;
    } else {
      const found = locate(base.docs, p, to, b);
      if (found < 0) {
        p = -1 - found;
        continue;
      }
      f = base.tf[found]!;
      p = found + 1;
    }
    if (at === docs.length) {
      const size = Math.min(room, 2 * at);
      docs = copiedInto(docs, new Int32Array(size));
      tf = copiedInto(tf, new Float64Array(size));
    }
    docs[at] = d;
    tf[at++] = f;
  }
  const gain = gainsFromLengths(tf, docs, at, delta.len, delta.means);
  return { docs: docs.subarray(0, at), gain, tf: tf.subarray(0, at) };
}

/**
 * Where `x` is in `a[lo..hi)` (document positions, strictly ascending), or, when it is not there,
 * `-1 - p` with `p` the first position past it. As each posting is at least one more than the one
 * before, `x` is no further from `lo` than its distance in value: found with two reads where every
 * document holds the term, else by halving that stretch.
 */
export function locate(a: Int32Array, lo: number, hi: number, x: number): number {
  if (lo >= hi) return -1 - lo;
  const first = a[lo]!;
  if (first >= x) return first === x ? lo : -1 - lo;
  let end = Math.min(hi, lo + (x - first) + 1);
  const last = a[end - 1]!;
  if (last === x) return end - 1;
  if (last < x) return -1 - end;
  lo++;
  end--;
  while (lo < end) {
    const mid = (lo + end) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else end = mid;
  }
  return a[lo] === x ? lo : -1 - lo;
}
