import type { KindName } from '../../../model/kind.ts';
import { isLive } from '../../../model/liveness.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { storeOf, type MergedState } from '../../core/merged-state.ts';
import { termsInto } from './analyze.ts';
import { FIELD_PARAMS, FIELDS, K1, packCounts, tfIn, type Field } from './fields.ts';
import { glossaryGroups, SOFTWARE_SYNONYMS, synonymTable, type SynonymTable } from './synonyms.ts';

/** One item as search sees it. Kept per item object: a write tokenizes only the items it changed. */
export interface Doc {
  kind: KindName;
  id: string | null;
  slug: string;
  title: string;
  status: string;
  current: boolean;
  revoked: boolean;
  /** the item's own text, by field (the strings are the item's: nothing is copied) */
  parts: Record<Field, readonly string[]>;
  /** the distinct terms of the item, and their frequencies in the fields at the same positions (`packTf`) */
  terms: string[];
  tfs: Float64Array;
  /** each field's length in terms */
  len: Record<Field, number>;
  supersededBy?: string | undefined;
  /** the workspace store the item comes from, when not this repository's */
  store?: string | undefined;
}

/**
 * The postings of all terms in flat arrays: term `id`'s documents (positions in `Index.docs`) are
 * `docs[start[id]]` up to `docs[start[id + 1]]`, and `gain` holds what the term adds to each of
 * their scores before its IDF: its frequencies weighted and length-normalized per field, then
 * saturated (BM25F), worked out once when the index is built.
 */
export interface Postings {
  /** term -> its id */
  ids: Map<string, number>;
  start: Int32Array;
  docs: Int32Array;
  gain: Float64Array;
}

