import type { Doc } from './build-index.ts';
import { FIELDS } from './fields.ts';
import { printOf } from './item-document.ts';

/**
 * One document's record in an index file (index-file.ts), laid out so that ranking reads it
 * without parsing JSON (docs/search.md, "How the index is stored"):
 *
 *   40 bytes  nine Uint32 (little-endian): the JSON's length, the terms' count, the positions'
 *             count, where the title's positions end, the slug-and-terms text's length, the four
 *             field lengths; then 4 bytes unused
 *   terms' frequencies by field (Float64, `packTf`), then the positions the proximity and
 *   passage bonuses read (Uint16, `Doc.near`)
 *   the slug and the terms, `\n` between them (UTF-8): what the bonuses and the tie-break read
 *   JSON (`RecordJson`) of what only a hit prints: parsed for the few documents shown
 *
 * Its terms are strings, not ids into the file's vocabulary, so the record of an unchanged
 * document is copied as it is into the next tip's file.
 */
const PRELUDE = 40;

/** What a record's JSON holds: what a hit prints, and the print of the item it was made from. */
export interface RecordJson {
  print: string;
  id: string | null;
  title: string;
  status: string;
  path: string;
  supersededBy?: string;
  store?: string;
  parts: string[][];
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const pad8 = (n: number) => (n + 7) & ~7;

/** `d`'s record, encoded. */
export function encodeRecord(d: Doc): Uint8Array {
  const json: RecordJson = {
    print: (d.print ??= printOf(d)),
    id: d.id,
    title: d.title,
    status: d.status,
    path: d.path,
    parts: FIELDS.map((f) => [...d.parts[f]]),
  };
  if (d.supersededBy) json.supersededBy = d.supersededBy;
  if (d.store) json.store = d.store;
  const text = enc.encode(JSON.stringify(json));
  const meta = enc.encode([d.slug, ...d.terms].join('\n'));
  const nt = d.terms.length;
  const nn = d.near.length;
  const lens = FIELDS.map((f) => d.len[f]);
  if (lens.some((l) => !Number.isInteger(l) || l < 0 || l > 0xffffffff)) throw new Error('index file: a field length is not a count');
  const out = new Uint8Array(pad8(PRELUDE + nt * 8 + nn * 2 + meta.length + text.length));
  const dv = new DataView(out.buffer);
  [text.length, nt, nn, d.titleEnd, meta.length, ...lens].forEach((v, i) => dv.setUint32(4 * i, v, true));
  new Float64Array(out.buffer, PRELUDE, nt).set(d.tfs);
  new Uint16Array(out.buffer, PRELUDE + nt * 8, nn).set(d.near);
  out.set(meta, PRELUDE + nt * 8 + nn * 2);
  out.set(text, PRELUDE + nt * 8 + nn * 2 + meta.length);
  return out;
}

/** A record read from a file: its numbers at once (checked against its length), its slug and terms, then its JSON, each decoded when first asked for. */
export class FileRecord {
  readonly raw: Uint8Array;
  readonly tfs: Float64Array;
  readonly near: Uint16Array;
  readonly titleEnd: number;
  /** the four field lengths, FIELDS order */
  readonly len: readonly number[];
  readonly #meta: [number, number];
  readonly #json: [number, number];
  #slug?: string;
  #terms?: string[];
  #parsed?: RecordJson;

  /** Throws when the numbers disagree with the record's length. */
  constructor(bytes: Uint8Array) {
    // (records start at multiples of 8 in the file: a copy only for bytes handed over elsewhere)
    const raw = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
    if (raw.length < PRELUDE) throw new Error('index file: bad record');
    const dv = new DataView(raw.buffer, raw.byteOffset, raw.length);
    const u = (i: number) => dv.getUint32(4 * i, true);
    const [jl, nt, nn, titleEnd, ml] = [u(0), u(1), u(2), u(3), u(4)];
    const metaAt = PRELUDE + nt * 8 + nn * 2;
    if (pad8(metaAt + ml + jl) !== raw.length || titleEnd > nn) throw new Error('index file: bad record');
    this.raw = raw;
    this.tfs = new Float64Array(raw.buffer, raw.byteOffset + PRELUDE, nt);
    // Uint16 at an even offset: PRELUDE and nt * 8 are
    this.near = new Uint16Array(raw.buffer, raw.byteOffset + PRELUDE + nt * 8, nn);
    this.titleEnd = titleEnd;
    this.len = [u(5), u(6), u(7), u(8)];
    this.#meta = [metaAt, metaAt + ml];
    this.#json = [metaAt + ml, metaAt + ml + jl];
  }

  get slug(): string {
    if (this.#slug === undefined) this.#readMeta();
    return this.#slug!;
  }

  /** the distinct terms, at the positions of `tfs` */
  get terms(): string[] {
    if (!this.#terms) this.#readMeta();
    return this.#terms!;
  }

  /** what a hit prints (parsed and checked when first asked for) */
  get json(): RecordJson {
    if (this.#parsed) return this.#parsed;
    const json = JSON.parse(dec.decode(this.raw.subarray(...this.#json))) as RecordJson;
    if (!Array.isArray(json.parts) || json.parts.length !== FIELDS.length || typeof json.print !== 'string') throw new Error('index file: bad record');
    this.#parsed = json;
    return json;
  }

  #readMeta(): void {
    const [slug, ...terms] = dec.decode(this.raw.subarray(...this.#meta)).split('\n');
    if (slug === undefined || terms.length !== this.tfs.length) throw new Error('index file: bad record');
    this.#slug = slug;
    this.#terms = terms;
  }
}
