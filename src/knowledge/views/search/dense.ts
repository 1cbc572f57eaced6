import * as crypto from 'node:crypto';
import type { KindName } from '../../../model/kind.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import type { Doc, Index } from './build-index.ts';
import { fuseRankings } from './fusion.ts';
import type { Embedder } from './meaning.ts';
import { searchDir } from './persist.ts';
import { factorAt, type Ranked, type StalePredicate, successorOf } from './rank.ts';
import { layOutVectors, type VectorTable } from './vector-table.ts';
import { readVectors, writeVectors } from './vectors.ts';

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

/**
 * One vector a document of `index`, in its order. Vectors are kept by the hash of the text
 * embedded (an item whose text did not change is not embedded again, whatever else changed in
 * its file): in memory, on the index, and on disk beside the index (vectors.ts, one file per
 * embedder). After a write only the new and changed items are embedded: incremental.
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
  const missing = new Map<string, Doc>();
  hashes.forEach((h, i) => void (known.has(h) || missing.set(h, index.docs[i]!)));
  if (missing.size) {
    const vectors = await embedder.embed([...missing.values()].map(embeddedText));
    [...missing.keys()].forEach((h, i) => known.set(h, vectors[i]!));
    // the items of older tips stay (for --at and a write undone) until they outnumber the current ones
    if (known.size > 2 * hashes.length + 64) {
      const current = new Set(hashes);
      for (const h of [...known.keys()]) if (!current.has(h)) known.delete(h);
      writeVectors(dir, key, known);
    } else writeVectors(dir, key, known, [...missing.keys()]);
  }
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
  const [q] = await embedder.embed([query]);
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
  for (const [i, cos] of vectors.nearest(q!, 2 * n)) {
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
 * The word ranking (`FUSE_DEPTH` deep) fused with the ranking by meaning (fusion.ts: the words'
 * first three kept, the rest by reciprocal rank fusion), the best `k`. When the embedder fails (an
 * endpoint that cannot be reached or answers wrongly), the word ranking alone: search works offline.
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
): Promise<Ranked[]> {
  let dense: Ranked[];
  try {
    dense = await rankByMeaning(kb, index, embedder, query, FUSE_DEPTH, isStale, kinds);
  } catch {
    return lexical.slice(0, k);
  }
  return fuseRankings(lexical, dense, k);
}
