import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Where a 2-D float32 tensor of a safetensors file is, read from its header. */
export interface TensorTable {
  rows: number;
  dims: number;
  /** the byte offset of row 0 in the file */
  offset: number;
}

/**
 * The header of the safetensors file open at `fd` (8 bytes of little-endian length, then JSON):
 * the tensor `name`, or the file's only tensor. Throws an Error saying what is wrong: a file
 * that is not safetensors, a tensor that is not 2-D float32, offsets outside the file.
 */
export function tensorTable(fd: number, name = 'embeddings'): TensorTable {
  const size = fstatSync(fd).size;
  const head = Buffer.alloc(8);
  if (readSync(fd, head, 0, 8, 0) !== 8) throw new Error('model.safetensors: shorter than its header');
  const len = Number(head.readBigUInt64LE(0));
  if (len <= 0 || len > 100_000_000 || 8 + len > size) throw new Error('model.safetensors: not a safetensors file (its header length is out of range)');
  const json = Buffer.alloc(len);
  readSync(fd, json, 0, len, 8);
  let header: Record<string, { dtype?: unknown; shape?: unknown; data_offsets?: unknown }>;
  try {
    header = JSON.parse(json.toString('utf8'));
  } catch {
    throw new Error('model.safetensors: its header is not JSON');
  }
  const tensors = Object.keys(header).filter((k) => k !== '__metadata__');
  const key = header[name] ? name : tensors.length === 1 ? tensors[0]! : null;
  if (!key) throw new Error(`model.safetensors: no "${name}" tensor (it has ${tensors.join(', ') || 'none'})`);
  const t = header[key]!;
  if (t.dtype !== 'F32') throw new Error(`model.safetensors: "${key}" is ${String(t.dtype)}; axme reads F32 tables`);
  const shape = t.shape as number[];
  const offsets = t.data_offsets as number[];
  if (!Array.isArray(shape) || shape.length !== 2 || !shape.every((x) => Number.isSafeInteger(x) && x > 0))
    throw new Error(`model.safetensors: "${key}" is not a 2-D table`);
  if (!Array.isArray(offsets) || offsets.length !== 2) throw new Error(`model.safetensors: "${key}" has no data offsets`);
  const [rows, dims] = shape as [number, number];
  const offset = 8 + len + offsets[0]!;
  if (offsets[1]! - offsets[0]! !== rows * dims * 4 || 8 + len + offsets[1]! > size)
    throw new Error(`model.safetensors: "${key}"'s bytes do not match its shape ${rows}×${dims}`);
  return { rows, dims, offset };
}

/** Opens `path` read-only, or throws. The caller closes it with `closeTable`. */
export const openTable = (path: string) => openSync(path, 'r');
export const closeTable = (fd: number) => closeSync(fd);
