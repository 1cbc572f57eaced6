import { readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { checkManifest, type ModelManifest } from './catalog.ts';
import { MANIFEST_FILE } from './model-paths.ts';
import { closeTable, openTable, type TensorTable, tensorTable } from './safetensors.ts';
import { type WordPiece, wordPieceFrom } from './wordpiece.ts';

/** Tokens of a text that are embedded (Model2Vec's default): the rest of a long text is left out. */
export const MAX_TOKENS = 512;

/** A static embedding model loaded from its folder: a text's vector is the mean of its tokens' rows. */
export interface StaticModel {
  manifest: ModelManifest;
  dims: number;
  vocabulary: number;
  /** unit-length vectors of `texts`, in order (a text with no known token gets a zero vector) */
  embed(texts: readonly string[]): Float32Array[];
}

/**
 * Loads the Model2Vec model in `dir` (what `axme models pull` installed: `manifest.json`,
 * `tokenizer.json`, `model.safetensors`): the tokenizer now, the table's rows from the file as
 * texts need them (a query reads a few kilobytes, not the 30 MB table). Throws an Error saying
 * which file is wrong.
 */
export function loadStaticModel(dir: string): StaticModel {
  const manifest = checkManifest(JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')), join(dir, MANIFEST_FILE));
  const tokenizer: WordPiece = wordPieceFrom(JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')));
  const file = join(dir, 'model.safetensors');
  const fd = openTable(file);
  let table: TensorTable;
  try {
    table = tensorTable(fd);
  } finally {
    closeTable(fd);
  }
  const { rows, dims, offset } = table;
  const cache = new Map<number, Float32Array>();

  /** Reads the rows of `ids` not read yet, in file order, with one open of the file. */
  const readRows = (ids: Iterable<number>) => {
    const missing = [...new Set(ids)].filter((id) => !cache.has(id) && id < rows).sort((a, b) => a - b);
    if (!missing.length) return;
    const fd = openTable(file);
    try {
      for (const id of missing) {
        const row = new Float32Array(dims);
        readSync(fd, new Uint8Array(row.buffer), 0, dims * 4, offset + id * dims * 4);
        cache.set(id, row);
      }
    } finally {
      closeTable(fd);
    }
  };

  return {
    manifest,
    dims,
    vocabulary: tokenizer.size,
    embed(texts) {
      const tokens = texts.map((t) => tokenizer.encode(t, MAX_TOKENS).filter((id) => id < rows));
      readRows(tokens.flat());
      return tokens.map((ids) => {
        const v = new Float32Array(dims);
        for (const id of ids) {
          const row = cache.get(id)!;
          for (let j = 0; j < dims; j++) v[j]! += row[j]!;
        }
        let sum = 0;
        for (const x of v) sum += x * x;
        const norm = Math.sqrt(sum);
        if (norm > 0) for (let j = 0; j < dims; j++) v[j]! /= norm;
        return v;
      });
    },
  };
}
