// The suite's coverage of src/: line, branch and function, of every node process the suite starts
// (the test files, the CLI each spawns, its hooks and servers), mapped back to the .ts sources.
//   npm run coverage                      this checkout's suite (its `npm test`)
//   npm run coverage -- <checkout>        another checkout's suite, e.g. an older commit's clone
//   node scripts/coverage.mjs [checkout] [--json]
// The report (c8's json-summary and text, and the suite's output) goes to <checkout>/coverage/;
// stdout gets the totals (a line of JSON with --json); scripts/coverage-compare.mjs sets two side
// by side. Exit 1 when the suite fails: its numbers are then printed all the same.
//
// How: the checkout's own `npm test` runs with NODE_V8_COVERAGE set, so every node process writes
// V8's coverage at exit; c8 (`c8 report`) merges the files and maps them through the source maps:
// the test loader's inline maps (its .ts files) and dist/*.cjs's linked maps (the spawned `axme`).
// Two things are fixed before c8 reads the files:
// - The CLI loader (src/cli/cli-loader.ts) runs its bundles as vm.Script in a function wrapper, so
//   V8's offsets there count the wrapper's text too: they are moved back by its length.
// - Its V8 code cache is kept out: functions deserialised from a cache carry less of the coverage
//   (fewer blocks and functions seen). The tests' environment drops AXME_* (AXME_COMPILE_CACHE=off
//   would not reach the CLI), so the cache's folder ($XDG_CACHE_HOME/axme) is made writable by
//   all, which the loader refuses to read or write.
// Source files no process loaded (never imported at run time) do not appear in c8's totals: they
// are listed apart, the type-only ones (no JavaScript once compiled) left out.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const json = args.includes('--json');
const positional = args.filter((a) => !a.startsWith('--'));
if (positional.length > 1 || args.some((a) => a.startsWith('--') && a !== '--json')) {
  process.stderr.write('usage: node scripts/coverage.mjs [checkout] [--json]\n');
  process.exit(2);
}
const checkout = resolve(positional[0] ?? HERE);
if (!existsSync(join(checkout, 'package.json')) || !existsSync(join(checkout, 'src'))) {
  process.stderr.write(`coverage: ${checkout} is not an axme checkout (no package.json or src/): give the folder of one\n`);
  process.exit(2);
}
if (!existsSync(join(checkout, 'node_modules'))) {
  process.stderr.write(`coverage: ${checkout} has no node_modules: run npm ci there first\n`);
  process.exit(2);
}

/** The wrapper src/cli/cli-loader.ts puts around a bundle it runs as a vm.Script. */
const WRAP_BEFORE = '(function (exports, require, module, __filename, __dirname) {';
const WRAP_AFTER = '\n})';

const work = mkdtempSync(join(tmpdir(), 'axme-coverage-'));
const raw = join(work, 'v8');
const kept = join(work, 'kept');
const xdg = join(work, 'xdg');
mkdirSync(kept);
mkdirSync(join(xdg, 'axme'), { recursive: true });
chmodSync(join(xdg, 'axme'), 0o777);

const log = join(work, 'suite.log');
process.stderr.write(`coverage: running ${checkout}'s npm test (its output: coverage/suite.log there once it ends)\n`);
const suiteCode = await runSuite();
process.stderr.write(`coverage: suite exited ${suiteCode}; reading ${readdirSync(raw).length} coverage files\n`);

const src = join(checkout, 'src');
const dist = join(checkout, 'dist');
trimCoverage();
const reportsDir = join(checkout, 'coverage');
rmSync(reportsDir, { recursive: true, force: true });
mkdirSync(reportsDir);
copyFileSync(log, join(reportsDir, 'suite.log'));
const c8 = createRequire(import.meta.url).resolve('c8/bin/c8.js');
const report = spawnSync(
  process.execPath,
  [
    c8,
    'report',
    '--temp-directory',
    kept,
    '--reports-dir',
    reportsDir,
    '--src',
    checkout,
    '--include',
    'src/**',
    '--exclude-after-remap',
    '--reporter',
    'json-summary',
    '--reporter',
    'text',
    '--merge-async',
  ],
  { cwd: checkout, stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 },
);
if (report.status !== 0) {
  process.stderr.write(`coverage: c8 report failed (exit ${report.status}); the coverage files are kept in ${work}\n`);
  process.exit(1);
}
const summary = JSON.parse(readFileSync(join(reportsDir, 'coverage-summary.json'), 'utf8'));
const neverLoaded = await filesWithCodeNotIn(new Set(Object.keys(summary)));
const totals = { lines: summary.total.lines, branches: summary.total.branches, functions: summary.total.functions };
const result = {
  checkout,
  suiteExit: suiteCode,
  files: Object.keys(summary).length - 1,
  totals,
  neverLoaded,
  report: join(reportsDir, 'coverage-summary.json'),
};
rmSync(work, { recursive: true, force: true });
if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  for (const [name, t] of Object.entries(totals)) process.stdout.write(`${name.padEnd(10)} ${t.pct.toFixed(2).padStart(6)} %  (${t.covered} of ${t.total})\n`);
  process.stdout.write(
    `files      ${result.files} under src/ reached; ${neverLoaded.length} with code never loaded${neverLoaded.length ? `: ${neverLoaded.join(', ')}` : ''}\n`,
  );
  process.stdout.write(`per file   ${result.report}\n`);
}
process.exit(suiteCode === 0 ? 0 : 1);

