import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../../store/atomic-file.ts';

/** The delay after an endpoint's first failure before it is asked again. */
export const BACKOFF_FIRST_MS = 60_000;
/** The longest delay, however many failures came before. */
export const BACKOFF_MAX_MS = 60 * 60_000;

/**
 * An embeddings endpoint that failed, kept beside the search index (`<git common dir>/axme/search/
 * backoff-<embedder key>.json`: machine-local, derived, safe to delete): how many times in a row,
 * the last failure, and when it may be asked again. Keyed by the endpoint's URL and model, so other
 * settings start afresh.
 */
export interface EndpointBackoff {
  /** failures in a row since the last run that made every vector */
  failures: number;
  /** the last failure: embed-request.ts's code and what the endpoint answered */
  last: { code: string; reason: string };
  /** when it last failed (ISO 8601, the knowledge base's clock) */
  failed_at: string;
  /** no run and no query's request before this (ISO 8601) */
  next_try: string;
}

/** The delay after `failures` failures in a row: the first delay, doubled each time, capped. */
export const backoffDelayMs = (failures: number): number => Math.min(BACKOFF_FIRST_MS * 2 ** Math.max(0, Math.min(failures - 1, 30)), BACKOFF_MAX_MS);

const backoffFile = (dir: string, key: string) => join(dir, `backoff-${key}.json`);

/** The backoff of embedder `key`, or null (none, or unreadable: asked as usual). */
export function readBackoff(dir: string, key: string): EndpointBackoff | null {
  try {
    const b = JSON.parse(readFileSync(backoffFile(dir, key), 'utf8')) as Partial<EndpointBackoff>;
    return typeof b.failures === 'number' && typeof b.next_try === 'string' && typeof b.last?.reason === 'string' ? (b as EndpointBackoff) : null;
  } catch {
    return null;
  }
}

/** The backoff in force at `now`: the endpoint is not to be asked before its `next_try`; null when it may be. */
export function backoffInForce(dir: string, key: string, now: Date): EndpointBackoff | null {
  const b = readBackoff(dir, key);
  return b && Date.parse(b.next_try) > now.getTime() ? b : null;
}

/**
 * Counts one more failure of embedder `key` at `now`, its delay doubled; what is kept (a failed
 * write costs the backoff, nothing more). A failure while the backoff is in force (the query's
 * request and the items' run of one try, both failing) is the same try's: its reason kept, not counted again.
 */
export function recordFailure(dir: string, key: string, failure: { code: string; message: string }, now: Date): EndpointBackoff {
  const was = readBackoff(dir, key);
  const sameTry = was !== null && Date.parse(was.next_try) > now.getTime();
  const failures = (was?.failures ?? 0) + (sameTry ? 0 : 1);
  const b: EndpointBackoff = {
    failures,
    last: { code: failure.code, reason: failure.message },
    failed_at: now.toISOString(),
    next_try: sameTry ? was.next_try : new Date(now.getTime() + backoffDelayMs(failures)).toISOString(),
  };
  try {
    writeFileAtomicSync(backoffFile(dir, key), `${JSON.stringify(b)}\n`);
  } catch {
    // derived
  }
  return b;
}

/** Forgets the failures of embedder `key`: a run made every vector, or a retry was asked for. */
export function clearBackoff(dir: string, key: string): void {
  rmSync(backoffFile(dir, key), { force: true });
}

/** The backoff said to a person: `the embeddings endpoint failed N times, last: <why>; next try after <time>`. */
export const backoffSentence = (b: EndpointBackoff): string =>
  `the embeddings endpoint failed ${b.failures} time${b.failures === 1 ? '' : 's'}, last: ${b.last.reason}; next try after ${b.next_try}`;
