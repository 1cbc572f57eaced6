// The load hook of scripts/test-loader.mjs, on Node's loader thread: a .ts or .mts file becomes the
// JavaScript scripts/test-loader-cache.mjs keeps for its content (made on a miss). Node's own
// resolution is kept, so import.meta.url and import.meta.dirname stay the .ts file's.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cacheFile, readCached, transformInto } from './test-loader-cache.mjs';

const TS = /\.m?ts$/;

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  if (!TS.test(path)) return nextLoad(url, context);
  const source = readFileSync(path, 'utf8');
  const file = cacheFile(path, source);
  const code = readCached(file) ?? (await transformInto(path, source, file));
  return { format: 'module', source: code, shortCircuit: true };
}
