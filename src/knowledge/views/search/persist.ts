import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writevSync } from 'node:fs';
import { join } from 'node:path';
import type { KindName } from '../../../model/kind.ts';
import { removeOrphanTemps, tempBeside } from '../../../store/temp-files.ts';
import type { MergedState } from '../../core/merged-state.ts';
import { type Doc, type Index, indexFrom, type Source } from './build-index.ts';
import { encodeIndex } from './encode-index.ts';
import { FileDoc } from './file-doc.ts';
import { IndexFile } from './index-file.ts';
import { readAsLive } from './live-index.ts';

/**
 * The search index on disk: one file per memory tip (and workspace commit merged in), under
 * `<git common dir>/axme/search/<key>.idx` (its layout: index-file-layout.ts): the postings term by
 * term, and per document its terms, their frequencies, its field lengths and the token positions
 * proximity reads, and what a query prints of it (kind, id, title, status, path, marks, its text
 * for the snippet), so that a query at the tip reads the parts of this file it needs and no item
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
export const INDEX_VERSION = 13;
/** The ICU the runtime carries cuts Thai, Lao, Khmer and Burmese text into words (analyze.ts): a file written by another is not read. */
const MAGIC = `axme-search-index ${typeof AXME_SEARCH_CODE === 'string' ? AXME_SEARCH_CODE : 'source'} icu ${process.versions.icu ?? 'none'}`;
/** Index files kept (the newest by time): a tip and a few before it, for `--at` and other worktrees. */
const KEEP = 4;
const KEY_RE = /^[a-z0-9-]+$/;

export const searchDir = (axmeDir: string) => join(axmeDir, 'search');

/** What an index key holds in place of a workspace commit when no workspace knowledge is merged in. */
const NO_WORKSPACE = 'none';

/** The index key of a state (its file's name): its memory tree and the workspace commit merged in (`none` outside a workspace). */
export const indexKey = (state: Pick<MergedState, 'snapshot' | 'workspace'>) => `${state.snapshot.tree}-${state.workspace?.commit ?? NO_WORKSPACE}`;

/** Whether `key` (indexKey) is the key of the store alone: no workspace knowledge merged in. */
export const keyOfStoreAlone = (key: string): boolean => key.endsWith(`-${NO_WORKSPACE}`);

/** The index stored under `key` for the items `sources` (sources.ts; `glossary` its synonym groups), or undefined when there is none or it cannot be trusted. */
export function readIndex(dir: string, key: string, sources: readonly Source[], glossary: string[][]): Index | undefined {
  const f = openIndexFile(dir, key, true);
  if (!f) return undefined;
  try {
    f.readSlugs();
    if (sources.length !== f.header.n || sources.some((s, i) => s.item.slug !== f.slug(i))) return undefined;
    const flat = f.allPostings();
    const docs = sources.map((src, i): Doc => new FileDoc(f, i, src));
    const index = indexFrom(docs, () => flat, glossary, docs.length);
    // read as an index a write was laid over, with nothing changed: the next write is laid over it as over any other
    readAsLive(index, flat);
    return index;
  } catch {
    return undefined;
  }
}

/** A query's view of the index at the tip */
export interface TipIndex {
  index: Index;
  /** whether its items' staleness must be looked up */
  anchored: boolean;
  /** whether the tree's axme.yaml configures embeddings */
  embeddings: boolean;
  /** reads every slug in one go (before looking many documents up by slug) */
  readSlugs: () => void;
  /** closes the file: call when the query is done */
  close: () => void;
  /** how many of the file's bytes were read so far, and its size */
  reads: () => { read: number; size: number };
}

/**
 * The index at the tip: `key`'s file opened for positioned reads, its header and head section
 * read (the terms, where each term's postings and each document's record start, every
 * document's flags and kind); the postings of a term and a document's record read when a query
 * first asks for them (index-file.ts). No item is read.
 */
export function readTipIndex(dir: string, key: string): TipIndex | undefined {
  const f = openIndexFile(dir, key, false);
  if (!f) return undefined;
  try {
    const h = f.header;
    const docs: Doc[] = new Array(h.n);
    for (let i = 0; i < docs.length; i++) docs[i] = new FileDoc(f, i);
    const decisions = new Map(h.successors.map((slug, j) => [slug, h.successorAt[j]!]));
    const postings = f.lazyPostings();
    const index = indexFrom(docs, () => postings, h.glossary, docs.length, { decisions, superseded: [...h.superseded], synonyms: new Map(h.synonyms) });
    index.related = new Map(h.related);
    return { index, anchored: h.anchored, embeddings: h.embeddings, readSlugs: () => f.readSlugs(), close: () => f.close(), reads: () => f.reads };
  } catch {
    f.close();
    return undefined;
  }
}

