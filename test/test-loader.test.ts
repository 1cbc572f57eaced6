import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runProcess } from './helpers.ts';

/** The tests' TypeScript loader (scripts/test-loader.mjs, what `npm test` runs the files with) and its cache. */

const SCRIPTS = resolve(import.meta.dirname, '..', 'scripts');
const LOADER = join(SCRIPTS, 'test-loader.mjs');
const dir = mkdtempSync(join(tmpdir(), 'axme-test-loader-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh cache folder for one test. */
const freshCache = (name: string) => join(dir, `cache-${name}`);

/** `code` (an ES module) in a Node process with the loader, its cache in `cache`. */
function withLoader(cache: string, code: string) {
  return runProcess(process.execPath, ['--import', LOADER, '--input-type=module', '-e', code], {
    env: { PATH: process.env.PATH, AXME_TEST_LOADER_CACHE: cache },
  });
}

/** The cache's files with their inodes (a file written again is a new inode: it is renamed in). */
function cacheFiles(cache: string): Map<string, number> {
  return new Map(readdirSync(cache).map((f) => [f, statSync(join(cache, f)).ino]));
}

test('an edited .ts file is made again, even with the same size and modification time', async () => {
  const cache = freshCache('edit');
  const mod = join(dir, 'value.ts');
  writeFileSync(mod, 'export const value: number = 1;\n');
  const print = `const m = await import(${JSON.stringify(pathToFileURL(mod).href)}); console.log(m.value);`;
  const first = await withLoader(cache, print);
  assert.equal(first.stderr, '');
  assert.equal(first.stdout, '1\n');
  const [kept] = [...cacheFiles(cache).keys()];
  assert.ok(kept, 'the first run keeps its JavaScript');

  // the kept JavaScript is what a second process runs: changed by hand, it is what prints
  const keptPath = join(cache, kept);
  writeFileSync(keptPath, readFileSync(keptPath, 'utf8').replace('value=1', 'value=7'));
  assert.equal((await withLoader(cache, print)).stdout, '7\n');

  // the same length, the same times: only the content says the file changed
  const { atime, mtime } = statSync(mod);
  writeFileSync(mod, 'export const value: number = 2;\n');
  utimesSync(mod, atime, mtime);
  const edited = await withLoader(cache, print);
  assert.equal(edited.stderr, '');
  assert.equal(edited.stdout, '2\n');
  assert.equal(cacheFiles(cache).size, 2, 'the edited file is a new entry beside the old one');
});

test("a .ts module keeps its own URL and folder, and an error's stack names its .ts line", async () => {
  const cache = freshCache('lines');
  const mod = join(dir, 'throws.ts');
  writeFileSync(
    mod,
    [
      'interface Where { url: string; dir: string }',
      'export const where: Where = { url: import.meta.url, dir: import.meta.dirname };',
      '',
      'export function fail(why: string): never {',
      '  throw new Error(why);',
      '}',
      '',
    ].join('\n'),
  );
  const run = await withLoader(
    cache,
    `const m = await import(${JSON.stringify(pathToFileURL(mod).href)}); console.log(JSON.stringify(m.where)); m.fail('stop here');`,
  );
  assert.notEqual(run.status, 0);
  assert.deepEqual(JSON.parse(run.stdout), { url: pathToFileURL(mod).href, dir });
  assert.match(run.stderr, /Error: stop here/);
  assert.ok(run.stderr.includes(`${mod}:5:9`), `the stack names throws.ts line 5:\n${run.stderr}`);
});

test('test-transform.mjs makes the files the loader then reads without making them again', async () => {
  const cache = freshCache('prepare');
  const src = join(dir, 'prepared');
  const nested = join(src, 'deep');
  mkdirSync(nested, { recursive: true });
  writeFileSync(join(src, 'a.ts'), "import { b } from './deep/b.ts';\nexport const a: string = `a${b}`;\n");
  writeFileSync(join(nested, 'b.ts'), "export const b: string = 'b';\n");
  const env = { PATH: process.env.PATH, AXME_TEST_LOADER_CACHE: cache };
  const prepared = await runProcess(process.execPath, [join(SCRIPTS, 'test-transform.mjs'), src], { env });
  assert.equal(prepared.status, 0, prepared.stderr);
  assert.match(prepared.stderr, /2 of 2 \.ts files/);
  const made = cacheFiles(cache);
  assert.equal(made.size, 2);

  const run = await withLoader(cache, `const m = await import(${JSON.stringify(pathToFileURL(join(src, 'a.ts')).href)}); console.log(m.a);`);
  assert.equal(run.stdout, 'ab\n');
  assert.deepEqual(cacheFiles(cache), made, 'the loader read both files as made, wrote none');

  const again = await runProcess(process.execPath, [join(SCRIPTS, 'test-transform.mjs'), src], { env });
  assert.equal(again.status, 0);
  assert.equal(again.stderr, '', 'nothing left to make');
});

/**
 * Imports TypeScript allows and tsx resolves, each with a module that names a missing file: the
 * files (path, text), what `a.ts` prints (its value), and the missing file's name as written.
 */
const RESOLUTIONS: Array<{ name: string; files: Record<string, string>; printed: string; missing: string }> = [
  {
    name: 'a .ts file imported as .js (and .mts as .mjs), beside a real .js file',
    files: {
      'b.ts': "export const b: string = 'b';\n",
      'c.mts': "export const c: string = 'c';\n",
      'plain.js': "export const plain = 'js';\n",
      'a.ts': "import { b } from './b.js';\nimport { c } from './c.mjs';\nimport { plain } from './plain.js';\nexport const a: string = `a${b}${c}${plain}`;\n",
      'missing.ts': "export { x } from './nowhere.js';\n",
    },
    printed: 'abcjs\n',
    missing: 'nowhere.js',
  },
  {
    name: 'a .ts file imported without its extension (also one named *.test.ts), a folder by its index.ts',
    files: {
      'b.ts': "export const b: string = 'b';\n",
      'c.test.ts': "export const c: string = 'c';\n",
      'lib/index.ts': "export const d: string = 'd';\n",
      'a.ts': "import { b } from './b';\nimport { c } from './c.test';\nimport { d } from './lib';\nexport const a: string = `a${b}${c}${d}`;\n",
      'missing.ts': "export { x } from './nowhere';\n",
    },
    printed: 'abcd\n',
    missing: 'nowhere',
  },
];

test('imports TypeScript allows are found as they are under tsx (a .ts file as .js, without its extension, a folder by its index.ts); a missing file is still an error', async () => {
  for (const [i, r] of RESOLUTIONS.entries()) {
    const cache = freshCache(`resolution-${i}`);
    const src = join(dir, `resolution-${i}`);
    for (const [path, text] of Object.entries(r.files)) {
      mkdirSync(dirname(join(src, path)), { recursive: true });
      writeFileSync(join(src, path), text);
    }
    const url = (f: string) => JSON.stringify(pathToFileURL(join(src, f)).href);
    const run = await withLoader(cache, `const m = await import(${url('a.ts')}); console.log(m.a);`);
    assert.equal(run.stderr, '', r.name);
    assert.equal(run.stdout, r.printed, r.name);
    const missing = await withLoader(cache, `await import(${url('missing.ts')});`);
    assert.notEqual(missing.status, 0, r.name);
    assert.match(missing.stderr, /ERR_MODULE_NOT_FOUND/, r.name);
    assert.ok(missing.stderr.includes(join(src, r.missing)), `${r.name}: ${missing.stderr}`);
  }
});
