// Cold search (issue 33) and the prompt hook (issue 32) at 10,000 items, side by side with
// `node -e 0` in one run: each round runs every row once, in turn, so that the machine's noise
// hits all alike; a row's ratio to `node -e 0` is taken round by round. Rows: `axme search` at
// the memory tip (the index file alone: docs/search.md), the full CLI (`node dist/cli.js
// search`: reads the store, then the index file), the prompt hook, and what a person would run
// otherwise: `git grep` on the memory ref and `rg` over the store exported to a folder. Then a
// search after one command-line write and after a burst of them (wall and CPU, the writes' too;
// each side of the bursts on a store of its own, made for them), and in one process (as the MCP
// server), a warm query and the first query after a write.
//
//   npm run build && node --import tsx bench/search-cold.bench.ts [--size 10000] [--reps 15] [--before DIST]
//
// --before DIST: the same rows for another build's dist/axme.cjs (e.g. main's), on a store of its own.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeKnowledgeBase, openKnowledgeBase } from '../src/knowledge/core/kb.ts';
import { locateRepo } from '../src/knowledge/core/location.ts';
import { readMergedState } from '../src/knowledge/core/merged-state.ts';
import { addDecision } from '../src/knowledge/items/decision/add-decision.ts';
import { BACKGROUND_INDEX_ITEMS } from '../src/knowledge/views/search/index-worker.ts';
import { indexKey, searchDir } from '../src/knowledge/views/search/persist.ts';
import { searchAtTip } from '../src/knowledge/views/search/tip-search.ts';
import { loadSearchIndex, searchKnowledge } from '../src/knowledge/views/search.ts';
import { aheadDone } from '../test/knowledge/index-written.ts';
import { machine } from './harness.ts';
import { argOf, benchEnv, CLI, fmt, type ProcessTiming, seededRepo, stats, timeCall, timeProcess, timeProcessCpu, timeWriteBurst, WRITE_BURST } from './lib.ts';

const argv = process.argv.slice(2);
const size = Number(argOf(argv, 'size', '10000'));
const reps = Number(argOf(argv, 'reps', '15'));
const before = argOf(argv, 'before', '');
const log = (s: string) => process.stderr.write(`${s}\n`);
const QUERY = ['component', '42'];
const PROMPT = 'which approach does component 42 use?';
const env = benchEnv();

interface Row {
  label: string;
  cmd: string;
  args: string[];
  cwd: string;
  input?: () => string;
}

/** A store of `size` seeded decisions with its index on disk (one full search run first). */
function store(axme: string): string {
  const dir = seededRepo(size);
  execFileSync('node', [axme, 'search', ...QUERY], { cwd: dir, env, stdio: 'ignore' });
  return dir;
}

let session = 0;
const hookInput = (dir: string) => () =>
  JSON.stringify({ prompt: PROMPT, session_id: `bench-${process.pid}-${session++}`, cwd: dir, hook_event_name: 'UserPromptSubmit' });

log(`seeding ${size} decisions…`);
const dir = store(CLI);
const rows: Row[] = [
  { label: 'node -e 0', cmd: 'node', args: ['-e', '0'], cwd: dir },
  { label: 'axme --version', cmd: 'node', args: [CLI, '--version'], cwd: dir },
  { label: 'axme search (at the tip)', cmd: 'node', args: [CLI, 'search', ...QUERY], cwd: dir },
  { label: 'full CLI search (reads the store)', cmd: 'node', args: [join(CLI, '../cli.js'), 'search', ...QUERY], cwd: dir },
  { label: 'prompt hook (user-prompt-submit)', cmd: 'node', args: [CLI, 'hook', 'user-prompt-submit'], cwd: dir, input: hookInput(dir) },
  { label: 'git grep on refs/memory/main', cmd: 'git', args: ['grep', '-i', '-e', 'component 42', 'refs/memory/main'], cwd: dir },
];
const exported = mkdtempSync(join(tmpdir(), 'axme-export-'));
execFileSync('sh', ['-c', `git -C ${dir} archive refs/memory/main | tar -x -C ${exported}`]);
if (spawnSync('rg', ['--version']).status === 0)
  rows.push({ label: 'rg over the store exported', cmd: 'rg', args: ['-i', '-c', 'component 42', exported], cwd: dir });
