import { fieldNorms, gainOf } from './fields.ts';
import type { Doc, Index, Postings } from './index-shape.ts';

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
  const old = previous.postings;
  const oldTf = old.tf;
  const oldLen = old.len;
  if (!oldTf || !oldLen || old.read) return undefined;
  const before = previous.docs;
  const where = new Map<Doc, number>();
  for (let j = 0; j < before.length; j++) where.set(before[j]!, j);
  // old position -> new (-1: removed), new position -> old (-1: added)
  const newOf = new Int32Array(before.length).fill(-1);
  const oldOf = new Int32Array(docs.length).fill(-1);
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
    oldOf[i] = j;
    last = j;
  }
  const removed = before.length - (docs.length - added.length);
  if (added.length + removed > Math.max(16, docs.length * PATCH_SHARE)) return undefined;

  // each term's documents from now on: the old count, less the removed documents', plus the added ones'
  const oldTerms = old.start.length - 1;
  const df = new Int32Array(oldTerms);
  for (let id = 0; id < oldTerms; id++) df[id] = old.start[id + 1]! - old.start[id]!;
  for (let j = 0; j < before.length; j++) {
    if (newOf[j]! >= 0) continue;
    for (const t of before[j]!.terms) df[old.ids.get(t)!]!--;
  }
  const fresh: string[] = [];
  const freshDf = new Map<string, number>();
  for (const i of added) {
    for (const t of docs[i]!.terms) {
      const id = old.ids.get(t);
      if (id !== undefined) df[id]!++;
      else if (freshDf.has(t)) freshDf.set(t, freshDf.get(t)! + 1);
      else {
        freshDf.set(t, 1);
        fresh.push(t);
      }
    }
  }

  // the terms some document still holds keep their order; the new ones follow
  const ids = new Map<string, number>();
  const remap = new Int32Array(oldTerms).fill(-1);
  let count = 0;
  for (const [t, id] of old.ids) if (df[id]! > 0) ids.set(t, (remap[id] = count++));
  for (const t of fresh) ids.set(t, count++);
  const start = new Int32Array(count + 1);
  for (let id = 0; id < oldTerms; id++) if (remap[id]! >= 0) start[remap[id]! + 1] = df[id]!;
  fresh.forEach((t, j) => (start[count - fresh.length + j + 1] = freshDf.get(t)!));
  for (let k = 0; k < count; k++) start[k + 1]! += start[k]!;

  const extra = addedPostings(docs, added, (t) => ids.get(t)!);

  const out = new Int32Array(start[count]!);
  const tf = new Float64Array(out.length);
  const was = { docs: old.docs, tf: oldTf };
  const fill = (k: number, from: number, to: number) => mergeTerm({ docs: out, tf }, start[k]!, was, from, to, newOf, extra.get(k));
  for (let id = 0; id < oldTerms; id++) if (remap[id]! >= 0) fill(remap[id]!, old.start[id]!, old.start[id + 1]!);
  for (let k = count - fresh.length; k < count; k++) fill(k, 0, 0);

  // the norms depend on every document's lengths: worked out again, then every gain from its frequencies
  const len = new Float64Array(docs.length * 4);
  for (let i = 0; i < docs.length; i++) {
    const j = oldOf[i]!;
    if (j >= 0) len.set(oldLen.subarray(j * 4, j * 4 + 4), i * 4);
    else {
      const l = docs[i]!.len;
      len[i * 4] = l.title;
      len[i * 4 + 1] = l.keys;
      len[i * 4 + 2] = l.anchors;
      len[i * 4 + 3] = l.body;
    }
  }
  const norms = fieldNorms(len);
  const gain = new Float64Array(out.length);
  for (let p = 0; p < out.length; p++) gain[p] = gainOf(tf[p]!, norms, out[p]!);
  return { postings: { ids, start, docs: out, gain, tf, len }, links: patchLinks(previous, docs, newOf, added) };
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

/**
 * One term's postings after a change, written into `out` from `at`: its earlier postings
 * `was.docs[from..to)` (frequencies `was.tf`) at their documents' positions now (`newOf`; -1,
 * gone, is dropped), with the added documents' (`more`, from `addedPostings`) merged in, in
 * document order. Without `out.tf`, the documents alone (no frequency read); given `only`, just
 * the documents it marks (1). Returns the position after the last written.
 */
export function mergeTerm(
  out: { docs: Int32Array; tf?: Float64Array | undefined },
  at: number,
  was: { docs: Int32Array; tf: Float64Array },
  from: number,
  to: number,
  newOf: Int32Array,
  more: readonly number[] | undefined,
  only?: Uint8Array,
): number {
  const { docs, tf } = out;
  let m = 0;
  const addedUpTo = (end: number) => {
    for (; more && m < more.length && more[m]! < end; m += 2) {
      if (only && only[more[m]!] === 0) continue;
      docs[at] = more[m]!;
      if (tf) tf[at] = more[m + 1]!;
      at++;
    }
  };
  for (let p = from; p < to; p++) {
    const i = newOf[was.docs[p]!]!;
    if (i < 0 || (only && only[i] === 0)) continue;
    addedUpTo(i);
    docs[at] = i;
    if (tf) tf[at] = was.tf[p]!;
    at++;
  }
  addedUpTo(Number.POSITIVE_INFINITY);
  return at;
}

export type Links = Pick<Index, 'decisions' | 'superseded' | 'decisionDocs'>;

/**
 * The decisions by slug and the superseded documents, moved to the documents' new positions
 * (`newOf`) with the `added` documents' own: what `indexFrom` works out from every document. Only
 * when no two decisions shared a slug before (which of them a slug names would need every
 * document); undefined then.
 */
export function patchLinks(previous: Index, docs: readonly Doc[], newOf: Int32Array, added: readonly number[]): Links | undefined {
  let decisionDocs = previous.decisionDocs;
  if (decisionDocs === undefined || decisionDocs !== previous.decisions.size) return undefined;
  for (let j = 0; j < newOf.length; j++) if (newOf[j]! < 0 && previous.docs[j]!.kind === 'decision') decisionDocs--;
  const decisions = new Map<string, number>();
  for (const [slug, j] of previous.decisions) if (newOf[j]! >= 0) decisions.set(slug, newOf[j]!);
  const superseded: number[] = [];
  for (const j of previous.superseded) if (newOf[j]! >= 0) superseded.push(newOf[j]!);
  for (const i of added) {
    const d = docs[i]!;
    if (d.kind === 'decision') {
      decisionDocs++;
      // two decisions of one slug: the later document's, as a build over every document leaves it
      if (!((decisions.get(d.slug) ?? -1) > i)) decisions.set(d.slug, i);
    }
    if (d.supersededBy) superseded.push(i);
  }
  superseded.sort((a, b) => a - b);
  return { decisions, superseded, decisionDocs };
}
