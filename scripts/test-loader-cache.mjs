// What the tests' TypeScript loader (scripts/test-loader.mjs) makes of a .ts file, and where it keeps
// it: esbuild with the project's tsconfig.json, as tsx would transform it, kept in
// .cache/test-loader/ (or $AXME_TEST_LOADER_CACHE) under a hash of the file's path, its content, the
// esbuild version and these options. An edited file is a new key: nothing is keyed on times or sizes.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CACHE = process.env.AXME_TEST_LOADER_CACHE || join(ROOT, '.cache', 'test-loader');

const readJson = (...path) => JSON.parse(readFileSync(join(ROOT, ...path), 'utf8'));

/** esbuild's options for every file (tsx's: the running Node as target, names kept, maps inline). */
export const OPTIONS = {
  loader: 'ts',
  format: 'esm',
  target: `node${process.versions.node}`,
  sourcemap: 'inline',
  // the sources' own text in the maps only for coverage, as tsx does
  sourcesContent: Boolean(process.env.NODE_V8_COVERAGE),
  minifyWhitespace: true,
  keepNames: true,
  tsconfigRaw: { compilerOptions: readJson('tsconfig.json').compilerOptions },
};
const SALT = `${readJson('node_modules', 'esbuild', 'package.json').version}\0${JSON.stringify(OPTIONS)}\0`;

/** The cache file for the .ts file at `path` whose text is `source`. */
export function cacheFile(path, source) {
  const key = createHash('sha256').update(SALT).update(path).update('\0').update(source).digest('hex');
  return join(CACHE, `${key.slice(0, 40)}.js`);
}

/** The JavaScript kept in `file`, or undefined when there is none yet. */
export function readCached(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

let esbuild;
let cacheMade = false;

/** `source` (the file at `path`) made JavaScript by esbuild, and kept in `file`: written whole, then renamed in. */
export async function transformInto(path, source, file) {
  esbuild ??= await import('esbuild');
  const { code } = await esbuild.transform(source, { ...OPTIONS, sourcefile: path });
  if (!cacheMade) mkdirSync(CACHE, { recursive: true });
  cacheMade = true;
  const part = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(part, code);
  renameSync(part, file);
  return code;
}