const old = before ? (log(`seeding ${size} decisions for ${before}…`), store(before)) : '';
if (before) {
  rows.push({ label: `before: axme search (${before})`, cmd: 'node', args: [before, 'search', ...QUERY], cwd: old });
  rows.push({ label: `before: prompt hook (${before})`, cmd: 'node', args: [before, 'hook', 'user-prompt-submit'], cwd: old, input: hookInput(old) });
}

const times = rows.map(() => [] as number[]);
const ratios = rows.map(() => [] as number[]);
for (let round = 0; round <= reps; round++) {
  const t: number[] = [];
  for (const row of rows) {
    // rg and git grep exit 1 when nothing matches: their time counts all the same
    const ms = await timeProcess(row.cmd, row.args, { cwd: row.cwd, env, input: row.input?.() ?? '' }).catch(() => NaN);
    t.push(ms);
  }
  if (round === 0) continue; // warm-up: the page cache, the code caches
  t.forEach((ms, i) => {
    times[i]!.push(ms);
    ratios[i]!.push(ms / t[0]!);
  });
  log(`round ${round}/${reps}`);
}

// `axme search` after a command-line write (a process that writes and ends, as an agent's shell
// tool runs it): the write's worker lets the search read the new tip's file; without one (the
// write made in this process, which starts no worker: what every command-line write left before)
// the search lays the write over in its own process. Each round: node -e 0, then the two in turn.
const afterCli: number[] = [];
const afterBare: number[] = [];
const afterRatios: [number[], number[]] = [[], []];
const tipFileOf = async (at = dir) => {
  const kb = await openKnowledgeBase({ cwd: at, env });
  try {
    const state = await readMergedState(kb);
    return join(searchDir(kb.repo.axmeDir), `${indexKey(state)}.idx`);
  } finally {
    await closeKnowledgeBase(kb);
  }
};
const search = () => timeProcess('node', [CLI, 'search', ...QUERY], { cwd: dir, env, input: '' });

// (a store under BACKGROUND_INDEX_ITEMS starts no worker: its first search builds the index within its time)
for (let round = 0; size >= BACKGROUND_INDEX_ITEMS && round < Math.max(3, Math.ceil(reps / 3)); round++) {
  const base = await timeProcess('node', ['-e', '0'], { cwd: dir, env, input: '' });
  execFileSync('node', [CLI, 'decision', 'add', '--title', `Bench CLI write ${round} about component 42`, '--decision', 'Written by the command line.'], {
    cwd: dir,
    env,
    stdio: 'ignore',
  });
  // the worker's file, waited for (a search an agent runs after reading the write's answer)
  const file = await tipFileOf();
  for (let i = 0; i < 600 && !existsSync(file); i++) await sleep(50);
  const cli = await search();
  const kb = await openKnowledgeBase({ cwd: dir, env, actor: 'agent' });
  await addDecision(kb, { title: `Bench core write ${round} about component 42`, decision: 'Written in-process: no worker.' });
  await closeKnowledgeBase(kb);
  const bare = await search();
  afterCli.push(cli);
  afterBare.push(bare);
  afterRatios[0].push(cli / base);
  afterRatios[1].push(bare / base);
  log(`after a write: round ${round + 1}`);
}

