import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { MergedState } from '../../core/merged-state.ts';
import { FIELDS, type Field } from './fields.ts';
import { indexOf, metaOf, printOf, sourcesOf, type Doc, type Index, type Postings } from './build-index.ts';

/**
 * The search index on disk: one file per memory tip (and workspace commit merged in), under
 * `<git common dir>/axme/search/<key>.idx`, a `v8.serialize` buffer of a few flat arrays: the
 * postings, and per document its terms (as term ids), their frequencies, its field lengths and
 * the token positions proximity reads. What the items themselves say (titles, text for snippets,
 * status) is taken from the state already read, not stored twice. Derived
 * and machine-local: never committed, safe to delete. Written atomically (temp file + rename);
 * a file that is damaged, of another format version or of another key is ignored (a miss).
 * `last` names the newest file: after a write, the next index is made from it (buildIndex's
 * `previous`), only the changed items tokenized again.
 */
const MAGIC = 'axme-search-index';
/** Bump when the index's shape or the analysis (tokens, stems, weights) changes: old files are then ignored. */
export const INDEX_VERSION = 1;
/** Index files kept (the newest by time): a tip and a few before it, for `--at` and other worktrees. */
const KEEP = 4;
const KEY_RE = /^[a-z0-9-]+$/;

/** What the file holds: flat arrays, cheap to deserialize (one object per document would not be). */
interface Stored {
  magic: string;
  version: number;
  key: string;
  /** the documents' slugs, in order: checked against the state's items */
  slugs: string[];
  /** per document, `printOf` its source when stored: tells an unchanged item after a write */
  prints: string[];
  /** the terms in postings order */
  vocab: string[];
  start: Int32Array;
  pdocs: Int32Array;
  gain: Float64Array;
  /** per document: its terms (ids into `vocab`) and their packed frequencies from `termStart[i]`, its positions from `nearStart[i]` */
  termStart: Int32Array;
  termIds: Int32Array;
  tfs: Float64Array;
  nearStart: Int32Array;
  near: Uint16Array;
  titleEnd: Int32Array;
  /** four a document, FIELDS order */
  len: Int32Array;
}

export const searchDir = (axmeDir: string) => join(axmeDir, 'search');

/** The file name's key of a state: its memory tree and the workspace commit merged in. */
export const indexKey = (tree: string, workspace: string | null | undefined) => `${tree}-${workspace ?? 'none'}`;

/** The index stored under `key` for `state`, or undefined when there is none or it cannot be trusted. */
export function readIndex(dir: string, key: string, state: MergedState): Index | undefined {
  const v = readStored(dir, key);
  if (!v) return undefined;
  const sources = sourcesOf(state);
  if (sources.length !== v.slugs.length || sources.some((s, i) => s.item.slug !== v.slugs[i])) return undefined;
  const ids = new Map<string, number>();
  v.vocab.forEach((t, i) => ids.set(t, i));
  const postings: Postings = { ids, start: v.start, docs: v.pdocs, gain: v.gain };
  const docs = sources.map((src, i): Doc => new StoredDoc(v, i, metaOf(src)));
  return indexOf(state, docs, () => postings, docs.length);
}

