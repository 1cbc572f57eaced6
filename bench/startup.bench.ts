// Start-up benchmark (issue 18): what a CLI process costs for a read (`axme decision list
// --json`) and a write (`axme decision add`) on a small store, side by side with starting Node
// itself. Runs `node -e 0`, the read, the write and `axme --version` in turn (A, B, C, D, A,
// B...) so that machine noise hits all alike, then the read and the write again without the
// code cache (AXME_COMPILE_CACHE=off: what a first run after an upgrade costs, less writing the
// cache). Reports medians and the ratios to `node -e 0`. The budget: read <= 2x, write <= 2.5x.
// Before each round the memory ref is put back on the seeded commit (untimed), so every round
// reads and writes the same store of --size items. Table on stdout, JSON in bench/results/.
// --build <dist folder>: measure that copy of a build instead of dist/.
// --against <dist folder>: another build (a copy of dist/ made before a change) measured in the
// same rounds, each of its runs beside this build's (after it, then before it), so the two are
// compared side by side.
// --warmup N: untimed rounds of every measure before the timed ones (1; a smoke run takes 0).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { wholeArg } from './args.ts';
import { argOf, benchEnv, CLI, fmt, type Stats, seededRepo, stats, timeProcess } from './lib.ts';

const arg = (name: string, d: string) => argOf(process.argv.slice(2), name, d);
const REPS = Number(arg('reps', '30'));
const SIZE = Number(arg('size', '30'));
/** untimed rounds of every measure first (file cache, parse cache, code cache); a smoke run takes 0 */
const WARMUP = wholeArg('startup.bench', process.argv.slice(2), 'warmup', 1, 0);
const OUT = arg('out', join(import.meta.dirname, 'results'));
const AGAINST = arg('against', '');
// --build <dist folder>: the build measured, when not this checkout's dist/ (two copies on one file system compare fairly)
const BUILD = arg('build', '');
const THIS = BUILD ? join(resolve(BUILD), 'axme.cjs') : CLI;
const log = (s: string) => process.stderr.write(`${s}\n`);
for (const [name, v] of [
  ['reps', REPS],
  ['size', SIZE],
] as const) {
  if (!Number.isInteger(v) || v < 1) {
    log(`--${name} takes a whole number of at least 1`);
    process.exit(2);
  }
}

const dir = seededRepo(SIZE);
// a code cache of this run's own, filled by the warm-up runs
const cache = mkdtempSync(join(tmpdir(), 'axme-bench-cache-'));
const env = benchEnv({ AXME_COMPILE_CACHE: cache });
const cold = benchEnv({ AXME_COMPILE_CACHE: 'off' });
const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { env, encoding: 'utf8' }).trim();
const seed = git('rev-parse', 'refs/memory/main');
const axme =
  (args: string[], e = env, cli = THIS) =>
  () =>
    timeProcess(process.execPath, [cli, ...args], { cwd: dir, env: e });
/** A write starts from the seeded store (untimed): this build's and the other's write the same item. */
const fresh = (timed: () => Promise<number>) => () => (git('update-ref', 'refs/memory/main', seed), timed());
const other = AGAINST && join(resolve(AGAINST), 'axme.cjs');
const read = ['decision', 'list', '--json'];
const write = ['decision', 'add', '--title', 'Start-up bench decision', '--decision', 'Measured by bench/startup.bench.ts.'];

interface Measure {
  measure: string;
  run: () => Promise<number>;
  budget?: number;
  /** the other build's twin of the measure before it: the two swap places every other round */
  twin?: true;
}
const node0: Measure = { measure: 'node -e 0', run: () => timeProcess(process.execPath, ['-e', '0'], { cwd: dir, env }) };
/** A measure, and with --against the same on the other build right after it. */
const twin = (m: Measure, args: string[], e: NodeJS.ProcessEnv, write = false): Measure[] =>
  other ? [m, { measure: `${m.measure.split(' (')[0]}, the other build`, run: write ? fresh(axme(args, e, other)) : axme(args, e, other), twin: true }] : [m];
const warm: Measure[] = [
  node0,
  ...twin({ measure: `read: axme decision list --json (${SIZE} decisions)`, run: axme(read), budget: 2 }, read, env),
  ...twin({ measure: `write: axme decision add (${SIZE} decisions)`, run: fresh(axme(write)), budget: 2.5 }, write, env, true),
  ...twin({ measure: 'axme --version (the CLI, no command)', run: axme(['--version']) }, ['--version'], env),
  ...(other ? twin({ measure: 'axme --help (every command loaded)', run: axme(['--help']) }, ['--help'], env) : []),
];
const noCache: Measure[] = [
  node0,
  ...twin({ measure: 'read, no code cache (AXME_COMPILE_CACHE=off)', run: axme(read, cold) }, read, cold),
  ...twin({ measure: 'write, no code cache (AXME_COMPILE_CACHE=off)', run: fresh(axme(write, cold)) }, write, cold, true),
];

/** Rounds of the measures in turn (the ref put back before each); samples per measure. */
async function rounds(measures: Measure[]): Promise<number[][]> {
  for (let w = 0; w < WARMUP; w++) for (const m of measures) await m.run(); // warm the file cache, the parse cache and the code cache
  const samples = measures.map(() => [] as number[]);
  for (let i = 0; i < REPS; i++) {
    git('update-ref', 'refs/memory/main', seed);
    // a twin runs after its measure in even rounds and before it in odd ones: neither build always goes first
    const order = measures.map((_, j) => j);
    if (i % 2) for (let j = 1; j < order.length; j++) if (measures[j]!.twin) [order[j - 1], order[j]] = [order[j]!, order[j - 1]!];
    for (const j of order) samples[j]!.push(await measures[j]!.run());
  }
  return samples;
}

const rows: Array<{ measure: string; stats: Stats; ratio?: number; budget?: number }> = [];
for (const measures of [warm, noCache]) {
  log(`start-up: ${REPS} rounds of ${measures.map((m) => m.measure.split(' (')[0]).join(' / ')}`);
  const samples = await rounds(measures);
  const base = stats(samples[0]!);
  for (const [j, m] of measures.entries()) {
    const s = stats(samples[j]!);
    if (j === 0 && rows.length) continue; // node -e 0 once: the first block's
    rows.push(
      j === 0 ? { measure: m.measure, stats: s } : { measure: m.measure, stats: s, ratio: s.median / base.median, ...(m.budget ? { budget: m.budget } : {}) },
    );
  }
}
log(`code caches: ${(readdirSync(cache, { recursive: true }) as string[]).filter((f) => f.endsWith('.bin')).join(', ') || 'none written'}`);

console.log(`CLI start-up vs node -e 0 (${cpus().length} cores, ${cpus()[0]?.model ?? 'cpu'}; node ${process.version}; ${REPS} alternating rounds)`);
console.log('| measure | median ms | p10 | p90 | × node -e 0 | budget |\n| --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows)
  console.log(
    `| ${r.measure} | ${fmt(r.stats.median)} | ${fmt(r.stats.p10)} | ${fmt(r.stats.p90)} | ${r.ratio === undefined ? '' : r.ratio.toFixed(2)} | ${r.budget === undefined ? '' : `≤ ${r.budget}`} |`,
  );
const file = join(OUT, `startup-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version }, reps: REPS, size: SIZE, rows }, null, 2)}\n`,
);
log(`results: ${file}`);
rmSync(dir, { recursive: true, force: true });
rmSync(cache, { recursive: true, force: true });
