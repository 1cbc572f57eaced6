import { createHash } from 'node:crypto';
import type { KindName } from '../../../model/kind.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { isWord, termsInto } from './analyze.ts';
import { FIELDS, type Field, fieldNorms, gainOf, packCounts } from './fields.ts';
import type { Doc, Index, Postings } from './index-shape.ts';
import { patchPostings } from './patch-postings.ts';
import { SOFTWARE_SYNONYMS, type SynonymTable, synonymTable } from './synonyms.ts';

export type { Doc, Index, Postings, Scratch } from './index-shape.ts';

// Light on purpose: no zod, no state, no git. A query at the tip (tip-search.ts) runs on this
// file, the query's and the ranking's alone; the items are read into `Source`s by sources.ts.

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

/** Counting space reused from one document to the next within a build. */
interface Counter {
  /** term -> its position in the document's `terms` */
  slot: Map<string, number>;
  /** four counts (FIELDS order) a distinct term */
  counts: Int32Array;
  /** the words of the field being read, and its identifiers' whole terms */
  tokens: string[];
  wholes: string[];
  /** the title's and the body's words as slots, with `GAP` between texts */
  near: number[];
}

/** In `Doc.near`: the end of one text (no two words across it stand together), or a slot past the last kept. */
export const GAP = 0xffff;
/** At most this many words of a document are kept for proximity. */
const NEAR_MAX = 4000;

function docOf(counter: Counter, src: Source): Doc {
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
      termsInto(text, tokens, wholes);
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
  const tfs = new Float64Array(terms.length);
  const c = counter.counts;
  for (let s = 0; s < terms.length; s++) tfs[s] = packCounts(c[4 * s]!, c[4 * s + 1]!, c[4 * s + 2]!, c[4 * s + 3]!);
  return { ...metaOf(src), terms, tfs, len, near: Uint16Array.from(near), titleEnd };
}

/**
 * Every term a process has seen, each with a number of its own (kept by the knowledge base): a
 * document's terms are looked up once, as numbers (`termNumbers`), and a later build lays out
 * the postings from those numbers without looking a term up again.
 */
export interface TermRegistry {
  numbers: Map<string, number>;
  terms: string[];
}

/**
 * The process's term registry. Kept for as long as the knowledge base's per-object data (not in
 * its bounded memory, which drops old entries): a document's numbers (`termNumbers`, kept per
 * document object) must always index this registry, never a newer empty one.
 */
function termRegistry(kb: KnowledgeBase): TermRegistry {
  const slot = kb.cache.perObject<TermRegistry>('search-terms');
  let registry = slot.get(kb.cache);
  if (!registry) slot.set(kb.cache, (registry = { numbers: new Map(), terms: [] }));
  return registry;
}

/** `d`'s terms as numbers of `registry` (kept per document object in `memo`). */
function termNumbers(d: Doc, registry: TermRegistry, memo: WeakMap<object, Int32Array>): Int32Array {
  let out = memo.get(d);
  if (out) return out;
  out = new Int32Array(d.terms.length);
  for (let j = 0; j < d.terms.length; j++) {
    const t = d.terms[j]!;
    let k = registry.numbers.get(t);
    if (k === undefined) {
      k = registry.terms.length;
      registry.numbers.set(t, k);
      registry.terms.push(t);
    }
    out[j] = k;
  }
  memo.set(d, out);
  return out;
}

/**
 * The postings of `docs`: one pass to give each term its id (in the order terms first occur, as
 * any build of the same documents does) and count its documents, one to fill flat arrays.
 * `numbers` gives a document's terms as numbers of `registry`. `norms` holds, per document and
 * field (4 a document, FIELDS order), the field's weight over its BM25 length normalization.
 */