function readStored(dir: string, key: string): Stored | undefined {
  if (!KEY_RE.test(key)) return undefined;
  try {
    const v = deserialize(readFileSync(join(dir, `${key}.idx`))) as Stored;
    return v && v.magic === MAGIC && v.version === INDEX_VERSION && v.key === key && wellFormed(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The index the newest file holds (the previous tip's after a write), or undefined: its documents' own fields only, for `buildIndex`'s `previous`. */
export function readLastIndex(dir: string, state: MergedState): Index | undefined {
  try {
    const key = readFileSync(join(dir, 'last'), 'utf8').trim();
    const v = readStored(dir, key);
    if (!v) return undefined;
    // the previous tip's items are not at hand: each stored document stands for the item of its slug now, and
    // `buildIndex` takes it only where its print (of the item's text and marks when stored) is the item's now
    const sources = sourcesOf(state);
    const bySlug = new Map(v.slugs.map((s, i) => [s, i]));
    const docs: Doc[] = [];
    for (const src of sources) {
      const i = bySlug.get(src.item.slug);
      if (i === undefined) continue;
      // the marks are the item's as it is now: the print (of the text and marks then) tells whether they are the same
      const d = new StoredDoc(v, i, metaOf(src));
      d.print = v.prints[i]!;
      docs.push(d);
    }
    return { docs, postings: { ids: new Map(), start: new Int32Array(1), docs: new Int32Array(0), gain: new Float64Array(0) }, decisions: new Map(), superseded: [], synonyms: new Map() };
  } catch {
    return undefined;
  }
}

/** Stores `index` under `key` and, when `newest`, names it the newest; a cache that cannot be written only costs time. */
export function writeIndex(dir: string, key: string, index: Index, newest = true): void {
  if (!KEY_RE.test(key)) return;
  try {
    mkdirSync(dir, { recursive: true });
    atomic(join(dir, `${key}.idx`), serialize(storedOf(key, index)));
    if (newest) atomic(join(dir, 'last'), key);
    prune(dir);
  } catch {
    // derived data: the next query builds it again
  }
}

function storedOf(key: string, index: Index): Stored {
  const { docs, postings } = index;
  const vocab: string[] = new Array(postings.ids.size);
  for (const [t, id] of postings.ids) vocab[id] = t;
  const n = docs.length;
  const termStart = new Int32Array(n + 1);
  const nearStart = new Int32Array(n + 1);
  docs.forEach((d, i) => {
    termStart[i + 1] = termStart[i]! + d.terms.length;
    nearStart[i + 1] = nearStart[i]! + d.near.length;
  });
  const termIds = new Int32Array(termStart[n]!);
  const tfs = new Float64Array(termStart[n]!);
  const near = new Uint16Array(nearStart[n]!);
  const titleEnd = new Int32Array(n);
  const len = new Int32Array(n * FIELDS.length);
  docs.forEach((d, i) => {
    const at = termStart[i]!;
    d.terms.forEach((t, j) => (termIds[at + j] = postings.ids.get(t)!));
    tfs.set(d.tfs, at);
    near.set(d.near, nearStart[i]!);
    titleEnd[i] = d.titleEnd;
    FIELDS.forEach((f, j) => (len[i * FIELDS.length + j] = d.len[f]));
  });
  return { magic: MAGIC, version: INDEX_VERSION, key, slugs: docs.map((d) => d.slug), prints: docs.map((d) => d.print ?? printOf(d)), vocab, start: postings.start, pdocs: postings.docs, gain: postings.gain, termStart, termIds, tfs, nearStart, near, titleEnd, len };
}

function atomic(file: string, data: string | Buffer): void {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

function prune(dir: string): void {
  const names = readdirSync(dir).filter((n) => n.endsWith('.idx'));
  if (names.length <= KEEP) return;
  const dated = names.map((n) => ({ n, t: statSync(join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 })).sort((a, b) => b.t - a.t);
  for (const { n } of dated.slice(KEEP)) rmSync(join(dir, n), { force: true });
}

/** A document read from the file: its marks from the item, its terms and positions read from the flat arrays when first asked for. */
class StoredDoc implements Doc {
  kind!: Doc['kind'];
  id!: string | null;
  slug!: string;
  title!: string;
  status!: string;
  path!: string;
  current!: boolean;
  revoked!: boolean;
  parts!: Record<Field, readonly string[]>;
  supersededBy?: string | undefined;
  store?: string | undefined;
  len: Record<Field, number>;
  titleEnd: number;
  print?: string;
  #v: Stored;
  #i: number;
  #terms?: string[];
  #tfs?: Float64Array;
  #near?: Uint16Array;
  constructor(v: Stored, i: number, meta: ReturnType<typeof metaOf>) {
    Object.assign(this, meta);
    this.#v = v;
    this.#i = i;
    const l = v.len;
    const at = i * FIELDS.length;
    this.len = { title: l[at]!, keys: l[at + 1]!, anchors: l[at + 2]!, body: l[at + 3]! };
    this.titleEnd = v.titleEnd[i]!;
  }
  get terms(): string[] {
    if (!this.#terms) {
      const { termStart, termIds, vocab } = this.#v;
      const out: string[] = [];
      for (let j = termStart[this.#i]!; j < termStart[this.#i + 1]!; j++) out.push(vocab[termIds[j]!]!);
      this.#terms = out;
    }
    return this.#terms;
  }
  get tfs(): Float64Array {
    return (this.#tfs ??= this.#v.tfs.subarray(this.#v.termStart[this.#i]!, this.#v.termStart[this.#i + 1]!));
  }
  get near(): Uint16Array {
    return (this.#near ??= this.#v.near.subarray(this.#v.nearStart[this.#i]!, this.#v.nearStart[this.#i + 1]!));
  }
}

/** A cheap check of what came off the disk: the arrays the ranking reads, of the right types, their lengths agreeing. */
function wellFormed(v: Stored): boolean {
  if (!Array.isArray(v.slugs) || !Array.isArray(v.vocab) || !Array.isArray(v.prints) || v.prints.length !== v.slugs.length) return false;
  const typed = v.start instanceof Int32Array && v.pdocs instanceof Int32Array && v.gain instanceof Float64Array && v.termStart instanceof Int32Array && v.termIds instanceof Int32Array && v.tfs instanceof Float64Array && v.nearStart instanceof Int32Array && v.near instanceof Uint16Array && v.titleEnd instanceof Int32Array && v.len instanceof Int32Array;
  if (!typed) return false;
  const n = v.slugs.length;
  const t = v.vocab.length;
  if (v.start.length !== t + 1 || v.start[t] !== v.pdocs.length || v.pdocs.length !== v.gain.length) return false;
  if (v.termStart.length !== n + 1 || v.termStart[n] !== v.termIds.length || v.tfs.length !== v.termIds.length || v.nearStart.length !== n + 1 || v.nearStart[n] !== v.near.length) return false;
  if (v.titleEnd.length !== n || v.len.length !== n * FIELDS.length) return false;
  for (let i = 0; i < v.pdocs.length; i++) if (v.pdocs[i]! >= n || v.pdocs[i]! < 0) return false;
  for (let i = 0; i < v.termIds.length; i++) if (v.termIds[i]! >= t || v.termIds[i]! < 0) return false;
  return true;
}
