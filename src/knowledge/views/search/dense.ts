import * as crypto from 'node:crypto';
import type { KindName } from '../../../model/kind.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import type { Doc, Index } from './build-index.ts';
import { fuseRankings } from './fusion.ts';
import type { Embedder } from './meaning.ts';
import { searchDir } from './persist.ts';
import { factorAt, type Ranked, type StalePredicate, successorOf } from './rank.ts';
import { runningFill, startFill } from './vector-fill.ts';
import { layOutVectors, type VectorTable } from './vector-table.ts';
import { readVectors } from './vectors.ts';

/** How many of each ranking are fused: the word ranking is asked for this many too. */
export const FUSE_DEPTH = 50;
/** What of an item is embedded: its title, keywords and body, cut at this many characters. */
const TEXT_MAX = 4000;

/**
 * The text of an item that is embedded: its title, keys and body, without its display ID (a key
 * for the word ranking, `D-012`: no meaning to embed, and a vector kept by its text's hash stays
 * the one embedded before IDs were keys).
 */
export const embeddedText = (d: Pick<Doc, 'parts' | 'id'>) =>
  [...d.parts.title, ...d.parts.keys.filter((k) => k !== d.id), ...d.parts.body].join('\n').slice(0, TEXT_MAX);
/** The key of a text's vector: its SHA-256, 32 hex digits (`crypto.hash`, node 20.12 and later, hashes a short text in half the time of a Hash object). */
const hashOf = (text: string) =>
  (typeof crypto.hash === 'function' ? crypto.hash('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex')).slice(0, 32);

/** The items' vectors are not all made yet: the query answers by words (`reason` says why). */
export class VectorsLacking extends Error {
  readonly lacking: number;
  readonly items: number;
  constructor(lacking: number, items: number, reason: string) {
    super(reason);
    this.name = 'VectorsLacking';
    this.lacking = lacking;
    this.items = items;
  }
}

/**
 * One vector a document of `index`, in its order. Vectors are kept by the hash of the text
 * embedded (an item whose text did not change is not embedded again, whatever else changed in
 * its file): in memory, on the index, and on disk beside the index (vectors.ts, one file per
 * embedder). After a write only the new and changed items are embedded: incremental. The ones
 * missing are made by a fill (vector-fill.ts: batch by batch, each saved as it arrives), which
 * the query waits for at most `embedder.waitMs` (an endpoint's bound; the local model's is
 * waited for): when vectors still lack then, throws `VectorsLacking` and the fill goes on.
 */
async function vectorsOf(kb: KnowledgeBase, index: Index, embedder: Embedder): Promise<VectorTable> {
  const { key } = embedder;
  if (index.dense?.model === key) return index.dense.vectors;
  const dir = searchDir(kb.repo.axmeDir);
  const memoryKey = `embeddings:${key}`;
  const known = kb.cache.recall<Map<string, Float32Array>>(memoryKey) ?? kb.cache.remember(memoryKey, readVectors(dir, key));
  // the hash of each document's text, kept per document object: after a write only the new documents are hashed
  const hashOfDoc = kb.cache.perObject<string>('search-text-hash');
  const hashes = index.docs.map((d) => hashOfDoc.get(d) ?? (hashOfDoc.set(d, hashOf(embeddedText(d))), hashOfDoc.get(d)!));
  await fillMissing(kb, index, embedder, known, hashes);
  // one table, in the documents' order: the query's cosines run over it in one pass (vector-table.ts);
  // after a write, the previous table's rows copied in blocks where the documents did not change
  const dims = hashes.length ? known.get(hashes[0]!)!.length : 0;
  const tableKey = `embeddings-table:${key}`;
  const vectors = layOutVectors(hashes, (h) => known.get(h)!, dims, kb.cache.recall(tableKey));
  kb.cache.remember(tableKey, { keys: hashes, table: vectors });
  index.dense = { model: key, vectors };
  return vectors;
}

/**
 * Waits, within the embedder's bound, for the fill that makes the vectors `hashes` lack (the one
 * running, else one started; another once that one is over while texts still lack, as after a
 * write); returns when none lacks, throws `VectorsLacking` when some still do.
 */
async function fillMissing(kb: KnowledgeBase, index: Index, embedder: Embedder, known: Map<string, Float32Array>, hashes: readonly string[]): Promise<void> {
  const missingNow = () => {
    const missing = new Map<string, string>();
    hashes.forEach((h, i) => void (known.has(h) || missing.has(h) || missing.set(h, embeddedText(index.docs[i]!))));
    return missing;
  };
  let missing = missingNow();
  const deadline = embedder.waitMs === undefined ? Infinity : Date.now() + embedder.waitMs;
  let failure: Error | undefined;
  while (missing.size && !failure) {
    const fill = runningFill(kb, embedder.key) ?? startFill(kb, embedder, known, missing, hashes);
    if (!(await within(fill.done, deadline - Date.now()))) break;
    failure = fill.failure;
    missing = missingNow();
  }
  if (!missing.size) return;
  const of = `${missing.size} of ${new Set(hashes).size} items`;
  throw new VectorsLacking(
    missing.size,
    hashes.length,
    failure ? `${of} have no vector: ${failure.message}` : `${of} have no vector yet: they are being made in the background`,
  );
}

