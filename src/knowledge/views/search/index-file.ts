import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Doc, Index, Postings } from './build-index.ts';
import { encodeRecord, FileRecord } from './file-record.ts';
import { FileVocabulary, sortedOrder } from './file-vocabulary.ts';
import { relatedTable } from './synonyms.ts';

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
 */
const PRELUDE = 'AXIDX005';

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

type SectionName = 'head' | 'pdocs' | 'gain' | 'slugs' | 'records' | 'ptf' | 'lens';

export const FLAG_CURRENT = 1;
export const FLAG_REVOKED = 2;
export const FLAG_STORE = 4;

const enc = new TextEncoder();
const dec = new TextDecoder();
const pad8 = (n: number) => (n + 7) & ~7;

/** A document read from an index file (file-doc.ts): its record's bytes are at hand. */
interface FileDocLike extends Doc {
  rawRecord(): Uint8Array;
}

/** One document's record, as the file holds it (cached per document object: an unchanged document is not encoded again). */
const encoded = new WeakMap<Doc, Uint8Array>();
function recordOf(d: Doc, made: { count: number }): Uint8Array {
  const known = encoded.get(d) ?? (d as Partial<Pick<FileDocLike, 'rawRecord'>>).rawRecord?.();
  if (known) return known;
  made.count++;
  const out = encodeRecord(d);
  encoded.set(d, out);
  return out;
}

/**
 * The file of `index` as byte chunks to write one after the other (`magic`: the format and code
 * stamp; `anchored`, `embeddings`: persist.ts writeIndex), and how many documents' records were
 * encoded for it (the others were copied: from the file they were read from, or from an earlier write).
 */