function postingsOf(docs: readonly Doc[], norms: Float64Array, numbers: (d: Doc) => Int32Array, registry: TermRegistry): Postings {
  const numbered = docs.map(numbers);
  const idOf = new Int32Array(registry.terms.length).fill(-1);
  const ids = new Map<string, number>();
  let df = new Int32Array(1024);
  let count = 0;
  let total = 0;
  for (const nums of numbered) {
    for (let j = 0; j < nums.length; j++) {
      let id = idOf[nums[j]!]!;
      if (id < 0) {
        id = idOf[nums[j]!] = count++;
        ids.set(registry.terms[nums[j]!]!, id);
        if (id >= df.length) {
          const grown = new Int32Array(df.length * 2);
          grown.set(df);
          df = grown;
        }
      }
      df[id]!++;
    }
    total += nums.length;
  }
  const start = new Int32Array(count + 1);
  for (let id = 0; id < count; id++) start[id + 1] = start[id]! + df[id]!;
  const next = start.slice(0, count);
  const out = new Int32Array(total);
  const gain = new Float64Array(total);
  const tf = new Float64Array(total);
  numbered.forEach((nums, i) => {
    const tfs = docs[i]!.tfs;
    for (let j = 0; j < nums.length; j++) {
      const at = next[idOf[nums[j]!]!]!++;
      out[at] = i;
      tf[at] = tfs[j]!;
      gain[at] = gainOf(tfs[j]!, norms, i);
    }
  });
  return { ids, start, docs: out, gain, tf };
}

/** The documents' field lengths in words, 4 a document (FIELDS order): `fieldNorms`'s input. */
export function fieldLengths(docs: readonly Doc[]): Float64Array {
  const len = new Float64Array(docs.length * 4);
  docs.forEach((d, i) => {
    const l = d.len;
    len[i * 4] = l.title;
    len[i * 4 + 1] = l.keys;
    len[i * 4 + 2] = l.anchors;
    len[i * 4 + 3] = l.body;
  });
  return len;
}

/**
 * The search index of the items search looks through (`sources`, sources.ts; `glossary`: the
 * glossary's synonym groups). Each item's document is kept by the item object (parsed items are
 * shared between states: after a write only the changed items are tokenized again), and an item
 * unchanged since `previous` takes its document from there, so a new tip costs one pass over the
 * documents, not a re-tokenization of the store.
 */
export function buildIndex(kb: KnowledgeBase, sources: readonly Source[], glossary: string[][], previous?: Index): Index {
  const docOfItem = kb.cache.perObject<Doc>('search-doc');
  const counter: Counter = { slot: new Map(), counts: new Int32Array(256), tokens: [], wholes: [], near: [] };
  // the previous tip's documents by where their items live: an item unchanged since is not tokenized again
  // (made only when an item has no document of its own yet: a process that wrote keeps every unchanged item's)
  let before: Map<string, Doc> | undefined;
  const previousDoc = (src: Source) => {
    before ??= new Map(previous!.docs.map((d) => [docKey(d.kind, d.path, d.store), d]));
    return before.get(docKey(src.kind, src.path, src.store ?? undefined));
  };
  let reused = 0;
  const docs = sources.map((src): Doc => {
    const { item } = src;
    let d = docOfItem.get(item);
    if (!d && previous) {
      const old = previousDoc(src);
      if (old && sameSource(old, src)) docOfItem.set(item, (d = old));
    }
    if (d) reused++;
    else docOfItem.set(item, (d = docOf(counter, src)));
    return d;
  });
  const registry = termRegistry(kb);
  const memo = kb.cache.perObject<Int32Array>('search-term-numbers');
  // after a write in this process: the previous index's postings patched, only the changed documents' terms looked up
  const patched = previous && patchPostings(previous, docs);
  if (!patched) return indexFrom(docs, (ds) => postingsFor(ds, (d) => termNumbers(d, registry, memo), registry), glossary, reused);
  const synonyms = sameGroups(previous.glossary ?? [], glossary) ? previous.synonyms : undefined;
  const index = indexFrom(docs, () => patched.postings, glossary, reused, patched.links && synonyms && { ...patched.links, synonyms });
  index.patched = true;
  return index;
}