/** The index's terms without digits (names such as `v11`, not words) that start with `prefix`, in sorted order. */
export function termsStartingWith(index: Index, prefix: string): string[] {
  const sorted = (index.sorted ??= [...index.postings.ids.keys()].filter((t) => !/\d/.test(t)).sort());
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

/** How many documents hold `term` (0 when none does). */
export function docFreq(p: Postings, term: string): number {
  const id = p.ids.get(term);
  return id === undefined ? 0 : p.start[id + 1]! - p.start[id]!;
}

export interface Index {
  docs: Doc[];
  /** term -> the documents that hold it */
  postings: Postings;
  /** decisions' positions by slug (to follow superseded_by) */
  decisions: Map<string, number>;
  /** the superseded documents' positions: the few a result has to fold into their successors */
  superseded: number[];
  /** the software synonyms and the glossary's */
  synonyms: SynonymTable;
  /** the terms without digits in sorted order, for prefix look-ups (sorted by the first query that needs it) */
  sorted?: string[];
  /** the documents' embeddings (dense.ts), in `docs` order, for one endpoint and model (`model` is its key) */
  dense?: { model: string; vectors: Float32Array[] };
  /** the ranking's buffers, one number per document (allocated by the first query; `scoreQuery` takes them, `rank` hands them back) */
  scratch?: { scores: Float64Array; touched: Int32Array } | undefined;
}

/** Counting space reused from one document to the next within a build. */
interface Counter {
  /** term -> its position in the document's `terms` */
  slot: Map<string, number>;
  /** four counts (FIELDS order) a distinct term */
  counts: Int32Array;
  /** the terms of the field being read */
  tokens: string[];
}

function docOf(counter: Counter, kind: KindName, item: { id?: string | undefined; slug: string; status: string }, title: string, parts: Record<Field, readonly string[]>, current: boolean, store?: string | null, supersededBy?: string): Doc {
  const { slot, tokens } = counter;
  slot.clear();
  const terms: string[] = [];
  const len = { title: 0, keys: 0, anchors: 0, body: 0 };
  for (let f = 0; f < FIELDS.length; f++) {
    const field = FIELDS[f]!;
    tokens.length = 0;
    for (const text of parts[field]) termsInto(text, tokens);
    len[field] = tokens.length;
    for (const t of tokens) {
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
    }
  }
  const tfs = new Float64Array(terms.length);
  const c = counter.counts;
  for (let s = 0; s < terms.length; s++) tfs[s] = packCounts(c[4 * s]!, c[4 * s + 1]!, c[4 * s + 2]!, c[4 * s + 3]!);
  const doc: Doc = { kind, id: item.id ?? null, slug: item.slug, title, status: item.status, current, revoked: item.status === 'revoked', parts, terms, tfs, len };
  if (supersededBy) doc.supersededBy = supersededBy;
  if (store) doc.store = store;
  return doc;
}

/**
 * The postings of `docs`: one pass to count each term's documents, one to fill flat arrays.
 * `norms` holds, per document and field (4 a document, FIELDS order), the field's weight over
 * its BM25 length normalization.
 */
function postingsOf(docs: readonly Doc[], norms: Float64Array): Postings {
  const ids = new Map<string, number>();
  let df = new Int32Array(1024);
  let total = 0;
  for (const d of docs) {
    for (const t of d.terms) {
      let id = ids.get(t);
      if (id === undefined) {
        id = ids.size;
        ids.set(t, id);
        if (id >= df.length) {
          const grown = new Int32Array(df.length * 2);
          grown.set(df);
          df = grown;
        }
      }
      df[id]!++;
    }
    total += d.terms.length;
  }
  const start = new Int32Array(ids.size + 1);
  for (let id = 0; id < ids.size; id++) start[id + 1] = start[id]! + df[id]!;
  const next = start.slice(0, ids.size);
  const out = new Int32Array(total);
  const gain = new Float64Array(total);
  docs.forEach((d, i) => {
    const n = i * 4;
    for (let j = 0; j < d.terms.length; j++) {
      const at = next[ids.get(d.terms[j]!)!]!++;
      const packed = d.tfs[j]!;
      const tf = tfIn(packed, 'title') * norms[n]! + tfIn(packed, 'keys') * norms[n + 1]! + tfIn(packed, 'anchors') * norms[n + 2]! + tfIn(packed, 'body') * norms[n + 3]!;
      out[at] = i;
      gain[at] = (tf * (K1 + 1)) / (tf + K1);
    }
  });
  return { ids, start, docs: out, gain };
}

/**
 * The search index of a state. Each item's document is kept by the item object (parsed items
 * are shared between states: after a write only the changed items are tokenized again), so a
 * new tip costs one pass over the documents, not a re-tokenization of the store.
 */
export function buildIndex(kb: KnowledgeBase, state: MergedState, kinds: Set<KindName>): Index {
  const docs: Doc[] = [];
  const { items } = state;
  const docOfItem = kb.cache.perObject<Doc>('search-doc');
  const counter: Counter = { slot: new Map(), counts: new Int32Array(256), tokens: [] };
  const cached = <T extends object>(item: T, make: (c: Counter) => Doc): Doc => {
    let d = docOfItem.get(item);
    if (!d) docOfItem.set(item, (d = make(counter)));
    return d;
  };
  if (kinds.has('decision')) for (const d of items.decision) docs.push(cached(d, (c) => docOf(c, 'decision', d, d.title, { title: [d.title], keys: d.tags, anchors: d.anchors, body: [d.decision, d.reasoning] }, isLive('decision', d), storeOf(state, d), d.superseded_by)));
  if (kinds.has('memory')) for (const m of items.memory) docs.push(cached(m, (c) => docOf(c, 'memory', m, m.title, { title: [m.title], keys: m.keywords, anchors: m.anchors, body: [m.description, m.body] }, isLive('memory', m), storeOf(state, m))));
  if (kinds.has('backlog')) for (const b of items.backlog) docs.push(cached(b, (c) => docOf(c, 'backlog', b, b.title, { title: [b.title], keys: b.tags, anchors: [], body: [b.description, b.notes] }, isLive('backlog', b))));
  if (kinds.has('question')) for (const q of items.question) docs.push(cached(q, (c) => docOf(c, 'question', q, q.question.split('\n')[0]!, { title: [q.question], keys: [], anchors: [], body: [q.context, q.answer] }, isLive('question', q))));
  const total = { title: 0, keys: 0, anchors: 0, body: 0 };
  const decisions = new Map<string, number>();
  const superseded: number[] = [];
  docs.forEach((d, i) => {
    for (const f of FIELDS) total[f] += d.len[f];
    if (d.kind === 'decision') decisions.set(d.slug, i);
    if (d.supersededBy) superseded.push(i);
  });
  const n = docs.length || 1;
  const norms = new Float64Array(docs.length * FIELDS.length);
  docs.forEach((d, i) => {
    FIELDS.forEach((f, j) => {
      const { weight, b } = FIELD_PARAMS[f];
      norms[i * FIELDS.length + j] = weight / (1 - b + (b * d.len[f]) / (total[f] / n || 1));
    });
  });
  const postings = postingsOf(docs, norms);
  const glossary = items.oracle.filter((p) => p.slug === 'glossary').flatMap((p) => glossaryGroups(p.body));
  const synonyms = synonymTable([...SOFTWARE_SYNONYMS, ...glossary]);
  return { docs, postings, decisions, superseded, synonyms };
}