// `axme search` after a burst of command-line writes (an agent's several `axme decision add` in a
// row): only the first write starts a worker, the others find its lock held. This build's worker
// goes again for the tip they left (index-worker.ts indexAheadAgain); --before's made the tip it
// saw, and the search laid the rest over itself. Each round, for this build and then --before's
// (the order turned every round), each on its own store: node -e 0, BURST writes back to back
// (their wall and CPU: a write never waits for the worker), the workers waited for, the search.
const BURST = WRITE_BURST;
interface BurstSide {
  label: string;
  cli: string;
  dir: string;
  /** the BURST writes' wall and CPU ms, summed over the writes */
  writes: ProcessTiming[];
  search: ProcessTiming[];
  /** the search's wall time over node -e 0's of its round */
  ratio: number[];
  /** rounds whose search found the last write's index file */
  indexed: number;
}
// each side on a store of its own made for the bursts, the same way: the stores of the rows above
// have been through different work (this build's, the writes above), which alone made its writes
// cost 6–23 % more CPU than the same build's on the other store
const burstSide = (label: string, cli: string): BurstSide => {
  log(`seeding ${size} decisions for the bursts of ${cli}…`);
  return { label, cli, dir: store(cli), writes: [], search: [], ratio: [], indexed: 0 };
};
const burstSides: BurstSide[] = size >= BACKGROUND_INDEX_ITEMS ? [burstSide('this build', CLI)] : [];
if (before && burstSides.length) burstSides.push(burstSide(`before (${before})`, before));
for (let round = 0; size >= BACKGROUND_INDEX_ITEMS && round < Math.max(3, Math.ceil(reps / 3)); round++) {
  for (const side of round % 2 ? [...burstSides].reverse() : burstSides) {
    const base = await timeProcess('node', ['-e', '0'], { cwd: side.dir, env, input: '' });
    const writes = await timeWriteBurst(side.cli, side.dir, env, round);
    side.writes.push(writes);
    // what a search an agent runs a while after the burst meets: no worker at work any more
    await aheadDone(side.dir);
    if (existsSync(await tipFileOf(side.dir))) side.indexed++;
    const found = await timeProcessCpu('node', [side.cli, 'search', ...QUERY], { cwd: side.dir, env });
    side.search.push(found);
    side.ratio.push(found.ms / base);
  }
  log(`after a burst of ${BURST} writes: round ${round + 1}`);
}

// one process, as the MCP server: warm queries, then the first query after its own write
const kb = await openKnowledgeBase({ cwd: dir, env, actor: 'agent' });
const warm: number[] = [];
const afterWrite: number[] = [];
// the process's CPU time (user + system) of the same queries: the wall clock also counts other processes' turns
const warmCpu: number[] = [];
const afterWriteCpu: number[] = [];
const q = { query: QUERY.join(' ') };
const timed = (wall: number[], cpu: number[]) => timeCall(() => searchKnowledge(kb, q), wall, cpu);
await searchKnowledge(kb, q);
for (let i = 0; i < 5; i++) {
  for (let j = 0; j < 10; j++) await timed(warm, warmCpu);
  await addDecision(kb, { title: `Bench write ${i} about component 42`, decision: `A decision written between queries (${i}).` });
  await timed(afterWrite, afterWriteCpu);
}
const last = await loadSearchIndex(kb);
await closeKnowledgeBase(kb);
// what a query at the tip reads of the index file (the last write's index is on disk)
const reads = { read: 0, size: 0 };
searchAtTip({ loc: locateRepo(dir, env)!, cwd: dir, env, query: QUERY.join(' '), k: 10, type: 'all', reads });
const promptReads = { read: 0, size: 0 };
searchAtTip({ loc: locateRepo(dir, env)!, cwd: dir, env, query: PROMPT, k: 12, type: 'all', reads: promptReads });

