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
declare const AXME_SEARCH_CODE: string | undefined;
/**
 * Bump when the index's shape or the analysis (tokens, stems, weights, synonyms) changes: old
 * files are then ignored. A build also stamps the files with a digest of the search code
 * (`AXME_SEARCH_CODE`, scripts/build.mjs), so that a file written by other analysis code is
 * never read even where this number was not bumped.
 */
export const INDEX_VERSION = 2;
const MAGIC = `axme-search-index ${typeof AXME_SEARCH_CODE === 'string' ? AXME_SEARCH_CODE : 'source'}`;
/** Index files kept (the newest by time): a tip and a few before it, for `--at` and other worktrees. */
const KEEP = 4;
const KEY_RE = /^[a-z0-9-]+$/;

/** What the file holds: flat arrays, cheap to deserialize (one object per document would not be). */
interface Stored {
  magic: string;
  version: number;
  key: string;
  /** how many documents */
  n: number;
  /**
   * Every document's strings (`STRINGS` of each, in order) end to end in one string, document
   * `i`'s string `f` from `strAt[i * STRINGS.length + f]`: one string deserializes in a copy,
   * 100,000 small ones do not. The slug is checked against the state's items; the print (`printOf`
   * its source when stored) tells an unchanged item after a write; the rest is what a hit shows.
   */
  strs: string;
  strAt: Int32Array;
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
  /** per document, `FLAG_*` bits, and its kind (a position in `kindNames`) */
  flags: Uint8Array;
  kindOf: Uint8Array;
  kindNames: string[];
  /** the superseded documents' positions, and the decisions their `superseded_by` names by slug with their positions: all the ranking looks up (`Index.decisions`) */
  superseded: Int32Array;
  successors: string[];
  successorAt: Int32Array;
  /** the glossary's synonym groups, and the synonym table (the software's and the glossary's, analyzed: JSON of its entries) */
  glossary: string[][];
  synonyms: string;
  /** true when an item of the tree has anchors: its staleness must be looked up (`readStale`) */
  anchored: boolean;
  /** true when the tree's axme.yaml configures embeddings: a query must go through the state (search.ts) */
  embeddings: boolean;
}

/** A document's strings in `Stored.strs`, in order ('' for none: an id, a superseding decision, a store). */
const STRINGS = ['slug', 'print', 'id', 'title', 'status', 'path', 'supersededBy', 'store', 'texts'] as const;
const S = Object.fromEntries(STRINGS.map((f, i) => [f, i])) as Record<(typeof STRINGS)[number], number>;
/** Document `i`'s string `f` (STRINGS). */
const strOf = (v: Stored, i: number, f: number) => v.strs.slice(v.strAt[i * STRINGS.length + f]!, v.strAt[i * STRINGS.length + f + 1]!);

const FLAG_CURRENT = 1;
const FLAG_REVOKED = 2;

export const searchDir = (axmeDir: string) => join(axmeDir, 'search');

/** The file name's key of a state: its memory tree and the workspace commit merged in. */
export const indexKey = (tree: string, workspace: string | null | undefined) => `${tree}-${workspace ?? 'none'}`;

/** The index stored under `key` for the items `sources` (sources.ts; `glossary` its synonym groups), or undefined when there is none or it cannot be trusted. */
export function readIndex(dir: string, key: string, sources: readonly Source[], glossary: string[][]): Index | undefined {
  const v = readStored(dir, key);
  if (!v) return undefined;
  if (sources.length !== v.n || sources.some((s, i) => s.item.slug !== strOf(v, i, S.slug))) return undefined;
  const docs = sources.map((src, i): Doc => new StoredDoc(v, i, src));
  return indexFrom(docs, () => postingsOf(v), glossary, docs.length);
}

