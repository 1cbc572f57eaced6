import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { KindName } from '../../../model/kind.ts';
import { FIELDS, type Field } from './fields.ts';
import { indexFrom, metaOf, printOf, type Doc, type Index, type Postings, type Source } from './build-index.ts';

/**
 * The search index on disk: one file per memory tip (and workspace commit merged in), under
 * `<git common dir>/axme/search/<key>.idx`, a `v8.serialize` buffer of a few flat arrays: the
 * postings, and per document its terms (as term ids), their frequencies, its field lengths and
 * the token positions proximity reads; and what a query prints of each (kind, id, title, status,
 * path, marks, its text for the snippet), so that a query at the tip reads this file and no item
 * (tip-search.ts). Derived and machine-local: never committed, safe to delete. Written atomically (temp file + rename);
 * a file that is damaged, of another format version or of another key is ignored (a miss).
 * `last` names the newest file: after a write, the next index is made from it (buildIndex's
 * `previous`), only the changed items tokenized again.
 */
const MAGIC = 'axme-search-index';
/** Bump when the index's shape or the analysis (tokens, stems, weights) changes: old files are then ignored. */
export const INDEX_VERSION = 2;
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
  /** per document, what a hit shows: its kind, `FLAG_*` bits, id ('' for none), title, status, path, superseding decision and store ('' for none), and its text by field (JSON, FIELDS order) */
  kinds: string[];
  flags: Uint8Array;
  ids: string[];
  titles: string[];
  statuses: string[];
  paths: string[];
  supersededBy: string[];
  stores: string[];
  texts: string[];
  /** the glossary's synonym groups (the rest of the synonym table is the code's) */
  glossary: string[][];
  /** true when an item of the tree has anchors: its staleness must be looked up (`readStale`) */
  anchored: boolean;
}

const FLAG_CURRENT = 1;
const FLAG_REVOKED = 2;

export const searchDir = (axmeDir: string) => join(axmeDir, 'search');

/** The file name's key of a state: its memory tree and the workspace commit merged in. */
export const indexKey = (tree: string, workspace: string | null | undefined) => `${tree}-${workspace ?? 'none'}`;

/** The index stored under `key` for the items `sources` (sources.ts; `glossary` its synonym groups), or undefined when there is none or it cannot be trusted. */
export function readIndex(dir: string, key: string, sources: readonly Source[], glossary: string[][]): Index | undefined {
  const v = readStored(dir, key);
  if (!v) return undefined;
  if (sources.length !== v.slugs.length || sources.some((s, i) => s.item.slug !== v.slugs[i])) return undefined;
  const docs = sources.map((src, i): Doc => new StoredDoc(v, i, src));
  return indexFrom(docs, () => postingsOf(v), glossary, docs.length);
}

/** The index at the tip: `key`'s file alone, every document's marks and text read from it; and whether its items' staleness must be looked up. */
export function readTipIndex(dir: string, key: string): { index: Index; anchored: boolean } | undefined {
  const v = readStored(dir, key);
  if (!v) return undefined;
  const docs: Doc[] = new Array(v.slugs.length);
  for (let i = 0; i < docs.length; i++) docs[i] = new StoredDoc(v, i);
  return { index: indexFrom(docs, () => postingsOf(v), v.glossary, docs.length), anchored: v.anchored };
}

