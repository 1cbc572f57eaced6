import type { StoreConfig } from '../../../model/config.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { effectiveSettings } from '../../core/local-settings.ts';
import { EmbeddingsError, postEmbeddings } from './embed-request.ts';

/** Where search gets embeddings from: `search.embeddings`, a machine-local setting. */
export type EmbeddingsConfig = NonNullable<NonNullable<StoreConfig['search']>['embeddings']>;

/** Texts sent in one request, unless `batch` says otherwise. */
const BATCH = 64;
/** How long one request for items' vectors may take, unless `timeout_ms` says otherwise. */
const TIMEOUT_MS = 30_000;
/** How long a search waits for vectors (its query's, and the items' still being made), unless `query_timeout_ms` says otherwise. */
export const QUERY_TIMEOUT_MS = 2_000;
/** Requests of one call that may time out (each splitting the batch) before the endpoint is given up on as slow. */
const TIMEOUTS_MAX = 3;

/** The bounds in force for `config`: texts a request, and each request's time. */
export const embedLimits = (config: EmbeddingsConfig) => ({
  batch: config.batch ?? BATCH,
  timeoutMs: config.timeout_ms ?? TIMEOUT_MS,
  queryTimeoutMs: config.query_timeout_ms ?? QUERY_TIMEOUT_MS,
});

/**
 * The embeddings configured on this machine (`.git/axme/config.yaml` or `~/.config/axme/config.yaml`),
 * or null (the default: search by words only). Never the shared axme.yaml's: an endpoint and the
 * key sent to it are each machine's own choice.
 */
export function embeddingsConfig(kb: KnowledgeBase, config: StoreConfig | null): EmbeddingsConfig | null {
  return effectiveSettings(config, kb.repo.commonDir, kb.repo.env).embeddings;
}

/** What a caller of `embed` may add: where each batch goes as it arrives, what stops the work, and what is counted. */
export interface EmbedOptions {
  /** each batch's vectors as it arrives (`from`: the position of its first text): kept even if a later batch fails */
  onBatch?: (from: number, vectors: Float32Array[]) => void;
  /** each request's bound in ms, in place of the configured one (a query's own embedding is bounded shorter) */
  timeoutMs?: number;
  /** stops the work between and during requests (a knowledge base closed): the batches done were given to `onBatch` */
  signal?: AbortSignal;
  /** counted as they happen: retries made, requests that timed out */
  counts?: { retries: number; timeouts: number };
}

/**
 * The unit-length embeddings of `texts`, in order, from an OpenAI-compatible endpoint, `batch`
 * texts a request (`embed-request.ts`: one retry on a closed connection, a 5xx or a 429). A
 * request that times out is split in halves, each request after it given twice the time (the
 * endpoint may still be working on the request given up: a server that answers one request at a
 * time does), and the rest of the call sent at that size and bound, before the endpoint is given
 * up on: after TIMEOUTS_MAX timeouts, or one of a single text. Each batch
 * goes to `onBatch` as it arrives, so a failure keeps what came before it. The API key, when
 * `api_key_env` names one, is read from `env` (the store's environment, never this process's
 * globals). Throws `EmbeddingsError` (its `code` says why) when the endpoint gives up.
 */
export async function embed(config: EmbeddingsConfig, texts: readonly string[], env: NodeJS.ProcessEnv, opts: EmbedOptions = {}): Promise<Float32Array[]> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = config.api_key_env ? env[config.api_key_env] : undefined;
  if (key) headers.authorization = `Bearer ${key}`;
  const limits = embedLimits(config);
  let timeoutMs = opts.timeoutMs ?? limits.timeoutMs;
  const out: Float32Array[] = [];
  let size = limits.batch;
  let timeouts = 0;
  let dims = -1;
  for (let i = 0; i < texts.length; ) {
    const input = texts.slice(i, i + size);
    let raw: number[][];
    try {
      raw = await postEmbeddings({
        url: config.url,
        model: config.model,
        headers,
        input,
        timeoutMs,
        signal: opts.signal,
        onRetry: () => opts.counts && opts.counts.retries++,
      });
    } catch (err) {
      if (!(err instanceof EmbeddingsError) || err.code !== 'slow') throw err;
      if (opts.counts) opts.counts.timeouts++;
      if (++timeouts >= TIMEOUTS_MAX || input.length === 1) throw err;
      // half the texts, twice the time: a server that answers one request at a time is still on the one given up
      size = Math.ceil(input.length / 2);
      timeoutMs *= 2;
      continue;
    }
    if (dims < 0) dims = raw[0]!.length;
    if (raw[0]!.length !== dims) throw new EmbeddingsError('shape', `${config.url} answered vectors of ${raw[0]!.length} dimensions after ${dims}`);
    const vectors = raw.map((v) => unit(Float32Array.from(v)));
    opts.onBatch?.(i, vectors);
    out.push(...vectors);
    i += input.length;
  }
  return out;
}

/** `v` scaled to length 1 (a zero vector stays zero), so that a dot product is the cosine. */
function unit(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
