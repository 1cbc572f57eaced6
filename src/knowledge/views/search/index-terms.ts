import { isWord } from './analyze.ts';
import type { Index, Postings } from './index-shape.ts';

// What a query asks of an index's terms: their postings, how many documents hold them, the terms
// that start like a word or are spelt near it. Read at the tip as in memory (rank.ts, hits.ts).

/**
 * Term `id`'s postings: `docs[from..to)` and `gain[from..to)`, from memory or read from the file.
 * Given `only`, postings of documents it does not mark (0) may be left out (`Postings.read`).
 */
export function termPostings(p: Postings, id: number, only?: Uint8Array): { docs: Int32Array; gain: Float64Array; from: number; to: number } {
  if (p.read) {
    const { docs, gain } = p.read(id, only);
    return { docs, gain, from: 0, to: docs.length };
  }
  return { docs: p.docs, gain: p.gain, from: p.start[id]!, to: p.start[id + 1]! };
}

/** The documents holding term `id`: `docs[from..to)`, without working out a gain where the postings are a base and a delta. */
export function termDocs(p: Postings, id: number): { docs: Int32Array; from: number; to: number } {
  if (p.docsOf) {
    const docs = p.docsOf(id);
    return { docs, from: 0, to: docs.length };
  }
  return termPostings(p, id);
}

/** The index's terms without digits (names such as `v11`, not words) that start with `prefix`, in sorted order. */
export function termsStartingWith(index: Index, prefix: string): string[] {
  const sorted = (index.sorted ??= [...index.postings.ids.keys()].filter(isWord).sort());
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < sorted.length && sorted[i]!.startsWith(prefix); i++) out.push(sorted[i]!);
  return out;
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`, or `max + 1` once more than `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      if (d < least) least = d;
    }
    if (least > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** The index's terms without digits at the fewest edits from `term` (1 to `max`), and that number; none when all are further. */
export function termsNear(index: Index, term: string, max: number): { terms: string[]; edits: number } {
  if (!index.byLength) {
    index.byLength = new Map();
    for (const t of index.postings.ids.keys()) if (isWord(t)) (index.byLength.get(t.length) ?? index.byLength.set(t.length, []).get(t.length)!).push(t);
  }
  let best: string[] = [];
  let edits = max + 1;
  for (let l = term.length - max; l <= term.length + max; l++) {
    for (const t of index.byLength.get(l) ?? []) {
      const d = editDistance(term, t, Math.min(max, edits));
      if (d < edits) [best, edits] = [[t], d];
      else if (d === edits && d <= max) best.push(t);
    }
  }
  // sorted: the same alternatives in the same order whatever order the index gave its terms ids in (a build's, a patch's)
  return edits <= max ? { terms: best.sort(), edits } : { terms: [], edits: 0 };
}

/** How many documents hold `term` (0 when none does). */
export function docFreq(p: Postings, term: string): number {
  const id = p.ids.get(term);
  return id === undefined ? 0 : termCount(p, id);
}

/** How many documents hold term `id`. */
export const termCount = (p: Postings, id: number): number => (p.df ? p.df[id]! : p.start[id + 1]! - p.start[id]!);