function postingsOf(v: Stored): Postings {
  const ids = new Map<string, number>();
  v.vocab.forEach((t, i) => ids.set(t, i));
  return { ids, start: v.start, docs: v.pdocs, gain: v.gain };
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

/** The newest tip's key and memory commit, as `last` names them (undefined when unreadable). */
export function readLast(dir: string): { key: string; commit: string | null } | undefined {
  try {
    const [key, commit] = readFileSync(join(dir, 'last'), 'utf8').split('\n');
    return key && KEY_RE.test(key) ? { key, commit: commit && /^[0-9a-f]{40,64}$/.test(commit) ? commit : null } : undefined;
  } catch {
    return undefined;
  }
}

/** Names `key` (of memory commit `commit`) the newest tip, for the next process's query at the tip and its next incremental index. */
export function writeLast(dir: string, key: string, commit: string | null): void {
  if (!KEY_RE.test(key)) return;
  try {
    mkdirSync(dir, { recursive: true });
    atomic(join(dir, 'last'), commit ? `${key}\n${commit}\n` : `${key}\n`);
  } catch {
    // derived data
  }
}

/** The index the newest file holds (the previous tip's after a write), or undefined: its documents' own fields only, for `buildIndex`'s `previous`. */
export function readLastIndex(dir: string, sources: readonly Source[]): Index | undefined {
  try {
    const last = readLast(dir);
    const v = last && readStored(dir, last.key);
    if (!v) return undefined;
    // the previous tip's items are not at hand: each stored document stands for the item of its slug now, and
    // `buildIndex` takes it only where its print (of the item's text and marks when stored) is the item's now
    const bySlug = new Map(v.slugs.map((s, i) => [s, i]));
    const docs: Doc[] = [];
    for (const src of sources) {
      const i = bySlug.get(src.item.slug);
      if (i === undefined) continue;
      // the marks are the item's as it is now: the print (of the text and marks then) tells whether they are the same
      const d = new StoredDoc(v, i, src);
      d.print = v.prints[i]!;
      docs.push(d);
    }
    return { docs, postings: { ids: new Map(), start: new Int32Array(1), docs: new Int32Array(0), gain: new Float64Array(0) }, decisions: new Map(), superseded: [], synonyms: new Map() };
  } catch {
    return undefined;
  }
}

/**
 * Stores `index` under `key` (`anchored`: whether an item has anchors, sources.ts
 * hasAnchoredItems) and, when `newest` (the tip's), names it the newest with its memory commit; a
 * cache that cannot be written only costs time.
 */
export function writeIndex(dir: string, key: string, index: Index, opts: { anchored: boolean; newest?: { commit: string | null } | undefined }): void {
  if (!KEY_RE.test(key)) return;
  const { newest } = opts;
  try {
    mkdirSync(dir, { recursive: true });
    atomic(join(dir, `${key}.idx`), serialize(storedOf(key, index, opts.anchored)));
    if (newest) writeLast(dir, key, newest.commit);
    prune(dir, '.idx');
  } catch {
    // derived data: the next query builds it again
  }
}

/** One stale item as a hit shows it. */
export interface StaleMark {
  kind: KindName;
  slug: string;
  reason: string;
}

const staleFile = (dir: string, key: string, head: string) => join(dir, `stale-${key}-${head}.json`);

/** The stale items of the tree of `key` against the code at `head` (a commit, or `none`), as a query left them; undefined when none did. */
export function readStale(dir: string, key: string, head: string): StaleMark[] | undefined {
  if (!KEY_RE.test(key) || !KEY_RE.test(head)) return undefined;
  try {
    const v = JSON.parse(readFileSync(staleFile(dir, key, head), 'utf8')) as { version?: unknown; marks?: unknown };
    if (v.version !== INDEX_VERSION || !Array.isArray(v.marks)) return undefined;
    const marks = v.marks as StaleMark[];
    return marks.every((m) => m && typeof m.kind === 'string' && typeof m.slug === 'string' && typeof m.reason === 'string') ? marks : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the stale items of `key`'s tree against `head`, for the next query at the tip (tip-search.ts). */
export function writeStale(dir: string, key: string, head: string, marks: readonly StaleMark[]): void {
  if (!KEY_RE.test(key) || !KEY_RE.test(head)) return;
  try {
    mkdirSync(dir, { recursive: true });
    atomic(staleFile(dir, key, head), JSON.stringify({ version: INDEX_VERSION, marks: marks.map(({ kind, slug, reason }) => ({ kind, slug, reason })) }));
    prune(dir, '.json');
  } catch {
    // derived data
  }
}

function storedOf(key: string, index: Index, anchored: boolean): Stored {
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
  const flags = Uint8Array.from(docs, (d) => (d.current ? FLAG_CURRENT : 0) | (d.revoked ? FLAG_REVOKED : 0));
  return {
    magic: MAGIC,
    version: INDEX_VERSION,
    key,
    slugs: docs.map((d) => d.slug),
    prints: docs.map((d) => d.print ?? printOf(d)),
    vocab,
    start: postings.start,
    pdocs: postings.docs,
    gain: postings.gain,
    termStart,
    termIds,
    tfs,
    nearStart,
    near,
    titleEnd,
    len,
    kinds: docs.map((d) => d.kind),
    flags,
    ids: docs.map((d) => d.id ?? ''),
    titles: docs.map((d) => d.title),
    statuses: docs.map((d) => d.status),
    paths: docs.map((d) => d.path),
    supersededBy: docs.map((d) => d.supersededBy ?? ''),
    stores: docs.map((d) => d.store ?? ''),
    texts: docs.map((d) => JSON.stringify(FIELDS.map((f) => d.parts[f]))),
    glossary: index.glossary ?? [],
    anchored,
  };
}

function atomic(file: string, data: string | Buffer): void {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** Removes all but the KEEP newest files of `dir` ending in `suffix`. */
function prune(dir: string, suffix: string): void {
  const names = readdirSync(dir).filter((n) => n.endsWith(suffix));
  if (names.length <= KEEP) return;
  const dated = names.map((n) => ({ n, t: statSync(join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 })).sort((a, b) => b.t - a.t);
  for (const { n } of dated.slice(KEEP)) rmSync(join(dir, n), { force: true });
}

/**
 * A document read from the file: its terms and positions read from the flat arrays when first
 * asked for; its marks and text from the item (`src`, when the state was read) or else from the file.
 */
class StoredDoc implements Doc {
  len: Record<Field, number>;
  titleEnd: number;
  print?: string;
  #v: Stored;
  #i: number;
  #src: Source | undefined;
  #meta?: ReturnType<typeof metaOf>;
  #parts?: Record<Field, readonly string[]>;
  #terms?: string[];
  #tfs?: Float64Array;
  #near?: Uint16Array;
  constructor(v: Stored, i: number, src?: Source) {
    this.#v = v;
    this.#i = i;
    this.#src = src;
    const l = v.len;
    const at = i * FIELDS.length;
    this.len = { title: l[at]!, keys: l[at + 1]!, anchors: l[at + 2]!, body: l[at + 3]! };
    this.titleEnd = v.titleEnd[i]!;
  }
  /** the item's marks, when the state was read */
  get #item(): ReturnType<typeof metaOf> | undefined {
    return this.#src && (this.#meta ??= metaOf(this.#src));
  }
  get kind(): KindName {
    return this.#item?.kind ?? (this.#v.kinds[this.#i] as KindName);
  }
  get id(): string | null {
    return this.#item ? this.#item.id : this.#v.ids[this.#i] || null;
  }
  get slug(): string {
    return this.#item?.slug ?? this.#v.slugs[this.#i]!;
  }
  get title(): string {
    return this.#item?.title ?? this.#v.titles[this.#i]!;
  }
  get status(): string {
    return this.#item?.status ?? this.#v.statuses[this.#i]!;
  }
  get path(): string {
    return this.#item?.path ?? this.#v.paths[this.#i]!;
  }
  get current(): boolean {
    return this.#item ? this.#item.current : (this.#v.flags[this.#i]! & FLAG_CURRENT) !== 0;
  }
  get revoked(): boolean {
    return this.#item ? this.#item.revoked : (this.#v.flags[this.#i]! & FLAG_REVOKED) !== 0;
  }
  get supersededBy(): string | undefined {
    return this.#item ? this.#item.supersededBy : this.#v.supersededBy[this.#i] || undefined;
  }
  get store(): string | undefined {
    return this.#item ? this.#item.store : this.#v.stores[this.#i] || undefined;
  }
  get parts(): Record<Field, readonly string[]> {
    if (this.#item) return this.#item.parts;
    if (!this.#parts) {
      const texts = JSON.parse(this.#v.texts[this.#i]!) as string[][];
      this.#parts = { title: texts[0] ?? [], keys: texts[1] ?? [], anchors: texts[2] ?? [], body: texts[3] ?? [] };
    }
    return this.#parts;
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
  if (!(v.flags instanceof Uint8Array) || v.flags.length !== n || typeof v.anchored !== 'boolean' || !Array.isArray(v.glossary)) return false;
  for (const list of [v.kinds, v.ids, v.titles, v.statuses, v.paths, v.supersededBy, v.stores, v.texts]) if (!Array.isArray(list) || list.length !== n) return false;
  for (let i = 0; i < v.pdocs.length; i++) if (v.pdocs[i]! >= n || v.pdocs[i]! < 0) return false;
  for (let i = 0; i < v.termIds.length; i++) if (v.termIds[i]! >= t || v.termIds[i]! < 0) return false;
  return true;
}