/** The index at the tip: `key`'s file alone, every document's marks and text read from it; and whether its items' staleness must be looked up. */
export function readTipIndex(dir: string, key: string): { index: Index; anchored: boolean; embeddings: boolean } | undefined {
  const v = readStored(dir, key);
  if (!v) return undefined;
  const docs: Doc[] = new Array(v.n);
  for (let i = 0; i < docs.length; i++) docs[i] = new StoredDoc(v, i);
  const decisions = new Map(v.successors.map((slug, j) => [slug, v.successorAt[j]!]));
  const synonyms = new Map(JSON.parse(v.synonyms) as Array<[string, string[][]]>);
  return { index: indexFrom(docs, () => postingsOf(v), v.glossary, docs.length, { decisions, superseded: [...v.superseded], synonyms }), anchored: v.anchored, embeddings: v.embeddings };
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
    const bySlug = new Map(Array.from({ length: v.n }, (_, i) => [strOf(v, i, S.slug), i]));
    const docs: Doc[] = [];
    for (const src of sources) {
      const i = bySlug.get(src.item.slug);
      if (i === undefined) continue;
      // the marks are the item's as it is now: the print (of the text and marks then) tells whether they are the same
      const d = new StoredDoc(v, i, src);
      d.print = strOf(v, i, S.print);
      docs.push(d);
    }
    return { docs, postings: { ids: new Map(), start: new Int32Array(1), docs: new Int32Array(0), gain: new Float64Array(0) }, decisions: new Map(), superseded: [], synonyms: new Map() };
  } catch {
    return undefined;
  }
}

/**
 * Stores `index` under `key` (`anchored`: whether an item has anchors, sources.ts
 * hasAnchoredItems; `embeddings`: whether the tree's axme.yaml configures them) and, when `newest` (the tip's), names it the newest with its memory commit; a
 * cache that cannot be written only costs time.
 */
