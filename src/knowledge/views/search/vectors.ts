import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';

/**
 * The vectors of one embedder on disk, beside the search index: `<git common dir>/axme/search/
 * vectors-<embedder key>.bin`, a `v8.serialize` of the items' content hashes and one flat
 * Float32Array. Keyed by the hash of the text embedded, so an item is embedded once whatever
 * commit or index it appears in; machine-local and derived (never committed, safe to delete);
 * written atomically; a damaged file or one of another format is ignored (everything is embedded
 * again).
 */
const MAGIC = 'axme-search-vectors';
const FORMAT = 1;

interface Stored {
  magic: string;
  format: number;
  key: string;
  dims: number;
  hashes: string[];
  data: Float32Array;
}

export const vectorsFile = (dir: string, key: string) => join(dir, `vectors-${key}.bin`);

/** The vectors stored for embedder `key`, by content hash; empty when there is no usable file. */
export function readVectors(dir: string, key: string): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  let v: Stored;
  try {
    v = deserialize(readFileSync(vectorsFile(dir, key))) as Stored;
  } catch {
    return out;
  }
  if (!v || v.magic !== MAGIC || v.format !== FORMAT || v.key !== key || !Array.isArray(v.hashes) || !(v.data instanceof Float32Array)) return out;
  if (!Number.isInteger(v.dims) || v.dims <= 0 || v.data.length !== v.hashes.length * v.dims) return out;
  v.hashes.forEach((h, i) => out.set(h, v.data.subarray(i * v.dims, (i + 1) * v.dims)));
  return out;
}

/** Writes `vectors` (all of one length) as embedder `key`'s file, atomically. */
export function writeVectors(dir: string, key: string, vectors: ReadonlyMap<string, Float32Array>): void {
  const hashes = [...vectors.keys()];
  const dims = hashes.length ? vectors.get(hashes[0]!)!.length : 0;
  const data = new Float32Array(hashes.length * dims);
  hashes.forEach((h, i) => data.set(vectors.get(h)!.subarray(0, dims), i * dims));
  const stored: Stored = { magic: MAGIC, format: FORMAT, key, dims, hashes, data };
  mkdirSync(dir, { recursive: true });
  const path = vectorsFile(dir, key);
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, serialize(stored));
    renameSync(tmp, path);
  } catch {
    rmSync(tmp, { force: true }); // a cache: a failed write costs the next process the embedding, nothing more
  }
}