export function encodeIndex(
  magic: string,
  version: number,
  key: string,
  index: Index,
  opts: { anchored: boolean; embeddings: boolean },
): { chunks: Uint8Array[]; encoded: number } {
  const { docs, postings } = index;
  const n = docs.length;
  const vocab: string[] = new Array(postings.ids.size);
  for (const [t, id] of postings.ids) vocab[id] = t;
  const made = { count: 0 };
  const records = docs.map((d) => recordOf(d, made));
  const docAt = new Float64Array(n + 1);
  records.forEach((r, i) => (docAt[i + 1] = docAt[i]! + r.length));
  const flags = Uint8Array.from(docs, (d) => (d.current ? FLAG_CURRENT : 0) | (d.revoked ? FLAG_REVOKED : 0) | (d.store ? FLAG_STORE : 0));
  const kindNames = [...new Set(docs.map((d) => d.kind))];
  const kindOf = Uint8Array.from(docs, (d) => kindNames.indexOf(d.kind));
  const vocabBytes = enc.encode(vocab.join('\n'));
  const head: Header['head'] = { start: 0, order: 0, flags: 0, kindOf: 0, docAt: 0 };
  const headParts: Uint8Array[] = [];
  let headLen = 0;
  const put = (bytes: Uint8Array) => {
    const at = headLen;
    headParts.push(bytes);
    headLen = pad8(headLen + bytes.length);
    if (headLen - at > bytes.length) headParts.push(new Uint8Array(headLen - at - bytes.length));
    return at;
  };
  put(vocabBytes);
  head.start = put(bytesOf(postings.start));
  // a sorted table's order as it is (the postings a write laid out flat keep one), else sorted here
  head.order = put(bytesOf(postings.ids instanceof FileVocabulary ? postings.ids.order : sortedOrder(vocab)));
  head.flags = put(flags);
  head.kindOf = put(kindOf);
  head.docAt = put(bytesOf(docAt));
  const slugs = enc.encode(docs.map((d) => d.slug).join('\n'));
  const named = new Set(index.superseded.map((i) => docs[i]!.supersededBy!));
  const successors = [...index.decisions].filter(([slug]) => named.has(slug));
  const bodies: Array<[SectionName, Uint8Array[], number]> = [
    ['head', headParts, headLen],
    ['pdocs', [bytesOf(postings.docs)], postings.docs.byteLength],
    ['gain', [bytesOf(postings.gain)], postings.gain.byteLength],
    ['slugs', [slugs], slugs.length],
    ['records', records, docAt[n]!],
  ];
  // kept only together and whole: a patch must never read frequencies that are not the postings'
  const { tf, len } = postings;
  const patchable = tf && len && tf.length === postings.docs.length && len.length === 4 * n;
  bodies.push(
    ['ptf', patchable ? [bytesOf(tf)] : [], patchable ? tf.byteLength : 0],
    ['lens', patchable ? [bytesOf(len)] : [], patchable ? len.byteLength : 0],
  );
  const header: Header = {
    magic,
    version,
    key,
    n,
    terms: vocab.length,
    postings: postings.docs.length,
    kindNames,
    glossary: index.glossary ?? [],
    synonyms: [...index.synonyms],
    related: [...relatedTable()],
    superseded: [...index.superseded],
    successors: successors.map(([slug]) => slug),
    successorAt: successors.map(([, at]) => at),
    anchored: opts.anchored,
    embeddings: opts.embeddings,
    sections: {} as Header['sections'],
    head,
  };
  // the header names the sections' offsets, which follow the header: its length is fixed first with placeholders of the widest offsets
  const size = (h: Header) => pad8(12 + enc.encode(JSON.stringify(h)).length);
  let total = 0;
  for (const [name, , len] of bodies) header.sections[name] = [Number.MAX_SAFE_INTEGER, len];
  let at = size(header);
  for (const [name, , len] of bodies) {
    header.sections[name] = [at, len];
    at = pad8(at + len);
  }
  total = at;
  const headerBytes = enc.encode(JSON.stringify(header));
  const prelude = new Uint8Array(12);
  prelude.set(enc.encode(PRELUDE));
  new DataView(prelude.buffer).setUint32(8, headerBytes.length, true);
  const chunks: Uint8Array[] = [prelude, headerBytes];
  let written = 12 + headerBytes.length;
  for (const [name, parts] of bodies) {
    const [off] = header.sections[name];
    if (off > written) chunks.push(new Uint8Array(off - written));
    written = off;
    for (const p of parts) {
      chunks.push(p);
      written += p.length;
    }
  }
  if (total > written) chunks.push(new Uint8Array(total - written));
  return { chunks, encoded: made.count };
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Where an index file's bytes come from: the whole file in memory, or positioned reads of an open file. */
interface Bytes {
  read(off: number, len: number): Uint8Array;
  close(): void;
  /** how many bytes were read from the file, and its size */
  bytesRead: number;
  size: number;
}

/** A typed array over `len` elements of `bytes` from `off`: a view when aligned, else a copy. */
function typed<T extends Int32Array | Float64Array | Uint16Array>(
  Ctor: { new (b: ArrayBuffer, o: number, l: number): T; BYTES_PER_ELEMENT: number },
  bytes: Uint8Array,
  off: number,
  len: number,
): T {
  const at = bytes.byteOffset + off;
  if (off + len * Ctor.BYTES_PER_ELEMENT > bytes.length) throw new Error('index file: section out of range');
  if (at % Ctor.BYTES_PER_ELEMENT === 0) return new Ctor(bytes.buffer as ArrayBuffer, at, len);
  const copy = bytes.slice(off, off + len * Ctor.BYTES_PER_ELEMENT);
  return new Ctor(copy.buffer, 0, len);
}

/**
 * An index file opened for reading: its header and `head` section read at once, the postings of a
 * term and the record of a document when first asked for. Throws on anything out of range (the
 * callers take a throw as "no usable file").
 */
export class IndexFile {
  readonly header: Header;
  readonly vocab: string[];
  readonly start: Int32Array;
  /** the terms looked up by halving their sorted order (no Map built at opening) */
  readonly ids: FileVocabulary;
  readonly flags: Uint8Array;
  readonly kindOf: Uint8Array;
  readonly docAt: Float64Array;
  #bytes: Bytes;
  #slugs?: string[];
  #records = new Map<number, FileRecord>();
  /**
   * where the records section starts and its length, kept as numbers: a record is read through
   * them, not through the header (a writer's header object shares its shape with the one read
   * here, and the compiled code of a query's record reads would be thrown away when a write
   * changes that shape)
   */
  readonly #recordsAt: number;
  readonly #recordsLength: number;

  /** `path` opened for positioned reads (`whole`: read it all at once, for the full path, which reads every document). */
  static open(path: string, whole: boolean, check: (h: Header) => boolean): IndexFile | undefined {
    const fd = openSync(path, 'r');
    let bytes: Bytes;
    if (whole) {
      let all: Uint8Array;
      try {
        all = readAll(fd);
      } finally {
        closeSync(fd);
      }
      bytes = {
        read: (off, len) => (off + len <= all.length ? all.subarray(off, off + len) : truncated()),
        close: () => {},
        bytesRead: all.length,
        size: all.length,
      };
    } else {
      const b: Bytes = {
        read: (off, len) => {
          const out = new Uint8Array(len);
          if (readSync(fd, out, 0, len, off) !== len) truncated();
          b.bytesRead += len;
          return out;
        },
        close: () => closeSync(fd),
        bytesRead: 0,
        size: fstatSync(fd).size,
      };
      bytes = b;
    }
    try {
      const f = new IndexFile(bytes);
      if (check(f.header)) return f;
    } catch {
      // not an index file of this format, or damaged
    }
    bytes.close();
    return undefined;
  }

  private constructor(bytes: Bytes) {
    this.#bytes = bytes;
    const prelude = bytes.read(0, 12);
    if (dec.decode(prelude.subarray(0, 8)) !== PRELUDE) throw new Error('index file: not this format');
    const len = new DataView(prelude.buffer, prelude.byteOffset, 12).getUint32(8, true);
    const h = (this.header = JSON.parse(dec.decode(bytes.read(12, len))) as Header);
    const ok =
      Number.isInteger(h.n) &&
      h.n >= 0 &&
      Number.isInteger(h.terms) &&
      h.terms >= 0 &&
      Number.isInteger(h.postings) &&
      h.postings >= 0 &&
      Array.isArray(h.kindNames) &&
      Array.isArray(h.glossary) &&
      Array.isArray(h.synonyms) &&
      Array.isArray(h.related) &&
      Array.isArray(h.superseded) &&
      Array.isArray(h.successors) &&
      Array.isArray(h.successorAt) &&
      h.successors.length === h.successorAt.length &&
      typeof h.anchored === 'boolean' &&
      typeof h.embeddings === 'boolean' &&
      !!h.sections &&
      !!h.head;
    if (!ok) throw new Error('index file: bad header');
    for (const at of [...h.superseded, ...h.successorAt]) if (!Number.isInteger(at) || at < 0 || at >= h.n) throw new Error('index file: bad link');
    const [hoff, hlen] = h.sections.head;
    const head = bytes.read(hoff, hlen);
    const vocabText = dec.decode(head.subarray(0, h.head.start === 0 ? 0 : indexOfEnd(head, h.head.start)));
    this.vocab = h.terms === 0 ? [] : vocabText.split('\n');
    if (this.vocab.length !== h.terms) throw new Error('index file: bad vocabulary');
    this.start = typed(Int32Array, head, h.head.start, h.terms + 1);
    this.ids = new FileVocabulary(this.vocab, typed(Int32Array, head, h.head.order, h.terms));
    this.flags = head.subarray(h.head.flags, h.head.flags + h.n);
    this.kindOf = head.subarray(h.head.kindOf, h.head.kindOf + h.n);
    this.docAt = typed(Float64Array, head, h.head.docAt, h.n + 1);
    if (this.flags.length !== h.n || this.kindOf.length !== h.n) throw new Error('index file: bad head');
    if (this.start[0] !== 0 || this.start[h.terms] !== h.postings || h.sections.pdocs[1] !== 4 * h.postings || h.sections.gain[1] !== 8 * h.postings)
      throw new Error('index file: bad postings');
    if (this.docAt[0] !== 0 || this.docAt[h.n] !== h.sections.records[1]) throw new Error('index file: bad records');
    [this.#recordsAt, this.#recordsLength] = h.sections.records;
    // a term's postings, a document's record and kind are checked when read (a query reads a few of 10,000)
  }

  close(): void {
    this.#bytes.close();
  }

  /** How many bytes were read so far, and the file's size. */
  get reads(): { read: number; size: number } {
    return { read: this.#bytes.bytesRead, size: this.#bytes.size };
  }

  /** The postings of term `id`: its documents (each checked in range) and their gains. */
  postingsOf(id: number): { docs: Int32Array; gain: Float64Array } {
    return this.postingsOfRange(id, id + 1);
  }

  /** Every posting, checked: what the full path holds in memory (with the frequencies and lengths a patch needs, when the file keeps them). */
  allPostings(): Postings {
    const { docs, gain } = this.header.terms ? this.postingsOfRange(0, this.header.terms) : { docs: new Int32Array(0), gain: new Float64Array(0) };
    for (let i = 0; i < this.header.terms; i++) if (this.start[i + 1]! < this.start[i]!) throw new Error('index file: bad postings');
    this.ids.check();
    const out: Postings = { ids: this.ids, start: this.start, docs, gain };
    const { ptf, lens } = this.header.sections;
    if (ptf && lens && ptf[1] === 8 * docs.length && lens[1] === 32 * this.header.n) {
      out.tf = typed(Float64Array, this.#bytes.read(ptf[0], ptf[1]), 0, docs.length);
      out.len = typed(Float64Array, this.#bytes.read(lens[0], lens[1]), 0, 4 * this.header.n);
    }
    return out;
  }

  /** The postings of terms `from` up to `to`, one read each for the documents and the gains. */
  private postingsOfRange(from: number, to: number): { docs: Int32Array; gain: Float64Array } {
    const a = this.start[from]!;
    const count = this.start[to]! - a;
    if (count < 0) throw new Error('index file: bad postings');
    const docs = typed(Int32Array, this.#bytes.read(this.header.sections.pdocs[0] + 4 * a, 4 * count), 0, count);
    const gain = typed(Float64Array, this.#bytes.read(this.header.sections.gain[0] + 8 * a, 8 * count), 0, count);
    for (let i = 0; i < count; i++) if (docs[i]! < 0 || docs[i]! >= this.header.n) throw new Error('index file: posting out of range');
    return { docs, gain };
  }

  /** The postings read term by term as a query asks for them. */
  lazyPostings(): Postings {
    const read = new Map<number, { docs: Int32Array; gain: Float64Array }>();
    return {
      ids: this.ids,
      start: this.start,
      docs: new Int32Array(0),
      gain: new Float64Array(0),
      read: (id) => read.get(id) ?? read.set(id, this.postingsOf(id)).get(id)!,
    };
  }

  /** Document `i`'s slug: from the slugs section once read (`readSlugs`), else from its record. */
  slug(i: number): string {
    return this.#slugs ? this.#slugs[i]! : this.record(i).slug;
  }

  /** Reads every slug at once (a query that looks items up by slug, e.g. the stale ones, reads one section, not every record). */
  readSlugs(): void {
    if (this.#slugs) return;
    const [off, len] = this.header.sections.slugs;
    const slugs = this.header.n ? dec.decode(this.#bytes.read(off, len)).split('\n') : [];
    if (slugs.length !== this.header.n) throw new Error('index file: bad slugs');
    this.#slugs = slugs;
  }

  /** Document `i`'s record, read and checked when first asked for. */
  record(i: number): FileRecord {
    const known = this.#records.get(i);
    if (known) return known;
    const from = this.docAt[i]!;
    const to = this.docAt[i + 1]!;
    if (!(from <= to && to <= this.#recordsLength)) throw new Error('index file: bad records');
    const r = new FileRecord(this.#bytes.read(this.#recordsAt + from, to - from));
    this.#records.set(i, r);
    return r;
  }

  /** Document `i`'s kind, checked. */
  kind(i: number): string {
    const k = this.header.kindNames[this.kindOf[i]!];
    if (typeof k !== 'string') throw new Error('index file: bad documents');
    return k;
  }
}

function readAll(fd: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const buf = new Uint8Array(1 << 20);
    const got = readSync(fd, buf, 0, buf.length, null);
    if (got === 0) break;
    chunks.push(buf.subarray(0, got));
    total += got;
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

function truncated(): never {
  throw new Error('index file: truncated');
}

/** The end of the vocabulary's text within `head` (it is padded with zero bytes up to `start`). */
function indexOfEnd(head: Uint8Array, end: number): number {
  let e = end;
  while (e > 0 && head[e - 1] === 0) e--;
  return e;
}
