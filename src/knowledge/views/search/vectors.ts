import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The vectors of one embedder on disk, beside the search index: `<git common dir>/axme/search/
 * vectors-<embedder key>.bin`. One line of JSON (format, embedder key, dimensions), then one
 * entry an item text: its content hash (32 ASCII characters) and its vector (float32). Keyed by
 * the hash of the text embedded, so an item is embedded once whatever commit or index it appears
 * in. After a write the new items' entries are appended (the file is not written again whole);
 * it is rewritten only to drop the entries of texts no tip holds any more. Machine-local and
 * derived (never committed, safe to delete); a file of another format, embedder or size is
 * ignored (everything is embedded again), and an entry cut short (a write interrupted) is left out.
 */
const MAGIC = 'axme-search-vectors';
const FORMAT = 2;
const HASH = 32;

export const vectorsFile = (dir: string, key: string) => join(dir, `vectors-${key}.bin`);

const headerOf = (key: string, dims: number) => Buffer.from(`${JSON.stringify({ magic: MAGIC, format: FORMAT, key, dims })}\n`);

/** The vectors stored for embedder `key`, by content hash; empty when there is no usable file. */
export function readVectors(dir: string, key: string): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  let bytes: Buffer;
  try {
    bytes = readFileSync(vectorsFile(dir, key));
  } catch {
    return out;
  }
  const eol = bytes.indexOf(10);
  let h: { magic?: unknown; format?: unknown; key?: unknown; dims?: unknown };
  try {
    h = JSON.parse(bytes.subarray(0, eol).toString('utf8')) as typeof h;
  } catch {
    return out;
  }
  if (eol < 0 || h.magic !== MAGIC || h.format !== FORMAT || h.key !== key || typeof h.dims !== 'number' || !Number.isInteger(h.dims) || h.dims <= 0)
    return out;
  const dims = h.dims;
  const size = HASH + 4 * dims;
  const count = Math.floor((bytes.length - eol - 1) / size);
  // one copy, aligned, of every vector: each entry's a view of it
  const data = new Float32Array(count * dims);
  for (let i = 0, at = eol + 1; i < count; i++, at += size) {
    const hash = bytes.toString('latin1', at, at + HASH);
    const v = data.subarray(i * dims, (i + 1) * dims);
    new Uint8Array(v.buffer, v.byteOffset, 4 * dims).set(bytes.subarray(at + HASH, at + size));
    out.set(hash, v);
  }
  return out;
}

/**
 * Stores `vectors` (all of one length) as embedder `key`'s file: when `added` names the only
 * entries new since the file was read (and the file is there), they are appended; else the whole
 * file is written again, atomically.
 */
export function writeVectors(dir: string, key: string, vectors: ReadonlyMap<string, Float32Array>, added?: readonly string[]): void {
  const dims = vectors.size ? vectors.values().next().value!.length : 0;
  mkdirSync(dir, { recursive: true });
  const path = vectorsFile(dir, key);
  const header = headerOf(key, dims);
  if (added && headerMatches(path, header)) {
    try {
      appendFileSync(
        path,
        entriesOf(
          added.map((h) => [h, vectors.get(h)!]),
          dims,
        ),
      );
      return;
    } catch {
      // written again whole below
    }
  }
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([header, entriesOf(vectors, dims)]));
    renameSync(tmp, path);
  } catch {
    rmSync(tmp, { force: true }); // a cache: a failed write costs the next process the embedding, nothing more
  }
}

/** The file's entries for `vectors`: each hash, then its `dims` floats. */
function entriesOf(vectors: Iterable<readonly [string, Float32Array]>, dims: number): Buffer {
  const list = [...vectors];
  const size = HASH + 4 * dims;
  const out = Buffer.alloc(list.length * size);
  list.forEach(([h, v], i) => {
    out.write(h.padEnd(HASH, '0').slice(0, HASH), i * size, 'latin1');
    out.set(new Uint8Array(v.buffer, v.byteOffset, 4 * dims), i * size + HASH);
  });
  return out;
}

/** True when the file at `path` starts with `header` (same format, embedder and size): entries can be appended to it. */
function headerMatches(path: string, header: Buffer): boolean {
  try {
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(header.length);
      return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(header);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
