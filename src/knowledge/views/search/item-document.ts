import { createHash } from 'node:crypto';
import type { KindName } from '../../../model/kind.ts';
import { termsInto } from './analyze.ts';
import { definedNames } from './defined-names.ts';
import { FIELDS, type Field, packCounts } from './fields.ts';
import type { Doc } from './index-shape.ts';

// One item's search document: what it is made from (`Source`), its terms counted by field
// (`docOf`), and its print (whether an older document can stand for the item).

/** One item as search reads it, before tokenizing: its kind, title, path, text by field and marks (sources.ts makes them from a state). */
export interface Source {
  kind: KindName;
  item: { id?: string | undefined; slug: string; status?: string; created: string };
  title: string;
  /** its path in the memory tree */
  path: string;
  parts: Record<Field, readonly string[]>;
  current: boolean;
  store?: string | null | undefined;
  supersededBy?: string | undefined;
}

/** A document's marks from its source: what a stored document takes from the item rather than from the disk. */
export function metaOf(
  src: Source,
): Pick<Doc, 'kind' | 'id' | 'slug' | 'title' | 'status' | 'path' | 'current' | 'revoked' | 'parts' | 'supersededBy' | 'store'> {
  const status = src.item.status ?? '';
  const m: ReturnType<typeof metaOf> = {
    kind: src.kind,
    id: src.item.id ?? null,
    slug: src.item.slug,
    title: src.title,
    status,
    path: src.path,
    current: src.current,
    revoked: status === 'revoked',
    parts: src.parts,
  };
  if (src.supersededBy) m.supersededBy = src.supersededBy;
  if (src.store) m.store = src.store;
  return m;
}

/** Counting space reused from one document to the next within a build. */
export interface Counter {
  /** term -> its position in the document's `terms` */
  slot: Map<string, number>;
  /** four counts (FIELDS order) a distinct term */
  counts: Int32Array;
  /** the words of the field being read, and its identifiers' whole terms and its words' terms as written */
  tokens: string[];
  wholes: string[];
  /** the title's and the body's words as slots, with `GAP` between texts */
  near: number[];
}

/** Fresh counting space for `docOf`. */
export const newCounter = (): Counter => ({ slot: new Map(), counts: new Int32Array(256), tokens: [], wholes: [], near: [] });

/** In `Doc.near`: the end of one text (no two words across it stand together), or a slot past the last kept. */
export const GAP = 0xffff;
/** At most this many words of a document are kept for proximity. */
const NEAR_MAX = 4000;

/** Where the keywords' field is in FIELDS. */
const KEYS = FIELDS.indexOf('keys');

/**
 * The document of `src`: its text tokenized into terms, counted by field, and its words' order for
 * proximity; the identifiers its body defines (`definedNames`) counted among its keywords too.
 */
export function docOf(counter: Counter, src: Source): Doc {
  const { parts } = src;
  const { slot, tokens, wholes, near } = counter;
  slot.clear();
  near.length = 0;
  let titleEnd = 0;
  const terms: string[] = [];
  const len = { title: 0, keys: 0, anchors: 0, body: 0 };
  const slotOf = (t: string, f: number) => {
    let s = slot.get(t);
    if (s === undefined) {
      s = terms.length;
      slot.set(t, s);
      terms.push(t);
      if (counter.counts.length < 4 * terms.length) {
        const grown = new Int32Array(counter.counts.length * 2);
        grown.set(counter.counts);
        counter.counts = grown;
      }
      counter.counts.fill(0, 4 * s, 4 * s + 4);
    }
    counter.counts[4 * s + f]!++;
    return s;
  };
  for (let f = 0; f < FIELDS.length; f++) {
    const field = FIELDS[f]!;
    const positional = field === 'title' || field === 'body';
    for (const text of parts[field]) {
      tokens.length = 0;
      wholes.length = 0;
      termsInto(text, tokens, wholes, undefined, wholes);
      len[field] += tokens.length;
      for (const t of tokens) {
        const s = slotOf(t, f);
        if (positional && near.length < NEAR_MAX) near.push(Math.min(s, GAP - 1));
      }
      for (const t of wholes) slotOf(t, f);
      if (positional && near.length < NEAR_MAX) near.push(GAP);
    }
    if (field === 'title') titleEnd = near.length;
  }
  // the identifiers the body defines (a sub-heading, a table row's first cell, a settings entry…): keywords of the item
  const defined = new Set<string>();
  for (const text of parts.body) for (const name of definedNames(text)) defined.add(name);
  for (const name of defined) {
    tokens.length = 0;
    wholes.length = 0;
    termsInto(name, tokens, wholes, undefined, wholes);
    len.keys += tokens.length;
    for (const t of tokens) slotOf(t, KEYS);
    for (const t of wholes) slotOf(t, KEYS);
  }
  const tfs = new Float64Array(terms.length);
  const c = counter.counts;
  for (let s = 0; s < terms.length; s++) tfs[s] = packCounts(c[4 * s]!, c[4 * s + 1]!, c[4 * s + 2]!, c[4 * s + 3]!);
  return { ...metaOf(src), terms, tfs, len, near: Uint16Array.from(near), titleEnd };
}

/** True when two lists hold the same strings in the same order. */
export const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** True when `old` was made from the same text and marks as the item would give now: it can stand for the item. */
export function sameSource(old: Doc, src: Source): boolean {
  if (old.print !== undefined) return old.print === printOf(metaOf(src));
  const { item, title, parts, current, store, supersededBy } = src;
  return (
    old.id === (item.id ?? null) &&
    old.slug === item.slug &&
    old.title === title &&
    old.status === (item.status ?? '') &&
    old.current === current &&
    (old.store ?? null) === (store ?? null) &&
    old.supersededBy === (supersededBy || undefined) &&
    FIELDS.every((f) => sameList(old.parts[f], parts[f]))
  );
}

/** A digest of what a document is made from (its marks and text): equal prints, the same document. */
export function printOf(d: Pick<Doc, 'kind' | 'id' | 'slug' | 'title' | 'status' | 'path' | 'current' | 'parts' | 'supersededBy' | 'store'>): string {
  const text = JSON.stringify([
    d.kind,
    d.id,
    d.slug,
    d.title,
    d.status,
    d.path,
    d.current,
    d.store ?? null,
    d.supersededBy ?? null,
    FIELDS.map((f) => d.parts[f]),
  ]);
  return createHash('sha1').update(text).digest('base64');
}