const lines = [
  `## Cold search and the prompt hook at ${size} items (${new Date().toISOString().slice(0, 10)})`,
  '',
  (({ cpu, cores, node, git }) => `${cpu}, ${cores} cores, node ${node}, git ${git}`)(machine()),
  '',
  `${reps} rounds, every row once a round in turn; query \`${QUERY.join(' ')}\`, prompt "${PROMPT}".`,
  '',
  '| | median ms | p10–p90 ms | × `node -e 0` (median of rounds) |',
  '| --- | ---: | ---: | ---: |',
  ...rows.map((r, i) => {
    const s = stats(times[i]!.filter(Number.isFinite));
    const x = stats(ratios[i]!.filter(Number.isFinite));
    return `| ${r.label} | ${fmt(s.median)} | ${fmt(s.p10)}–${fmt(s.p90)} | ${x.median.toFixed(2)} |`;
  }),
  '',
  '| `axme search` after a write on the command line | median ms | p10–p90 ms | × `node -e 0` |',
  '| --- | ---: | ---: | ---: |',
  ...(afterCli.length ? [] : [`| (a store under ${BACKGROUND_INDEX_ITEMS} items: no worker, not measured) | | | |`]),
  ...(
    [
      ["the write's worker done (what a search after the write's answer meets)", afterCli, afterRatios[0]],
      ['no worker: the search lays the write over (every write before)', afterBare, afterRatios[1]],
    ] as const
  )
    .filter(([, ms]) => ms.length)
    .map(([label, ms, x]) => `| ${label} | ${fmt(stats(ms).median)} | ${fmt(stats(ms).p10)}–${fmt(stats(ms).p90)} | ${stats(x).median.toFixed(2)} |`),
  '',
  `| \`axme search\` after a burst of ${BURST} command-line writes | search: median ms | p10–p90 ms | × \`node -e 0\` | search: CPU median ms | the ${BURST} writes: median ms | their CPU median ms | rounds the last tip had its index |`,
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...(burstSides.length ? [] : [`| (a store under ${BACKGROUND_INDEX_ITEMS} items: no worker, not measured) | | | | | | | |`]),
  ...burstSides
    .filter((b) => b.search.length)
    .map((b) => {
      const wall = stats(b.search.map((t) => t.ms));
      const cpu = (ts: ProcessTiming[]) => fmt(stats(ts.map((t) => t.cpu)).median);
      return `| ${b.label} | ${fmt(wall.median)} | ${fmt(wall.p10)}–${fmt(wall.p90)} | ${stats(b.ratio).median.toFixed(2)} | ${cpu(b.search)} | ${fmt(stats(b.writes.map((t) => t.ms)).median)} | ${cpu(b.writes)} | ${b.indexed} of ${b.search.length} |`;
    }),
  '',
  '| in one process (the MCP server) | median ms | p90 ms | CPU median ms | CPU p90 ms |',
  '| --- | ---: | ---: | ---: | ---: |',
  `| warm query | ${fmt(stats(warm).median)} | ${fmt(stats(warm).p90)} | ${fmt(stats(warmCpu).median)} | ${fmt(stats(warmCpu).p90)} |`,
  `| first query after its own write | ${fmt(stats(afterWrite).median)} | ${fmt(stats(afterWrite).p90)} | ${fmt(stats(afterWriteCpu).median)} | ${fmt(stats(afterWriteCpu).p90)} |`,
  '',
  `After the writes the index was ${last.source}, ${last.reused} of ${last.index.docs.length} documents reused${last.encoded === undefined ? '' : `, ${last.encoded} record(s) encoded for its file`}.`,
  `A query at the tip read ${reads.read.toLocaleString('en')} of the index file's ${reads.size.toLocaleString('en')} bytes (\`${QUERY.join(' ')}\`); the prompt ${promptReads.read.toLocaleString('en')}.`,
];
console.log(lines.join('\n'));
const out = join(import.meta.dirname, 'results');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'search-cold.json'),
  JSON.stringify(
    {
      size,
      reps,
      rows: rows.map((r, i) => ({ label: r.label, ms: times[i], ratio: ratios[i] })),
      warm,
      afterWrite,
      afterCli,
      afterBare,
      burst: burstSides.map(({ label, writes, search, ratio, indexed }) => ({ label, writes, search, ratio, indexed })),
      warmCpu,
      afterWriteCpu,
      reads,
      promptReads,
    },
    null,
    2,
  ),
);
