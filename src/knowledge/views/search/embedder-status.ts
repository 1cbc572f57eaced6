import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../../store/atomic-file.ts';

/**
 * What the last run making the items' vectors saw, kept beside them for `axme doctor`
 * (`<git common dir>/axme/search/embedder-<key>.json`): machine-local, derived, safe to delete.
 */
export interface EmbedderStatus {
  /** the embedder, for a person: `endpoint <url> (<model>)` */
  label: string;
  /** the store's searchable items when the run began */
  items: number;
  /** of them, how many still lack a vector */
  lacking: number;
  /** requests retried (a closed connection, a 5xx, a 429) */
  retries: number;
  /** requests that outlasted their bound (each split the batch) */
  timeouts: number;
  /** when this was written (ISO 8601) */
  updated: string;
  /** why the run stopped short: the endpoint's failure (embed-request.ts EmbeddingsFailure) or `stopped` (the process ended first) */
  failure?: { code: string; reason: string };
}

const statusFile = (dir: string, key: string) => join(dir, `embedder-${key}.json`);

/** Writes what the run saw; a failed write costs doctor its detail, nothing more. */
export function writeEmbedderStatus(dir: string, key: string, status: EmbedderStatus): void {
  try {
    writeFileAtomicSync(statusFile(dir, key), `${JSON.stringify(status)}\n`);
  } catch {
    // derived
  }
}

/** What the last run of embedder `key` saw, or null (none yet, or unreadable). */
export function readEmbedderStatus(dir: string, key: string): EmbedderStatus | null {
  try {
    const s = JSON.parse(readFileSync(statusFile(dir, key), 'utf8')) as Partial<EmbedderStatus>;
    return typeof s.items === 'number' && typeof s.lacking === 'number' && typeof s.label === 'string' ? (s as EmbedderStatus) : null;
  } catch {
    return null;
  }
}
