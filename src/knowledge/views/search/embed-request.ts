import { setTimeout as pause } from 'node:timers/promises';

/**
 * Why an embeddings endpoint gave no vectors: `slow` (a request outlasted its bound, even split
 * in smaller ones), `failing` (it answered an error, or the connection broke, again after a
 * retry), `refused` (nothing listens, or a 4xx answer: a wrong URL, model or key — not retried),
 * `shape` (an answer that is not vectors for the texts sent — not retried).
 */
export type EmbeddingsFailure = 'slow' | 'failing' | 'refused' | 'shape';

/** An endpoint that gave no vectors: `code` says why, the message says what it answered. */
export class EmbeddingsError extends Error {
  readonly code: EmbeddingsFailure;
  constructor(code: EmbeddingsFailure, message: string) {
    super(message);
    this.name = 'EmbeddingsError';
    this.code = code;
  }
}

/** The longest Retry-After waited for: an endpoint asking for longer is given up on for now (the next search asks again). */
export const RETRY_AFTER_MAX_MS = 10_000;
/** The pause before the retry of a 5xx or 429 answer that names no Retry-After. */
const RETRY_PAUSE_MS = 200;

/** What one request is: where, with what, how long it may take, and what stops it. */
export interface EmbedRequest {
  url: string;
  model: string;
  headers: Record<string, string>;
  input: readonly string[];
  timeoutMs: number;
  /** aborts the request (a knowledge base closed): it throws the signal's reason */
  signal?: AbortSignal | undefined;
  /** counted: each retry made */
  onRetry?: (why: string) => void;
}

/** A failure a second attempt may get past: a connection the server closed or reset, a 5xx, a 429. */
type Retryable = { retry: true; why: string; afterMs: number };

/**
 * The raw vectors of `input`, in order, from one request (`POST url` with `{ model, input }`,
 * answered by `{ data: [{ index, embedding }] }`), retried once when the connection was closed or
 * reset (a keep-alive connection the server dropped), or the answer was a 5xx or a 429 (after its
 * Retry-After when that is at most RETRY_AFTER_MAX_MS). A 4xx or an answer of the wrong shape is
 * not retried. A request past `timeoutMs` throws `EmbeddingsError('slow')` (the caller splits the batch).
 */
export async function postEmbeddings(r: EmbedRequest): Promise<number[][]> {
  const first = await attempt(r);
  if (!('retry' in first)) return first;
  if (first.afterMs > RETRY_AFTER_MAX_MS)
    throw new EmbeddingsError('failing', `${r.url} ${first.why} and asked to retry after ${Math.round(first.afterMs / 1000)} s`);
  r.onRetry?.(first.why);
  if (first.afterMs > 0) await pause(first.afterMs, undefined, { signal: r.signal });
  const second = await attempt(r);
  if ('retry' in second) throw new EmbeddingsError('failing', `${r.url} ${second.why}, again after a retry`);
  return second;
}

/** One attempt: the vectors, or what a retry may get past; throws what it cannot. */
async function attempt(r: EmbedRequest): Promise<number[][] | Retryable> {
  const timeout = AbortSignal.timeout(r.timeoutMs);
  const signal = r.signal ? AbortSignal.any([timeout, r.signal]) : timeout;
  try {
    const res = await fetch(r.url, { method: 'POST', headers: r.headers, body: JSON.stringify({ model: r.model, input: r.input }), signal });
    if (res.status === 429 || res.status >= 500) {
      await res.body?.cancel().catch(() => {});
      return { retry: true, why: `answered ${res.status}`, afterMs: retryAfterMs(res.headers.get('retry-after')) ?? RETRY_PAUSE_MS };
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new EmbeddingsError('refused', `${r.url} answered ${res.status}: check its url, model and key (search.embeddings)`);
    }
    return vectorsOf(r, await res.text());
  } catch (err) {
    if (r.signal?.aborted) throw r.signal.reason;
    if (timeout.aborted) throw new EmbeddingsError('slow', `${r.url} did not answer ${r.input.length} texts within ${r.timeoutMs} ms`);
    if (err instanceof EmbeddingsError) throw err;
    const code = causeCode(err);
    if (code && CLOSED.has(code)) return { retry: true, why: `closed the connection (${code})`, afterMs: 0 };
    throw new EmbeddingsError('refused', `${r.url} cannot be reached${code ? ` (${code})` : ''}: ${(err as Error).message}`);
  }
}

/** Error codes of a connection the other side closed or reset (undici's and the kernel's). */
const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_ABORTED']);

/** The code of a failed fetch: undici puts the socket's error in `cause`. */
function causeCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++)
    if (typeof e.code === 'string') return e.code;
  return undefined;
}

/** A Retry-After header in ms: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The vectors an answer holds, in the order of the texts sent; throws `shape` when it holds anything else. */
function vectorsOf(r: EmbedRequest, text: string): number[][] {
  let body: { data?: Array<{ index?: unknown; embedding?: unknown }> };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new EmbeddingsError('shape', `${r.url} answered something that is not JSON`);
  }
  const data = body?.data;
  if (!Array.isArray(data) || data.length !== r.input.length)
    throw new EmbeddingsError('shape', `${r.url} answered ${Array.isArray(data) ? data.length : 'no'} vectors for ${r.input.length} texts`);
  const ordered = [...data].sort((a, b) => (typeof a?.index === 'number' ? a.index : 0) - (typeof b?.index === 'number' ? b.index : 0));
  const dims = Array.isArray(ordered[0]?.embedding) ? ordered[0].embedding.length : 0;
  return ordered.map((d) => {
    const e = d?.embedding;
    if (!Array.isArray(e) || e.length === 0 || e.length !== dims || !e.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw new EmbeddingsError('shape', `${r.url} answered a vector that is not a list of numbers of one length`);
    return e as number[];
  });
}