export function writeIndex(dir: string, key: string, index: Index, opts: { anchored: boolean; embeddings: boolean; newest?: { commit: string | null } | undefined }): void {
  if (!KEY_RE.test(key)) return;
  const { newest } = opts;
  try {
    mkdirSync(dir, { recursive: true });
    atomic(join(dir, `${key}.idx`), serialize(storedOf(key, index, opts)));
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

function storedOf(key: string, index: Index, { anchored, embeddings }: { anchored: boolean; embeddings: boolean }): Stored {
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
  const kindNames = [...new Set(docs.map((d) => d.kind))];
  const named = new Set(index.superseded.map((i) => docs[i]!.supersededBy!));
  const successors = [...index.decisions].filter(([slug]) => named.has(slug));
  return {
    magic: MAGIC,
    version: INDEX_VERSION,
    key,
    n,
    ...stringsOf(docs),
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
    flags,
    kindOf: Uint8Array.from(docs, (d) => kindNames.indexOf(d.kind)),
    kindNames,
    superseded: Int32Array.from(index.superseded),
    successors: successors.map(([slug]) => slug),
    successorAt: Int32Array.from(successors, ([, at]) => at),
    glossary: index.glossary ?? [],
    synonyms: JSON.stringify([...index.synonyms]),
    anchored,
    embeddings,
  };
}

/** The documents' strings end to end (`Stored.strs`) and where each starts. */
function stringsOf(docs: readonly Doc[]): { strs: string; strAt: Int32Array } {
  const parts: string[] = [];
  const strAt = new Int32Array(docs.length * STRINGS.length + 1);
  let at = 0;
  let j = 0;
  for (const d of docs) {
    const values: Record<(typeof STRINGS)[number], string> = { slug: d.slug, print: d.print ?? printOf(d), id: d.id ?? '', title: d.title, status: d.status, path: d.path, supersededBy: d.supersededBy ?? '', store: d.store ?? '', texts: JSON.stringify(FIELDS.map((f) => d.parts[f])) };
    for (const f of STRINGS) {
      strAt[j++] = at;
      parts.push(values[f]);
      at += values[f].length;
    }
  }
  strAt[j] = at;
  return { strs: parts.join(''), strAt };
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
  print?: string;
  #v: Stored;
  #i: number;
  #src: Source | undefined;
  #meta?: ReturnType<typeof metaOf>;
  #parts?: Record<Field, readonly string[]>;
  #terms?: string[];
  #tfs?: Float64Array;
  #near?: Uint16Array;
  #len?: Record<Field, number>;
  constructor(v: Stored, i: number, src?: Source) {
    this.#v = v;
    this.#i = i;
    this.#src = src;
  }
  get len(): Record<Field, number> {
    if (!this.#len) {
      const l = this.#v.len;
      const at = this.#i * FIELDS.length;
      this.#len = { title: l[at]!, keys: l[at + 1]!, anchors: l[at + 2]!, body: l[at + 3]! };
    }
    return this.#len;
  }
  get titleEnd(): number {
    return this.#v.titleEnd[this.#i]!;
  }
  /** the item's marks, when the state was read */
  get #item(): ReturnType<typeof metaOf> | undefined {
    return this.#src && (this.#meta ??= metaOf(this.#src));
  }
  get kind(): KindName {
    return this.#item?.kind ?? (this.#v.kindNames[this.#v.kindOf[this.#i]!] as KindName);
  }
  get id(): string | null {
    return this.#item ? this.#item.id : strOf(this.#v, this.#i, S.id) || null;
  }
  get slug(): string {
    return this.#item?.slug ?? strOf(this.#v, this.#i, S.slug);
  }
  get title(): string {
    return this.#item?.title ?? strOf(this.#v, this.#i, S.title);
  }
  get status(): string {
    return this.#item?.status ?? strOf(this.#v, this.#i, S.status);
  }
  get path(): string {
    return this.#item?.path ?? strOf(this.#v, this.#i, S.path);
  }
  get current(): boolean {
    return this.#item ? this.#item.current : (this.#v.flags[this.#i]! & FLAG_CURRENT) !== 0;
  }
  get revoked(): boolean {
    return this.#item ? this.#item.revoked : (this.#v.flags[this.#i]! & FLAG_REVOKED) !== 0;
  }
  get supersededBy(): string | undefined {
    return this.#item ? this.#item.supersededBy : strOf(this.#v, this.#i, S.supersededBy) || undefined;
  }
  get store(): string | undefined {
    return this.#item ? this.#item.store : strOf(this.#v, this.#i, S.store) || undefined;
  }
  get parts(): Record<Field, readonly string[]> {
    if (this.#item) return this.#item.parts;
    if (!this.#parts) {
      const texts = JSON.parse(strOf(this.#v, this.#i, S.texts)) as string[][];
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

/**
 * A check of what came off the disk: the arrays the ranking reads, of the right types, their
 * lengths agreeing, every position in them in range (a position out of range would not throw:
 * typed arrays read it as undefined, and the ranking would silently differ).
 */
function wellFormed(v: Stored): boolean {
  if (!Number.isInteger(v.n) || v.n < 0 || !Array.isArray(v.vocab) || typeof v.strs !== 'string' || !(v.strAt instanceof Int32Array)) return false;
  const typed = v.start instanceof Int32Array && v.pdocs instanceof Int32Array && v.gain instanceof Float64Array && v.termStart instanceof Int32Array && v.termIds instanceof Int32Array && v.tfs instanceof Float64Array && v.nearStart instanceof Int32Array && v.near instanceof Uint16Array && v.titleEnd instanceof Int32Array && v.len instanceof Int32Array;
  if (!typed) return false;
  const n = v.n;
  const t = v.vocab.length;
  if (v.start.length !== t + 1 || v.start[t] !== v.pdocs.length || v.pdocs.length !== v.gain.length) return false;
  if (v.termStart.length !== n + 1 || v.termStart[n] !== v.termIds.length || v.tfs.length !== v.termIds.length || v.nearStart.length !== n + 1 || v.nearStart[n] !== v.near.length) return false;
  if (v.titleEnd.length !== n || v.len.length !== n * FIELDS.length) return false;
  if (!(v.flags instanceof Uint8Array) || v.flags.length !== n || !(v.kindOf instanceof Uint8Array) || v.kindOf.length !== n || !Array.isArray(v.kindNames)) return false;
  if (!(v.superseded instanceof Int32Array) || !(v.successorAt instanceof Int32Array) || !Array.isArray(v.successors) || v.successors.length !== v.successorAt.length) return false;
  if (typeof v.anchored !== 'boolean' || typeof v.synonyms !== 'string' || typeof v.embeddings !== 'boolean' || !Array.isArray(v.glossary)) return false;
  const { strAt } = v;
  if (strAt.length !== n * STRINGS.length + 1 || strAt[0] !== 0 || strAt[strAt.length - 1] !== v.strs.length) return false;
  for (let i = 0; i < n; i++) if (v.kindOf[i]! >= v.kindNames.length) return false;
  for (const at of [...v.superseded, ...v.successorAt]) if (at < 0 || at >= n) return false;
  for (let i = 1; i < strAt.length; i++) if (strAt[i]! < strAt[i - 1]!) return false;
  for (let i = 0; i < v.pdocs.length; i++) if (v.pdocs[i]! >= n || v.pdocs[i]! < 0) return false;
  for (let i = 0; i < v.termIds.length; i++) if (v.termIds[i]! >= t || v.termIds[i]! < 0) return false;
  return true;
}
