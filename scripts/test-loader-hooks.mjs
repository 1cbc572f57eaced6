// The hooks of scripts/test-loader.mjs, on Node's loader thread. load: a .ts or .mts file becomes
// the JavaScript scripts/test-loader-cache.mjs keeps for its content (made on a miss). resolve:
// Node's own, so import.meta.url and import.meta.dirname stay the .ts file's; only where it finds
// nothing for a `.js` or `.mjs` name imported by a .ts file is the `.ts` or `.mts` file of that name
// tried, as TypeScript (and tsx) allow.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cacheFile, readCached, transformInto } from './test-loader-cache.mjs';

const TS = /\.m?ts$/;
const JS_NAME = /\.m?js$/;

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !JS_NAME.test(specifier) || !TS.test(context.parentURL ?? '')) throw error;
    try {
      return await nextResolve(specifier.replace(/js$/, 'ts'), context);
    } catch {
      throw error;
    }
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  if (!TS.test(path)) return nextLoad(url, context);
  const source = readFileSync(path, 'utf8');
  const file = cacheFile(path, source);
  const code = readCached(file) ?? (await transformInto(path, source, file));
  return { format: 'module', source: code, shortCircuit: true };
}
