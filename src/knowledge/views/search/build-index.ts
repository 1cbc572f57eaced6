import type { KindName } from '../../../model/kind.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { fieldNorms, gainOf } from './fields.ts';
import type { Doc, Index, Postings } from './index-shape.ts';
import { docOf, metaOf, newCounter, type Source, sameList, sameSource } from './item-document.ts';
import { patchPostings } from './patch-postings.ts';
import { SOFTWARE_SYNONYMS, synonymTable } from './synonyms.ts';

export type { Doc, Index, Postings, Scratch } from './index-shape.ts';
export type { Source } from './item-document.ts';

// Light on purpose, as index-terms.ts and item-document.ts: no zod, no state, no git. A query at
// the tip (tip-search.ts) runs on these files, the query's and the ranking's alone; the items are
// read into `Source`s by sources.ts.

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
  const counter = newCounter();
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
  if (!d) docOfItem.set(src.item, (d = docOf(newCounter(), src)));
  return d;
}

/** Keeps `docs` (read from disk for `sources`, in order) as the documents of their items: a later build in this process takes them as they are, without comparing prints. */
export function rememberDocs(kb: KnowledgeBase, sources: readonly Source[], docs: readonly Doc[]): void {
  const docOfItem = kb.cache.perObject<Doc>('search-doc');
  sources.forEach((src, i) => docOfItem.get(src.item) ?? docOfItem.set(src.item, docs[i]!));
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
