/**
 * The search index file's layout (docs/search.md, "How the index is stored"), read in part by a
 * query at the tip and whole by the full path. One file:
 *
 *   8 bytes  `AXIDX005`
 *   4 bytes  the header's length H (little-endian), then H bytes of JSON (`Header`): the counts,
 *            the small tables (kinds, glossary, synonyms, superseded links) and where each
 *            section starts and how long it is
 *   sections, each at a multiple of 8:
 *     head     what every query needs, in one read: the terms (`\n` between them, in id order),
 *              `start` (Int32, term id -> its first posting), `order` (Int32: the term ids in
 *              the terms' sorted order, which a look-up halves: file-vocabulary.ts), per
 *              document its flags and kind (one byte each) and where its record starts
 *              (Float64, `n + 1` offsets)
 *     pdocs    the postings' documents (Int32), term by term: `start[id]`..`start[id + 1]`
 *     gain     their BM25F gains (Float64), at the same positions
 *     slugs    the documents' slugs, `\n` between them (read only to find stale items by slug)
 *     records  one a document: what ranking its top hits and printing them reads (file-record.ts)
 *     ptf      the postings' term frequencies by field (Float64, `packTf`), at the same positions
 *              as `pdocs`, and
 *     lens     every document's field lengths (Float64, 4 a document): what a process that read
 *              this file needs to patch its postings after a write (patch-postings.ts); both
 *              empty when the index written did not keep them
 *
 * A query reads the header and `head`, then the postings of its own terms and the records of its
 * best hundred documents, each with one positioned read: a few hundred kilobytes at 10,000 items
 * where the file is megabytes. A record holds its terms as strings (not ids into this file's
 * vocabulary), so an unchanged document's record is copied as it is into the next tip's file.
 *
 * encode-index.ts writes the file, index-file.ts reads it; this module holds what both know.
 */

/** The file's first 8 bytes: its format. */
export const PRELUDE = 'AXIDX005';

/** The header's JSON: counts, small tables and where each section is. */
export interface Header {
  magic: string;
  version: number;
  key: string;
  /** documents, terms, postings */
  n: number;
  terms: number;
  postings: number;
  kindNames: string[];
  glossary: string[][];
  synonyms: Array<[string, string[][]]>;
  /** the related words' table, analyzed (synonyms.ts `relatedTable`): a query at the tip does not analyze it again */
  related: Array<[string, string[][]]>;
  superseded: number[];
  successors: string[];
  successorAt: number[];
  anchored: boolean;
  embeddings: boolean;
  /** section name -> [byte offset in the file, byte length] */
  sections: Record<SectionName, [number, number]>;
  /** within `head`: byte offsets of its parts */
  head: { start: number; order: number; flags: number; kindOf: number; docAt: number };
}

/** The file's sections, in the order they are written. */
export type SectionName = 'head' | 'pdocs' | 'gain' | 'slugs' | 'records' | 'ptf' | 'lens';

/** A document's flags (one byte each in `head`): current, revoked, from a workspace's store. */
export const FLAG_CURRENT = 1;
export const FLAG_REVOKED = 2;
export const FLAG_STORE = 4;

/** `n` rounded up to a multiple of 8: where the next section starts. */
export const pad8 = (n: number) => (n + 7) & ~7;
