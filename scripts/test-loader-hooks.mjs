// The hooks of scripts/test-loader.mjs, on Node's loader thread. load: a .ts or .mts file becomes
// the JavaScript scripts/test-loader-cache.mjs keeps for its content (made on a miss). resolve:
// Node's own, so import.meta.url and import.meta.dirname stay the .ts file's; only where it finds
// nothing for a name imported by a .ts file are the .ts files that name may mean tried, as
// TypeScript (and tsx) allow: `./a.js` for `./a.ts`, `./a` for `./a.ts` or `./a/index.ts`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cacheFile, readCached, transformInto } from './test-loader-cache.mjs';

const TS = /\.m?ts$/;
const JS_NAME = /\.m?js$/;

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const code = error?.code;
    if ((code !== 'ERR_MODULE_NOT_FOUND' && code !== 'ERR_UNSUPPORTED_DIR_IMPORT') || !TS.test(context.parentURL ?? '')) throw error;
    for (const candidate of tsNames(specifier)) {
      try {
        return await nextResolve(candidate, context);
      } catch {
        // the next name, else the first error
      }
    }
    throw error;
  }
}

/**
 * The .ts files a specifier Node found nothing for may name, as TypeScript (and tsx) allow: a
 * `.js`/`.mjs` name for its `.ts`/`.mts` file; a relative path for that path plus `.ts` (`./a` or
 * `./a.test` for `./a.test.ts`), or its folder's `index.ts`.
 */
function tsNames(specifier) {
  if (JS_NAME.test(specifier)) return [specifier.replace(/js$/, 'ts')];
  if (!/^\.{1,2}\//.test(specifier) && !specifier.startsWith('/') && !specifier.startsWith('file:')) return [];
  if (TS.test(specifier)) return [];
  return [`${specifier}.ts`, `${specifier.replace(/\/$/, '')}/index.ts`];
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