function openIndexFile(dir: string, key: string, whole: boolean): IndexFile | undefined {
  if (!KEY_RE.test(key)) return undefined;
  try {
    return IndexFile.open(join(dir, `${key}.idx`), whole, (h) => h.magic === MAGIC && h.version === INDEX_VERSION && h.key === key);
  } catch {
    return undefined;
  }
}

/** True when a file of this format for `key` is there: its header read and checked (a file another version of axme wrote is none). */
export function hasReadableIndexFile(dir: string, key: string): boolean {
  const f = openIndexFile(dir, key, false);
  f?.close();
  return f !== undefined;
}

/** True when a file for `key` is there (read or not). */
export function hasIndexFile(dir: string, key: string): boolean {
  return KEY_RE.test(key) && existsSync(join(dir, `${key}.idx`));
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
    const f = last && openIndexFile(dir, last.key, true);
    if (!f) return undefined;
    // the previous tip's items are not at hand: each stored document stands for the item of its slug now, and
    // `buildIndex` takes it only where its print (of the item's text and marks when stored) is the item's now
    f.readSlugs();
    const bySlug = new Map(Array.from({ length: f.header.n }, (_, i) => [f.slug(i), i]));
    const docs: Doc[] = [];
    for (const src of sources) {
      const i = bySlug.get(src.item.slug);
      // the marks are the item's as it is now: the record's print (of the text and marks then) tells whether they are the same
      if (i !== undefined) docs.push(new FileDoc(f, i, src));
    }
    return {
      docs,
      postings: { ids: new Map(), start: new Int32Array(1), docs: new Int32Array(0), gain: new Float64Array(0) },
      decisions: new Map(),
      superseded: [],
      synonyms: new Map(),
    };
  } catch {
    return undefined;
  }
}

/**
 * Stores `index` under `key` (`anchored`: whether an item has anchors, sources.ts
 * `isAnchored`, sources.ts; `embeddings`: whether the tree's axme.yaml configures them) and, when `newest` (the tip's), names it the newest with its memory commit; a
 * cache that cannot be written only costs time. How many documents' records were encoded anew
 * (the unchanged ones are copied from the file they came from), or undefined when nothing was written.
 */
export function writeIndex(
  dir: string,
  key: string,
  index: Index,
  opts: { anchored: boolean; embeddings: boolean; newest?: { commit: string | null } | undefined },
): { encoded: number } | undefined {
  if (!KEY_RE.test(key)) return undefined;
  const { newest } = opts;
  try {
    mkdirSync(dir, { recursive: true });
    const { chunks, encoded } = encodeIndex(MAGIC, INDEX_VERSION, key, index, opts);
    atomic(join(dir, `${key}.idx`), chunks);
    if (newest) writeLast(dir, key, newest.commit);
    prune(dir, '.idx');
    return { encoded };
  } catch {
    // derived data: the next query builds it again
    return undefined;
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

function atomic(file: string, data: string | Uint8Array[]): void {
  const tmp = tempBeside(file);
  if (typeof data === 'string') writeFileSync(tmp, data);
  else {
    const fd = openSync(tmp, 'w');
    try {
      // the chunks (one a document record: thousands) handed over in batches, not one system call each, nor copied into one buffer
      for (let i = 0; i < data.length; i += WRITE_BATCH) writeAll(fd, data.slice(i, i + WRITE_BATCH));
    } finally {
      closeSync(fd);
    }
  }
  renameSync(tmp, file);
}

/** Chunks one `writevSync` takes (the system's limit on a call's buffers is 1024 on Linux). */
const WRITE_BATCH = 1024;

/** Writes `chunks` at the file's position, again from where a short write stopped. */
function writeAll(fd: number, chunks: Uint8Array[]): void {
  let rest = chunks;
  while (rest.length) {
    let n = writevSync(fd, rest);
    let k = 0;
    while (k < rest.length && n >= rest[k]!.length) n -= rest[k++]!.length;
    rest = rest.slice(k);
    if (n > 0) rest[0] = rest[0]!.subarray(n);
  }
}

/** Removes all but the KEEP newest files of `dir` ending in `suffix`. */
function prune(dir: string, suffix: string): void {
  const entries = readdirSync(dir);
  removeOrphanTemps(dir, entries);
  const names = entries.filter((n) => n.endsWith(suffix));
  if (names.length <= KEEP) return;
  const dated = names.map((n) => ({ n, t: statSync(join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 })).sort((a, b) => b.t - a.t);
  for (const { n } of dated.slice(KEEP)) rmSync(join(dir, n), { force: true });
}
