import type { KindName } from '../../../model/kind.ts';
import type { Field } from './fields.ts';
import type { SynonymTable } from './synonyms.ts';
import type { VectorTable } from './vector-table.ts';

// The search index's shape (build-index.ts builds it, patch-postings.ts patches it, rank.ts reads it): types only.

/** One item as search sees it. Kept per item object: a write tokenizes only the items it changed. */
export interface Doc {
  kind: KindName;
  id: string | null;
  slug: string;
  title: string;
  /** the item's status ('' for kinds without one: handoffs, session summaries, oracle pages) */
  status: string;
  /** its path in the memory tree */
  path: string;
  current: boolean;
  revoked: boolean;
  /** the item's own text, by field (the strings are the item's: nothing is copied) */
  parts: Record<Field, readonly string[]>;
  /** the distinct terms of the item, and their frequencies in the fields at the same positions (`packTf`) */
  terms: string[];
  tfs: Float64Array;
  /** each field's length in words (an identifier's whole term is not counted) */
  len: Record<Field, number>;
  /** the title's words then the body's, as positions in `terms` (`GAP` between texts, the title's end at `titleEnd`): proximity reads them, not the text */
  near: Uint16Array;
  titleEnd: number;
  supersededBy?: string | undefined;
  /** the workspace store the item comes from, when not this repository's */
  store?: string | undefined;
  /** `printOf` the item this was made from, when the document was read from disk: its marks and text are the current item's, the print tells whether they were the same */
  print?: string | undefined;
}

/** Terms and their ids, as a query looks them up: a Map in memory, an index file's sorted table on disk (file-vocabulary.ts). */
export interface TermIds extends Iterable<[string, number]> {
  readonly size: number;
  get(term: string): number | undefined;
  has(term: string): boolean;
  /** the terms, in id order */
  keys(): Iterable<string>;
  /** the terms without digits that start with `prefix`, sorted (`termsStartingWith`'s answer), when the table can find them without a pass over every term */
  startingWith?(prefix: string): string[];
}

/**
 * The postings of all terms in flat arrays: term `id`'s documents (positions in `Index.docs`) are
 * `docs[start[id]]` up to `docs[start[id + 1]]`, and `gain` holds what the term adds to each of
 * their scores before its IDF: its frequencies weighted and length-normalized per field, then
 * saturated (BM25F), worked out once when the index is built.
 */
export interface Postings {
  /** term -> its id */
  ids: TermIds;
  start: Int32Array;
  docs: Int32Array;
  gain: Float64Array;
  /** at the same positions as `docs`: the term's frequencies in the document's fields (packTf), kept by a build in memory so that the next one can patch these postings (patch-postings.ts) */
  tf?: Float64Array;
  /** the documents' field lengths (4 a document, FIELDS order), kept with `tf` */
  len?: Float64Array;
  /** the fields' total lengths over `len` (FIELDS order), when known (a delta laid out flat keeps its own: the next write starts from them) */
  totals?: Float64Array;
  /**
   * when the postings stay on disk (a query at the tip: index-file.ts) or are a base and a delta
   * (live-index.ts), term `id`'s documents and gains, read or worked out when first asked for;
   * `docs` and `gain` are then empty. Given `only` (1 a document to score), a base and a delta
   * give just the postings of the documents it marks, in the same order
   */
  read?: (id: number, only?: Uint8Array) => { docs: Int32Array; gain: Float64Array };
  /** a base and a delta's term `id`'s documents alone, no gain worked out (what counting the matches reads) */
  docsOf?: (id: number) => Int32Array;
  /** each term's count of documents, when `start` does not give it (a base and a delta: live-index.ts) */
  df?: Int32Array;
}

/** The ranking's buffers, one number per document: the scores, and a group's and an alternative's best so far, each with the positions it touched. */
export interface Scratch {
  scores: Float64Array;
  touched: Int32Array;
  group: Float64Array;
  groupTouched: Int32Array;
  alt: Float64Array;
  altTouched: Int32Array;
}

