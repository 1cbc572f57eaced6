import type { KnowledgeBase } from '../../core/kb.ts';
import { EmbeddingsError } from './embed-request.ts';
import { type EmbedderStatus, writeEmbedderStatus } from './embedder-status.ts';
import { clearBackoff, recordFailure } from './endpoint-backoff.ts';
import type { Embedder } from './meaning.ts';
import { searchDir } from './persist.ts';
import { writeVectors } from './vectors.ts';

/** The items' vectors being made by an embeddings endpoint, in the background of the queries. */
export interface VectorFill {
  /** resolves once every text given has its vector or the endpoint gave up (never rejects) */
  readonly done: Promise<void>;
  /** true once `done` resolved */
  readonly over: boolean;
  /** texts given still without a vector */
  readonly left: number;
  /** why it stopped short of every text, when it did */
  readonly failure: Error | undefined;
}

const slotOf = (key: string) => `vector-fill:${key}`;

/** The fill of embedder `key` this knowledge base has running, if any. */
export const runningFill = (kb: KnowledgeBase, key: string): VectorFill | undefined => {
  const fill = kb.cache.recall<VectorFill>(slotOf(key));
  return fill && !fill.over ? fill : undefined;
};

/** The last fill this knowledge base started, while it runs (whatever its embedder). */
/**
 * Set in the environment of the worker that goes on making the items' vectors once a command-line
 * search ends (vectors-worker.ts). Its searches answer nobody, so they wait for the vectors without
 * the query's bound (search.ts): at low priority on a loaded machine, a query cut at a person's
 * bound would count as the endpoint's failure and back it off.
 */
export const VECTORS_AHEAD_ENV = 'AXME_VECTORS_AHEAD';

export const lastFillRunning = (kb: KnowledgeBase): VectorFill | undefined => runningFill(kb, 'last');

/**
 * Starts making the vectors of `missing` (hash → text) with `embedder`, batch by batch, each
 * batch's vectors added to `known` and appended to the vector file as it arrives: a timeout or a
 * failure on a later batch keeps the earlier ones, and the next query (or a worker) goes on from
 * there. The run is this knowledge base's only one for the embedder (a query finding one running
 * waits on it); closing the knowledge base stops it (`stopOnClose`). What happened is written
 * beside the vectors for `axme doctor` (embedder-status.ts): how many of `items` still lack a
 * vector, the retries and timeouts, and why it gave up; a run the endpoint failed counts one more
 * failure of its backoff (endpoint-backoff.ts), one that made every vector clears it. Once over, the vectors of texts no
 * longer `current` (older tips', kept for --at and a write undone) are dropped from the file when
 * they outnumber the current ones.
 */
export function startFill(
  kb: KnowledgeBase,
  embedder: Embedder,
  known: Map<string, Float32Array>,
  missing: Map<string, string>,
  current: readonly string[],
): VectorFill {
  const items = current.length;
  const dir = searchDir(kb.repo.axmeDir);
  const hashes = [...missing.keys()];
  const stop = new AbortController();
  kb.cache.stopOnClose(stop);
  const counts = { retries: 0, timeouts: 0 };
  let left = hashes.length;
  let over = false;
  let failure: Error | undefined;
  const status = (): EmbedderStatus => ({
    label: embedder.label,
    items,
    lacking: left,
    retries: counts.retries,
    timeouts: counts.timeouts,
    updated: kb.now().toISOString(),
    ...(failure ? { failure: { code: failure instanceof EmbeddingsError ? failure.code : 'stopped', reason: failure.message } } : {}),
  });
  const onBatch = (from: number, vectors: Float32Array[]) => {
    const added = hashes.slice(from, from + vectors.length);
    added.forEach((h, i) => known.set(h, vectors[i]!));
    writeVectors(dir, embedder.key, known, added);
    left -= vectors.length;
    writeEmbedderStatus(dir, embedder.key, status());
  };
  const done = embedder
    .embed([...missing.values()], { onBatch, signal: stop.signal, counts })
    .then(
      () => undefined,
      (err: unknown) => void (failure = err instanceof Error ? err : new Error(String(err))),
    )
    .finally(() => {
      over = true;
      if (known.size > 2 * items + 64) {
        const now = new Set(current);
        for (const h of [...known.keys()]) if (!now.has(h)) known.delete(h);
        writeVectors(dir, embedder.key, known);
      }
      writeEmbedderStatus(dir, embedder.key, status());
      // the endpoint backed off from after a failure (not after a stop: this process ended first), forgiven once every vector is made
      if (failure instanceof EmbeddingsError) recordFailure(dir, embedder.key, failure, kb.now());
      else if (!failure && left === 0) clearBackoff(dir, embedder.key);
      // nothing left to stop: the knowledge base's close has no work of this run to abort
      stop.abort();
    });
  const fill: VectorFill = {
    done,
    get over() {
      return over;
    },
    get left() {
      return left;
    },
    get failure() {
      return failure;
    },
  };
  kb.cache.remember(slotOf('last'), fill);
  return kb.cache.remember(slotOf(embedder.key), fill);
}
