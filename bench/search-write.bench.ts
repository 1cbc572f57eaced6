// The first query after a write in one process (the MCP server's case), beside a warm query, side
// by side with another checkout's code in one run (`--before <checkout>`: its src/ is loaded, e.g.
// main). Each side gets a seeded store of its own; a first process writes the index, then each
// round a new process per side, in turn, reads it from disk (the MCP server after a restart),
// asks 4 queries, 20 warm ones, then writes an item and asks once, `--writes` times; what a
// process leaves for after the answer (the index file) is then run at once and timed apart, so
// that it lands in no other row. Each query is timed by the wall clock and by the process's CPU
// time (user + system: on a shared machine the wall clock also counts other processes' turns).
// Table on stdout, JSON in bench/results/search-write-<date>.json.
//
// `--gap <ms>`: the MCP server's case, where the next call comes after the agent's turn: after each
// write the side starts the index of the new tip ahead (`searchAhead`, what the server does after
// a write tool's answer; a side without it does nothing) and the query comes `ms` later; the CPU
// the process spent in that gap is its own column.
//
//   node --import tsx bench/search-write.bench.ts [--size 10000] [--rounds 3] [--writes 5] [--gap 0] [--before /path/to/checkout]
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { machine } from './harness.ts';
import { argOf, benchEnv, fmt, type Stats, seededRepo, stats, timeCall } from './lib.ts';

const argv = process.argv.slice(2);
const QUERIES = ['component 42 approach', 'how do we seed the benchmark', 'decision about component 7', 'measured approach'];

interface Sample {
  warm: number[];
  write: number[];
  after: number[];
  /** the process's CPU time (user + system) of each warm query and each first query after a write */
  warmCpu: number[];
  afterCpu: number[];
  /** the index file written after the answer (DerivedCache.later), run here at once: 0 where the query wrote it itself */
  file: number[];
  /** with --gap: the process's CPU time between the write and the query (the index made ahead) */
  gapCpu: number[];
  /** the process's CPU time for a whole write: the write, the gap, the query and the index file */
  cycleCpu: number[];
  sources: string[];
}

/** One process of one side: `root`'s code on `repo`. */
async function child(root: string, repo: string, writes: number, label: string, gap: number): Promise<void> {
  const { openKnowledgeBase, closeKnowledgeBase } = await import(join(root, 'src/knowledge/core/kb.ts'));
  const { addDecision } = await import(join(root, 'src/knowledge/items/decision/add-decision.ts'));
  const { searchStore, loadSearchIndex, searchAhead } = await import(join(root, 'src/knowledge/views/search.ts'));
  const kb = await openKnowledgeBase({ cwd: repo, env: benchEnv({ AXME_SEARCH_MODEL: 'off' }), backend: 'cli' });
  const out: Sample = { warm: [], write: [], after: [], warmCpu: [], afterCpu: [], file: [], gapCpu: [], cycleCpu: [], sources: [] };
  const timed = (q: string, wall: number[], cpu: number[]) => timeCall(() => searchStore(kb, q), wall, cpu);
  for (const q of QUERIES) await searchStore(kb, q);
  for (let r = 0; r < 5; r++) for (const q of QUERIES) await timed(q, out.warm, out.warmCpu);
  for (let w = 0; w < writes; w++) {
    const cycle = process.cpuUsage();
    let t0 = performance.now();
    await addDecision(kb, { title: `Written by ${label} ${process.pid} ${w}`, decision: `Component ${w} uses a new approach.` });
    out.write.push(performance.now() - t0);
    if (gap > 0) {
      const c0 = process.cpuUsage();
      searchAhead?.(kb);
      await new Promise((resolve) => setTimeout(resolve, gap));
      const c = process.cpuUsage(c0);
      out.gapCpu.push((c.user + c.system) / 1000);
    }
    await timed(QUERIES[w % QUERIES.length]!, out.after, out.afterCpu);
    t0 = performance.now();
    kb.cache.settle?.();
    out.file.push(performance.now() - t0);
    const c = process.cpuUsage(cycle);
    out.cycleCpu.push((c.user + c.system) / 1000);
    out.sources.push((await loadSearchIndex(kb)).source);
  }
  await closeKnowledgeBase(kb);
  process.stdout.write(JSON.stringify(out));
}

