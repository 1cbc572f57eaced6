import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Postings } from './build-index.ts';
import { FileRecord } from './file-record.ts';
import { FileVocabulary } from './file-vocabulary.ts';
import { type Header, PRELUDE } from './index-file-layout.ts';

const dec = new TextDecoder();

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
