// Side by side (issue 8): axme against what a user would otherwise use, pair by pair, at 1k,
// 10k and 100k items: saves vs a git plumbing script, the two object backends, concurrent
// writers, the official MCP memory server, the safety hook vs starting Node, and the context
// cold and warm. Markdown table on stdout, JSON in bench/results/, progress on stderr.
//
//   node --import tsx bench/compare.bench.ts [--sizes 1000,10000,100000] [--reps 15] [--only save,hook] [--out DIR] [--adds 50] [--writers 8] [--warmup N]
//
// --warmup N: at most N untimed rounds of each pair before its timed ones (each pair's own count by
// default, 1 or 2; a smoke run that only proves the pairs still run takes 0)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { argOf } from './args.ts';
import type { PairModule, PairResult } from './harness.ts';

const arg = (name: string, d: string) => argOf(process.argv.slice(2), name, d);
// each pair's module is loaded once the command line is known to be good: a usage error costs
// only Node's start, not loading axme, the MCP SDK and esbuild
const PAIRS: Record<string, () => Promise<PairModule>> = {
  save: async () => (await import('./pairs/save.ts')).savePairs,
  backends: async () => (await import('./pairs/backends.ts')).backendsPairs,
  concurrent: async () => (await import('./pairs/concurrent.ts')).concurrentPairs,
  peer: async () => (await import('./pairs/peer-memory.ts')).peerMemoryPairs,
  hook: async () => (await import('./pairs/hook.ts')).hookPairs,
  context: async () => (await import('./pairs/context.ts')).contextPairs,
};
const usage = (message: string): never => {
  process.stderr.write(`compare.bench: ${message}\n`);
  process.exit(2);
};
const only = arg('only', Object.keys(PAIRS).join(',')).split(',');
for (const name of only) if (!PAIRS[name]) usage(`--only: no pair ${name} (pairs: ${Object.keys(PAIRS).join(', ')})`);
const sizes = arg('sizes', '1000,10000,100000').split(',').map(Number);
if (!sizes.every((n) => Number.isInteger(n) && n > 0))
  usage(`--sizes takes whole numbers of items separated by commas, e.g. 1000,10000; got ${arg('sizes', '')}`);
const reps = Number(arg('reps', '15'));
if (!Number.isInteger(reps) || reps < 1) usage(`--reps takes a whole number of rounds, at least 1; got ${arg('reps', '')}`);
/** --warmup N caps each pair's untimed rounds; without it each pair runs its own count */
const warmup = arg('warmup', '');
if (warmup !== '' && !/^\d+$/.test(warmup)) usage(`--warmup takes a whole number of untimed rounds, at least 0; got ${warmup}`);
const warmupCap = warmup === '' ? Number.POSITIVE_INFINITY : Number(warmup);
const out = arg('out', join(import.meta.dirname, 'results'));
const log = (s: string) => process.stderr.write(`${s}\n`);

const { fixtures, machine, renderTable } = await import('./harness.ts');
const pairs = await Promise.all(only.map((name) => PAIRS[name]!()));
const f = fixtures(log);
const results: PairResult[] = [];
const started = Date.now();
try {
  for (const [i, name] of only.entries()) {
    log(`pair ${name}`);
    results.push(
      ...(await pairs[i]!({ sizes, reps, fixture: f.fixture, tempDir: f.tempDir, log, option: arg, warmup: (rounds) => Math.min(rounds, warmupCap) })),
    );
  }
} finally {
  f.cleanup();
}
const m = machine();
console.log(`Side by side: ${m.cores} x ${m.cpu}, ${m.memoryGiB} GiB, node ${m.node}, git ${m.git}; ${reps} rounds per pair, A and B alternating\n`);
console.log(renderTable(results));
mkdirSync(out, { recursive: true });
const file = join(out, `compare-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ date: new Date().toISOString(), machine: m, reps, sizes, seconds: Math.round((Date.now() - started) / 1000), results }, null, 2)}\n`,
);
log(`results: ${file}`);