async function main(): Promise<void> {
  const SIZE = Number(argOf(argv, 'size', '10000'));
  const ROUNDS = Number(argOf(argv, 'rounds', '3'));
  const WRITES = Number(argOf(argv, 'writes', '5'));
  const before = argOf(argv, 'before', '');
  const GAP = Number(argOf(argv, 'gap', '0'));
  if (![SIZE, ROUNDS, WRITES].every((n) => Number.isInteger(n) && n > 0) || !Number.isInteger(GAP) || GAP < 0) {
    process.stderr.write('search-write.bench: --size, --rounds and --writes take a whole number, --gap a number of milliseconds\n');
    process.exit(2);
  }
  const sides: Array<[string, string]> = [['now', resolve(import.meta.dirname, '..')]];
  if (before) sides.unshift(['before', resolve(before)]);
  const repos = new Map(sides.map(([name]) => [name, seededRepo(SIZE)]));
  const run = (name: string, root: string, writes: number): Sample => {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', import.meta.filename, '--child', root, '--repo', repos.get(name)!, '--writes', String(writes), '--label', name, '--gap', String(GAP)],
      {
        encoding: 'utf8',
        env: benchEnv({ AXME_SEARCH_MODEL: 'off' }),
        maxBuffer: 1 << 26,
      },
    );
    if (r.status !== 0) throw new Error(`${name}: ${r.stderr}`);
    return JSON.parse(r.stdout) as Sample;
  };
  const all = new Map(
    sides.map(([name]): [string, Sample] => [
      name,
      { warm: [], write: [], after: [], warmCpu: [], afterCpu: [], file: [], gapCpu: [], cycleCpu: [], sources: [] },
    ]),
  );
  try {
    for (const [name, root] of sides) run(name, root, 1); // the index written (built), then patched once
    for (let r = 0; r < ROUNDS; r++)
      for (const [name, root] of sides) {
        const s = run(name, root, WRITES);
        const a = all.get(name)!;
        a.warm.push(...s.warm);
        a.write.push(...s.write);
        a.after.push(...s.after);
        a.warmCpu.push(...s.warmCpu);
        a.afterCpu.push(...s.afterCpu);
        a.file.push(...s.file);
        a.gapCpu.push(...s.gapCpu);
        a.cycleCpu.push(...s.cycleCpu);
        a.sources.push(...s.sources);
        process.stderr.write(
          `search-write.bench: round ${r + 1} ${name}: warm ${fmt(stats(s.warm).median)} ms, after a write ${s.after.map(fmt).join(' ')} ms\n`,
        );
      }
  } finally {
    for (const repo of repos.values()) rmSync(repo, { recursive: true, force: true });
  }
  const cell = (s: Stats) => `${fmt(s.median)} (${fmt(s.p10)}–${fmt(s.p90)})`;
  console.log(
    `| ${SIZE} decisions, ms median (p10–p90) | warm query | the write | first query after it | × warm | warm query, CPU | first after a write, CPU | × warm, CPU | index file, after the answer |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
  );
  const rows = [...all].map(([name, a]) => ({
    name,
    warm: stats(a.warm),
    write: stats(a.write),
    after: stats(a.after),
    warmCpu: stats(a.warmCpu),
    afterCpu: stats(a.afterCpu),
    file: stats(a.file),
    gapCpu: GAP > 0 ? stats(a.gapCpu) : undefined,
    cycleCpu: stats(a.cycleCpu),
    afterCpuByWrite: Array.from({ length: WRITES }, (_, w) => stats(a.afterCpu.filter((_, i) => i % WRITES === w))),
    sources: [...new Set(a.sources)],
  }));
  for (const r of rows)
    console.log(
      `| ${r.name} | ${cell(r.warm)} | ${cell(r.write)} | ${cell(r.after)} | ${(r.after.median / r.warm.median).toFixed(1)}× | ${cell(r.warmCpu)} | ${cell(r.afterCpu)} | ${(r.afterCpu.median / r.warmCpu.median).toFixed(1)}× | ${cell(r.file)} |`,
    );
  // the first writes of a process run code V8 has not compiled yet: the same CPU time by the write's place in its process
  console.log(
    `\n| first query after the n-th write of a process, CPU ms median | ${Array.from({ length: WRITES }, (_, w) => w + 1).join(' | ')} |\n| --- |${' ---: |'.repeat(WRITES)}`,
  );
  for (const r of rows) console.log(`| ${r.name} | ${r.afterCpuByWrite.map((s) => fmt(s.median)).join(' | ')} |`);
  console.log(
    `\n| CPU ms median (p10–p90) | ${GAP > 0 ? `the ${GAP} ms between the write and the query (the index made ahead) | ` : ''}a write all told: the write${GAP > 0 ? ', the gap' : ''}, the query, the index file |\n| --- |${GAP > 0 ? ' ---: |' : ''} ---: |`,
  );
  for (const r of rows) console.log(`| ${r.name} | ${GAP > 0 ? `${cell(r.gapCpu!)} | ` : ''}${cell(r.cycleCpu)} |`);
  const out = argOf(argv, 'out', join(import.meta.dirname, 'results'));
  mkdirSync(out, { recursive: true });
  const file = join(out, `search-write-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), machine: machine(), size: SIZE, rounds: ROUNDS, writes: WRITES, gap: GAP, rows }, null, 2)}\n`,
  );
  process.stderr.write(`search-write.bench: results: ${file}\n`);
}

if (argv.includes('--child'))
  await child(argOf(argv, 'child', ''), argOf(argv, 'repo', ''), Number(argOf(argv, 'writes', '1')), argOf(argv, 'label', ''), Number(argOf(argv, 'gap', '0')));
else await main();