/** Runs the checkout's `npm test` with V8 coverage on; its exit code (its output goes to the log). */
function runSuite() {
  const out = spawn('npm', ['test'], {
    cwd: checkout,
    env: { ...process.env, NODE_V8_COVERAGE: raw, XDG_CACHE_HOME: xdg },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks = [];
  out.stdout.on('data', (c) => chunks.push(c));
  out.stderr.on('data', (c) => chunks.push(c));
  return new Promise((done) =>
    out.on('close', (code) => {
      writeFileSync(log, Buffer.concat(chunks));
      done(code ?? 1);
    }),
  );
}

/**
 * Each process's coverage, kept to the scripts under src/ and dist/ (V8 reports node's internals
 * and node_modules too: most of the bytes), with a bundle run in the CLI loader's wrapper moved
 * back to the file's own offsets. The bundles' maps go in one file of their own, their sources made
 * absolute: c8 checks --include against a bundle's sources as the map spells them (`../src/...`),
 * which matches nothing, and its ranges would be dropped.
 */
function trimCoverage() {
  const inScope = (path) => path.startsWith(`${src}/`) || path.startsWith(`${dist}/`);
  const lengths = new Map();
  const fileLength = (path) => {
    if (!lengths.has(path)) lengths.set(path, existsSync(path) ? readFileSync(path, 'latin1').length : -1);
    return lengths.get(path);
  };
  const bundles = new Set();
  const maps = {};
  let unreadable = 0;
  for (const name of readdirSync(raw)) {
    const cov = readCoverage(join(raw, name));
    if (!cov) {
      unreadable++;
      continue;
    }
    const result = [];
    for (const script of cov.result) {
      const path = toPath(script.url);
      if (!path || !inScope(path)) continue;
      if (path.startsWith(`${dist}/`)) {
        unwrap(script, fileLength(path));
        bundles.add(path);
      }
      result.push({ ...script, url: pathToFileURL(path).href });
    }
    for (const [url, map] of Object.entries(cov['source-map-cache'] ?? {})) {
      const path = toPath(url);
      if (path?.startsWith(`${src}/`)) maps[pathToFileURL(path).href] = map;
    }
    if (result.length) writeFileSync(join(kept, name), JSON.stringify({ result }));
  }
  for (const path of bundles) {
    const map = bundleMap(path);
    if (map) maps[pathToFileURL(path).href] = map;
  }
  writeFileSync(join(kept, 'source-maps.json'), JSON.stringify({ result: [], 'source-map-cache': maps }));
  if (unreadable) process.stderr.write(`coverage: ${unreadable} coverage files cut short (a process killed while writing it) left out\n`);
}

/** One process's coverage file, or undefined when it was cut short (a test kills a process, which may be writing it). */
function readCoverage(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A bundle's linked map as node's source-map cache holds one (the map, the file's line lengths), its sources absolute paths. */
function bundleMap(path) {
  const text = readFileSync(path, 'latin1');
  const link = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
  if (!link || link.startsWith('data:') || !existsSync(join(dirname(path), link))) return undefined;
  const mapPath = join(dirname(path), link);
  const data = JSON.parse(readFileSync(mapPath, 'utf8'));
  data.sources = data.sources.map((s) => resolve(dirname(mapPath), data.sourceRoot ?? '', s));
  delete data.sourceRoot;
  return { data, lineLengths: text.split('\n').map((line) => line.length), url: pathToFileURL(mapPath).href };
}

/** A script's path, from V8's url: a file: URL, or the plain path vm.Script was given. */
function toPath(url) {
  if (url.startsWith('file:')) return fileURLToPath(url);
  return url.startsWith('/') ? url : undefined;
}

/** Moves a bundle's ranges back by the CLI loader's wrapper when V8 saw the file inside it (its top-level range is longer by exactly the wrapper). */
function unwrap(script, length) {
  const top = script.functions.find((f) => f.ranges[0]?.startOffset === 0)?.ranges[0];
  if (!top || length < 0 || top.endOffset !== length + WRAP_BEFORE.length + WRAP_AFTER.length) return;
  const shift = WRAP_BEFORE.length;
  for (const f of script.functions)
    for (const r of f.ranges) {
      r.startOffset = Math.max(0, r.startOffset - shift);
      r.endOffset = Math.min(length, Math.max(0, r.endOffset - shift));
    }
}

/** The .ts files under src/ that compile to some JavaScript and that no process loaded, relative to the checkout. */
async function filesWithCodeNotIn(loaded) {
  const { transform } = await import(pathToFileURL(createRequire(join(checkout, 'package.json')).resolve('esbuild')).href);
  const out = [];
  for (const f of readdirSync(src, { recursive: true }).sort()) {
    const path = join(src, f);
    if (!/\.m?ts$/.test(f) || f.endsWith('.d.ts') || loaded.has(path)) continue;
    const { code } = await transform(readFileSync(path, 'utf8'), { loader: 'ts', format: 'esm', legalComments: 'none' });
    if (code.replace(/export\s*\{\s*\};?/g, '').trim()) out.push(relative(checkout, path));
  }
  return out;
}
