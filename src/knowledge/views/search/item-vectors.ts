import * as crypto from 'node:crypto';
import type { KnowledgeBase } from '../../core/kb.ts';
import type { Doc, Index } from './build-index.ts';
import { backoffInForce, backoffSentence } from './endpoint-backoff.ts';
import type { Embedder } from './meaning.ts';
import { searchDir } from './persist.ts';
import { runningFill, startFill } from './vector-fill.ts';
import { layOutVectors, type VectorTable } from './vector-table.ts';
import { readVectors } from './vectors.ts';

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

/** The items' vectors as far as they are made when a query ranks. */
export interface ItemVectors {
  /** one row a document, in its order; a document lacking a vector has a row of zeros (never among the nearest); null when no document has one */
  table: VectorTable | null;
  /** the distinct texts of the documents, and how many of them still lack a vector */
  texts: number;
  lacking: number;
  /** true when `doc`'s text has its vector */
  has(doc: Doc): boolean;
  /** why some lack one: still being made, the run's failure, the endpoint backed off from */
  why?: string;
}

/** The items' vectors being had: how many lack one as the query begins, and a wait for the run making them. */
export interface VectorsUnderWay {
  /** distinct texts that have a vector as the query begins */
  had: number;
  /** waits, until `deadline` (a `Date.now()` time, or Infinity), for the run making the others; then the table as far as it goes */
  until(deadline: number): Promise<ItemVectors>;
}

/**
 * The vectors of `index`'s documents for `embedder`. Vectors are kept by the hash of the text
 * embedded (an item whose text did not change is not embedded again, whatever else changed in its
 * file): in memory, on the index, and on disk beside the index (vectors.ts, one file per
 * embedder). After a write only the new and changed items are embedded: incremental. The ones
 * missing are made by a fill (vector-fill.ts: batch by batch, each saved as it arrives), started
 * here unless the endpoint is backed off from (endpoint-backoff.ts); `until` waits for it at most
 * to its deadline, and the fill goes on after.
 */
export function itemVectors(kb: KnowledgeBase, index: Index, embedder: Embedder): VectorsUnderWay {
  const { key } = embedder;
  const whole = index.dense?.model === key ? index.dense.vectors : undefined;
  if (whole) {
    const all: ItemVectors = { table: whole, texts: index.docs.length, lacking: 0, has: () => true };
    return { had: index.docs.length, until: async () => all };
  }
  const dir = searchDir(kb.repo.axmeDir);
  const memoryKey = `embeddings:${key}`;
  const known = kb.cache.recall<Map<string, Float32Array>>(memoryKey) ?? kb.cache.remember(memoryKey, readVectors(dir, key));
  // the hash of each document's text, kept per document object: after a write only the new documents are hashed
  const hashOfDoc = kb.cache.perObject<string>('search-text-hash');
  const hashes = index.docs.map((d) => hashOfDoc.get(d) ?? (hashOfDoc.set(d, hashOf(embeddedText(d))), hashOfDoc.get(d)!));
  const texts = new Set(hashes).size;
  const missingNow = () => {
    const missing = new Map<string, string>();
    hashes.forEach((h, i) => void (known.has(h) || missing.has(h) || missing.set(h, embeddedText(index.docs[i]!))));
    return missing;
  };
  const had = texts - missingNow().size;
  const until = async (deadline: number): Promise<ItemVectors> => {
    const why = await fillMissing(kb, embedder, known, hashes, missingNow, deadline);
    const lacking = missingNow().size;
    const has = (doc: Doc) => known.has(hashOfDoc.get(doc) ?? '');
    const first = hashes.find((h) => known.has(h));
    if (first === undefined) return { table: null, texts, lacking, has, why };
    // one table, in the documents' order: the query's cosines run over it in one pass (vector-table.ts); after a write, the
    // previous table's rows copied in blocks where the documents did not change. A text lacking a vector has the key '' and zeros
    const dims = known.get(first)!.length;
    const zeros = new Float32Array(dims);
    const keys = lacking ? hashes.map((h) => (known.has(h) ? h : '')) : hashes;
    const tableKey = `embeddings-table:${key}`;
    const table = layOutVectors(keys, (h) => (h ? known.get(h)! : zeros), dims, kb.cache.recall(tableKey));
    kb.cache.remember(tableKey, { keys, table });
    // only a whole table is kept on the index: while some lack a vector, the next query looks again
    if (!lacking) index.dense = { model: key, vectors: table };
    return { table, texts, lacking, has, why };
  };
  return { had, until };
}

/**
 * Waits, until `deadline`, for the fill that makes the vectors `hashes` lack (the one running,
 * else one started unless the endpoint is backed off from; another once that one is over while
 * texts still lack, as after a write). Undefined when none lacks; else why some still do.
 */
async function fillMissing(
  kb: KnowledgeBase,
  embedder: Embedder,
  known: Map<string, Float32Array>,
  hashes: readonly string[],
  missingNow: () => Map<string, string>,
  deadline: number,
): Promise<string | undefined> {
  let missing = missingNow();
  let failure: Error | undefined;
  let backedOff: string | undefined;
  while (missing.size && !failure) {
    let fill = runningFill(kb, embedder.key);
    if (!fill) {
      const backoff = backoffInForce(searchDir(kb.repo.axmeDir), embedder.key, kb.now());
      if (backoff) {
        backedOff = backoffSentence(backoff);
        break;
      }
      fill = startFill(kb, embedder, known, missing, hashes);
    }
    if (!(await within(fill.done, deadline - Date.now()))) break;
    failure = fill.failure;
    missing = missingNow();
  }
  if (!missing.size) return undefined;
  const of = `${missing.size} of ${new Set(hashes).size} items`;
  if (backedOff) return `${of} have no vector: ${backedOff}`;
  return failure ? `${of} have no vector: ${failure.message}` : `${of} have no vector yet: they are being made in the background`;
}

/** True when `p` settles within `ms` (Infinity: waits for it). */
export async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
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