/** The document of the item of `src`: the one kept for the item object, else made (tokenized) and kept. */
export function documentOf(kb: KnowledgeBase, src: Source): Doc {
  const docOfItem = kb.cache.perObject<Doc>('search-doc');
  let d = docOfItem.get(src.item);
  if (!d) docOfItem.set(src.item, (d = docOf({ slot: new Map(), counts: new Int32Array(256), tokens: [], wholes: [], near: [] }, src)));
  return d;
}

/** Keeps `docs` (read from disk for `sources`, in order) as the documents of their items: a later build in this process takes them as they are, without comparing prints. */
export function rememberDocs(kb: KnowledgeBase, sources: readonly Source[], docs: readonly Doc[]): void {
  const docOfItem = kb.cache.perObject<Doc>('search-doc');
  sources.forEach((src, i) => docOfItem.get(src.item) ?? docOfItem.set(src.item, docs[i]!));
}

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

/** The postings of the documents (their norms worked out from the field lengths): the part of a build that spans every document. */
function postingsFor(docs: readonly Doc[], numbers: (d: Doc) => Int32Array, registry: TermRegistry): Postings {
  const len = fieldLengths(docs);
  return { ...postingsOf(docs, fieldNorms(len), numbers, registry), len };
}

/**
 * An index of `docs` (in `sourcesOf` order), its postings from `postings`, its synonyms the
 * software's and `glossary`'s; `known`, when given (read from disk), the decisions superseded
 * ones point to, the superseded and the synonym table (else worked out from every document and
 * the synonyms).
 */
export function indexFrom(
  docs: Doc[],
  postings: (docs: readonly Doc[]) => Postings,
  glossary: string[][],
  reused = 0,
  known?: Pick<Index, 'decisions' | 'superseded' | 'synonyms' | 'decisionDocs'>,
): Index {
  const { decisions, superseded, decisionDocs } = known ?? linksOf(docs);
  const synonyms = known?.synonyms ?? synonymTable([...SOFTWARE_SYNONYMS, ...glossary]);
  // every field, in one order, whatever the index's origin (built, read from a file, laid over after a write): one object shape,
  // so that the ranking's compiled code does not meet another after a write (V8 throws it away when a shape it relied on changes)
  return {
    docs,
    postings: postings(docs),
    decisions,
    superseded,
    synonyms,
    related: undefined,
    glossary,
    sorted: undefined,
    byLength: undefined,
    dense: undefined,
    factors: undefined,
    scratch: undefined,
    reused,
    decisionDocs,
    patched: false,
    madeFrom: undefined,
    delta: undefined,
  };
}

/** The decisions by slug and the superseded documents (`links` of `indexFrom`, when not read from disk). */
function linksOf(docs: readonly Doc[]): Pick<Index, 'decisions' | 'superseded' | 'decisionDocs'> {
  const decisions = new Map<string, number>();
  const superseded: number[] = [];
  let decisionDocs = 0;
  docs.forEach((d, i) => {
    if (d.kind === 'decision') {
      decisions.set(d.slug, i);
      decisionDocs++;
    }
    if (d.supersededBy) superseded.push(i);
  });
  return { decisions, superseded, decisionDocs };
}

/** True when two glossaries' synonym groups are the same. */
export const sameGroups = (a: readonly string[][], b: readonly string[][]) => a.length === b.length && a.every((g, i) => sameList(g, b[i]!));

/** Where a document's item lives: its kind, path and store (a workspace item is not the repository's of the same path). */
const docKey = (kind: KindName, path: string, store: string | null | undefined) => `${kind}\0${path}\0${store ?? ''}`;

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** True when `old` was made from the same text and marks as the item would give now: it can stand for the item. */
function sameSource(old: Doc, src: Source): boolean {
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