export interface Index {
  docs: Doc[];
  /** term -> the documents that hold it */
  postings: Postings;
  /** decisions' positions by slug, to follow superseded_by (read from disk: only those a superseded_by names) */
  decisions: ReadonlyMap<string, number>;
  /** the superseded documents' positions: the few a result has to fold into their successors */
  superseded: number[];
  /** the software synonyms and the glossary's */
  synonyms: SynonymTable;
  /** the related words' table (synonyms.ts `relatedTable`), as read from an index file; the query analyzes it when absent */
  related?: SynonymTable;
  /** the glossary's synonym groups (kept with the index on disk) */
  glossary?: string[][];
  /** the terms without digits in sorted order, for prefix look-ups (sorted by the first query that needs it) */
  sorted?: string[];
  /** the terms without digits by length, for typo look-ups (made by the first query that needs it) */
  byLength?: Map<number, string[]>;
  /** the documents' embeddings (dense.ts), in `docs` order, for one endpoint and model (`model` is its key) */
  dense?: { model: string; vectors: VectorTable };
  /** each document's factor (rank.ts `factorAt`) for its revoked and current marks, by position, 0 until the ranking first reads it (rank.ts `factorAt`) */
  factors?: Float64Array;
  /** the ranking's buffers, one number per document (allocated by the first query; `scoreQuery` takes them, `rank` hands them back) */
  scratch?: Scratch | undefined;
  /** how many documents were taken from the previous index rather than tokenized (set by `buildIndex`) */
  reused?: number;
  /** how many documents are decisions (when worked out from every document): equal to `decisions.size` when no two share a slug, which a patch of `decisions` needs */
  decisionDocs?: number;
  /** whether `buildIndex` patched the previous index's postings (patch-postings.ts), or a write's changes were laid over them (live-index.ts), rather than laying them out again */
  patched?: boolean;
  /** the item lists the documents were made from, one a searchable kind in index order (sources.ts `searchLists`): what a later state is compared with (live-index.ts) */
  madeFrom?: { lists: ReadonlyArray<readonly object[]> };
  /** the postings as a base and the documents changed since (live-index.ts): laid out flat again (`compactPostings`) before the index is written */
  delta?: Delta;
}

/**
 * An index's postings as the flat postings of an earlier index (the base) and what changed since
 * (live-index.ts): where each base document is now, the documents added since, and each term's
 * count; a term's postings are worked out from them when a query first reads it.
 */
export interface Delta {
  /** the base's postings: term `id`'s documents (base positions) `docs[start[id]..start[id + 1])`, their frequencies `tf` and their gains as the base was laid out with (`gain`) */
  base: { ids: TermIds; start: Int32Array; docs: Int32Array; tf: Float64Array; gain: Float64Array; terms: number };
  /** nothing changed since the base (an index read from its file, or laid out flat after a write): a term's postings are the base's, gains included */
  exact: boolean;
  /** base position -> position now, -1 when the document is gone */
  newOf: Int32Array;
  /** the positions now of the documents not in the base, ascending */
  added: Int32Array;
  /** terms no base document held, their ids following the base's (`base.terms + j`) */
  fresh: string[];
  freshIds: Map<string, number>;
  /** each term's count of documents now (0: no document holds it any more; the term is hidden) */
  df: Int32Array;
  /** the documents' field lengths (4 a document, FIELDS order) now, and the fields' mean lengths (`fieldMeans`): a posting's norms follow from them when it is read */
  len: Float64Array;
  /** the fields' total lengths over `len` (FIELDS order): the next write's are worked out from them */
  totals: Float64Array;
  means: Float64Array;
  /** how many base documents are gone */
  removed: number;
  /** the base documents before this position are where they were, none gone (every write's since the base): a term held by them alone and by no added document has the base's postings as they are */
  unmoved: number;
}
