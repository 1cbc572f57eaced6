// Side by side (issue 8): axme against what a user would otherwise use, pair by pair, at 1k,
// 10k and 100k items: saves vs a git plumbing script, the two object backends, concurrent
// writers, the official MCP memory server, the safety hook vs starting Node, and the context
// cold and warm. Markdown table on stdout, JSON in bench/results/, progress on stderr.
//
//   node --import tsx bench/compare.bench.ts [--sizes 1000,10000,100000] [--reps 15] [--only save,hook] [--out DIR] [--adds 50] [--writers 8]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtures, machine, type PairModule, type PairResult, renderTable } from './harness.ts';
import { argOf } from './lib.ts';
import { backendsPairs } from './pairs/backends.ts';
import { concurrentPairs } from './pairs/concurrent.ts';
import { contextPairs } from './pairs/context.ts';
import { hookPairs } from './pairs/hook.ts';
import { peerMemoryPairs } from './pairs/peer-memory.ts';
import { savePairs } from './pairs/save.ts';

const arg = (name: string, d: string) => argOf(process.argv.slice(2), name, d);
const PAIRS: Record<string, PairModule> = {
  save: savePairs,
  backends: backendsPairs,
  concurrent: concurrentPairs,
  peer: peerMemoryPairs,
  hook: hookPairs,
  context: contextPairs,
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
const out = arg('out', join(import.meta.dirname, 'results'));
const log = (s: string) => process.stderr.write(`${s}\n`);

const f = fixtures(log);
const results: PairResult[] = [];
const started = Date.now();
try {
  for (const name of only) {
    log(`pair ${name}`);
    results.push(...(await PAIRS[name]!({ sizes, reps, fixture: f.fixture, tempDir: f.tempDir, log, option: arg })));
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
