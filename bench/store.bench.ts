// Store benchmark (issue 2): one add through the in-process API (both backends) and through the
// CLI, a cold `axme decision list --json`, and the same add as a plain git plumbing script,
// at several store sizes. Prints a table on stdout, writes JSON to bench/results/.
// A CLI add on a store of BACKGROUND_INDEX_ITEMS items or more starts the search index worker
// (docs/search.md): each add's worker is waited for, outside the time measured, before the next
// run, so that no row counts it (it is the add's as a user meets it: the check and the start).
import { rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { BackendName } from '../src/store/backend.ts';
import { argOf, wholeArg, wholeListArg } from './args.ts';
import type { Stats } from './lib.ts';

const argv = process.argv.slice(2);
const SIZES = wholeListArg('store.bench', argv, 'sizes', '100,1000,10000', 0);
const REPS = wholeArg('store.bench', argv, 'reps', 15);
const OUT = argOf(argv, 'out', join(import.meta.dirname, 'results'));
// what is measured is loaded once the options are good: a usage error costs only Node's start
const { openKnowledgeBase } = await import('../src/knowledge/core/kb.ts');
const { addDecision } = await import('../src/knowledge/items/decision/add-decision.ts');
const { benchEnv, CLI, fmt, seededRepo, stats, timeProcess } = await import('./lib.ts');
const { BACKGROUND_INDEX_ITEMS } = await import('../src/knowledge/views/search/index-worker.ts');
const { aheadDone } = await import('../test/knowledge/index-written.ts');

interface Row {
  size: number;
  measure: string;
  stats: Stats;
}
const rows: Row[] = [];
const log = (s: string) => process.stderr.write(`${s}\n`);

async function apiAdds(dir: string, backend: BackendName, size: number): Promise<void> {
  const kb = await openKnowledgeBase({ cwd: dir, env: benchEnv(), backend, actor: 'agent' });
  try {
    await addDecision(kb, { title: `warm-up ${backend}`, decision: 'x' }); // warm caches, load modules
    const samples: number[] = [];
    for (let i = 0; i < REPS; i++) {
      const t0 = performance.now();
      await addDecision(kb, { title: `api ${backend} ${i}`, decision: 'Benchmark add.' });
      samples.push(performance.now() - t0);
    }
    rows.push({ size, measure: `add, in-process API (${backend}, warm)`, stats: stats(samples) });
  } finally {
    await kb.repo.close();
  }
}

async function processRuns(size: number, measure: string, run: (i: number) => Promise<number>): Promise<void> {
  const samples: number[] = [];
  for (let i = 0; i < REPS; i++) samples.push(await run(i));
  rows.push({ size, measure, stats: stats(samples) });
}

for (const size of SIZES) {
  log(`seeding a store with ${size} decisions...`);
  const dir = seededRepo(size);
  const env = benchEnv();
  try {
    // first cold list builds the parse cache: measure it once, then the usual (cached) case
    const first = await timeProcess(process.execPath, [CLI, 'decision', 'list', '--json'], { cwd: dir, env });
    rows.push({ size, measure: 'list --json, cold process, no parse cache (first run)', stats: stats([first]) });
    log(`  size ${size}: API adds`);
    await apiAdds(dir, 'isogit', size);
    await apiAdds(dir, 'cli', size);
    for (const backend of ['cli', 'isogit'] as const) {
      log(`  size ${size}: CLI adds (${backend})`);
      await processRuns(size, `add, CLI process (AXME_BACKEND=${backend})`, async (i) => {
        const ms = await timeProcess(process.execPath, [CLI, 'decision', 'add', '--title', `cli ${backend} ${i}`, '--decision', 'Benchmark add.'], {
          cwd: dir,
          env: { ...env, AXME_BACKEND: backend },
        });
        // the index worker the add started (if any) done before the next run: it would compete with it
        await aheadDone(dir);
        return ms;
      });
      await processRuns(size, `list --json, cold process (AXME_BACKEND=${backend})`, () =>
        timeProcess(process.execPath, [CLI, 'decision', 'list', '--json'], { cwd: dir, env: { ...env, AXME_BACKEND: backend } }),
      );
    }
    log(`  size ${size}: plumbing adds`);
    await processRuns(size, 'add, git plumbing script (hash-object, mktree, commit-tree, update-ref)', (i) =>
      timeProcess('bash', [join(import.meta.dirname, 'plumbing-add.sh'), `plumbing-${i}`], { cwd: dir, env }),
    );
    await processRuns(size, 'baseline: node -e 0', () => timeProcess(process.execPath, ['-e', '0'], { cwd: dir, env }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`;
const header = `| items | measure | median ms | p10 | p90 | runs |\n|---:|---|---:|---:|---:|---:|`;
const table = rows.map((r) => `| ${r.size} | ${r.measure} | ${fmt(r.stats.median)} | ${fmt(r.stats.p10)} | ${fmt(r.stats.p90)} | ${r.stats.n} |`).join('\n');
const workers = `A CLI add on a store of ${BACKGROUND_INDEX_ITEMS} items or more starts the search index worker: each was waited for before the next run, outside the time measured.`;
process.stdout.write(`Store benchmark on ${machine}\n\n${header}\n${table}\n\n${workers}\n`);
const file = join(OUT, `store-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ machine, date: new Date().toISOString(), reps: REPS, rows, workers }, null, 2));
log(`results written to ${file}`);
