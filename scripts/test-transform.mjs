// Before `npm test`: every .ts file under src/, test/, bench/ and scripts/ (or under the folders
// given as arguments) made JavaScript for the tests' loader (scripts/test-loader.mjs) by one esbuild
// service, where the loader's cache has no answer for it yet. The test processes then find their
// files made instead of each starting esbuild on a clean clone. A file esbuild refuses is left to
// the loader, which reports it where it is imported.
//   node scripts/test-transform.mjs [folder...]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cacheFile, ROOT, transformInto } from './test-loader-cache.mjs';

const folders = process.argv.length > 2 ? process.argv.slice(2).map((f) => resolve(f)) : ['src', 'test', 'bench', 'scripts'].map((f) => join(ROOT, f));
const files = folders.flatMap((dir) =>
  readdirSync(dir, { recursive: true })
    .filter((f) => /\.m?ts$/.test(f) && !f.split(/[\\/]/).includes('node_modules'))
    .map((f) => join(dir, f)),
);
let made = 0;
await Promise.all(
  files.map(async (path) => {
    const source = readFileSync(path, 'utf8');
    const file = cacheFile(path, source);
    if (existsSync(file)) return;
    await transformInto(path, source, file).then(
      () => made++,
      () => {},
    );
  }),
);
if (made) process.stderr.write(`test-transform: ${made} of ${files.length} .ts files made JavaScript\n`);