/** True when `p` settles within `ms` (Infinity: waits for it). */
async function within(p: Promise<void>, ms: number): Promise<boolean> {
  if (ms === Infinity) return p.then(() => true);
  if (ms <= 0) return false;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([p.then(() => true), bound]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The documents closest in meaning to `query`, best first: the cosine of their vectors, lower
 * for revoked, old and stale items as in the word ranking; a superseded decision counts for its
 * live successor (named in `via`). Only `kinds`, when given. The second of the two rankings
 * `withMeaning` fuses (bench/retrieval/fusion-experiment.ts reads it to compare fusion rules).
 */
export async function rankByMeaning(
  kb: KnowledgeBase,
  index: Index,
  embedder: Embedder,
  query: string,
  n: number,
  isStale?: StalePredicate,
  kinds?: ReadonlySet<KindName>,
): Promise<Ranked[]> {
  const vectors = await vectorsOf(kb, index, embedder);
  const q = await embedder.embedQuery(query);
  // the items by cosine, best first, as long as they can enter: a few more than n (vector-table.ts
  // works out the exact cosine of those only); the items' marks only for these
  const best = new Map<number, Ranked>();
  // the best n scores so far, highest first: a factor is at most 1, so once a cosine is below the
  // n-th of them nothing after it can enter
  let top: number[] = [];
  const keep = (score: number) => {
    let at = top.length;
    while (at > 0 && top[at - 1]! < score) at--;
    top.splice(at, 0, score);
    if (top.length > n) top.length = n;
  };
  for (const [i, cos] of vectors.nearest(q, 2 * n)) {
    if (top.length >= n && cos < top[n - 1]!) break;
    const succ = index.docs[i]!.supersededBy ? successorOf(index, i) : undefined;
    const at = succ ?? i;
    const doc = index.docs[at]!;
    if (kinds && !kinds.has(doc.kind)) continue;
    const score = cos * factorAt(index, at, isStale);
    const prev = best.get(at);
    if (prev && prev.score >= score) continue;
    const r: Ranked = { doc, score };
    if (succ !== undefined) r.via = index.docs[i]!.slug;
    best.set(at, r);
    if (prev)
      top = [...best.values()]
        .map((x) => x.score)
        .sort((a, b) => b - a)
        .slice(0, n);
    else keep(score);
  }
  return [...best.values()].sort((x, y) => y.score - x.score || (x.doc.slug < y.doc.slug ? -1 : 1)).slice(0, n);
}

/**
 * How an answer used the ranking by meaning (search's `meaning`, shown by `--json` and the MCP
 * tool): `fused` with the words', or not, and then why and how many items still lack a vector.
 */
export interface MeaningUsed {
  /** the embedder: `endpoint <url> (<model>)`, `model potion-base-8M` */
  embedder: string;
  /** true: fused with the word ranking; false: ranked by words alone */
  fused: boolean;
  /** items without a vector yet (being made in the background, or the endpoint gave up) */
  lacking: number;
  /** why the answer is by words alone */
  reason?: string;
}

/**
 * The word ranking (`FUSE_DEPTH` deep) fused with the ranking by meaning (fusion.ts: the words'
 * first three kept, the rest by reciprocal rank fusion), the best `k`. When the meaning cannot be
 * had in time (the items' vectors still being made, an endpoint that cannot be reached, answers
 * wrongly or outlasts the query's bound), the word ranking alone, and why: search works offline.
 */
export async function withMeaning(
  kb: KnowledgeBase,
  index: Index,
  embedder: Embedder,
  query: string,
  lexical: Ranked[],
  k: number,
  isStale?: StalePredicate,
  kinds?: ReadonlySet<KindName>,
): Promise<{ ranked: Ranked[]; meaning: MeaningUsed }> {
  let dense: Ranked[];
  try {
    dense = await rankByMeaning(kb, index, embedder, query, FUSE_DEPTH, isStale, kinds);
  } catch (err) {
    const lacking = err instanceof VectorsLacking ? err.lacking : 0;
    const reason = err instanceof VectorsLacking ? err.message : `the query has no vector: ${(err as Error).message}`;
    return { ranked: lexical.slice(0, k), meaning: { embedder: embedder.label, fused: false, lacking, reason } };
  }
  return { ranked: fuseRankings(lexical, dense, k), meaning: { embedder: embedder.label, fused: true, lacking: 0 } };
}
