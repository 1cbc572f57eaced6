// A burst of command-line writes while the index worker works (src/knowledge/views/search/
// index-worker.ts), build against build in one run: each round, for every build in turn (the
// order turned every round), on a store of its own: BURST `axme decision add` back to back (their
// wall and CPU time: a write never waits for the worker), the worker's CPU time (read from
// /proc/<pid>/stat while it lives: the last look before it ends, every LOOK_MS), how long after
// the last write the last tip's index file was there, and whether it was once the worker was done.
//
//   npm run build && node --import tsx bench/index-worker.bench.ts [--size 2000] [--rounds 10] [--before DIST[,DIST…]]
//
// --before: other builds' dist/axme.cjs (e.g. main's), each on a store of its own.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeKnowledgeBase, openKnowledgeBase } from '../src/knowledge/core/kb.ts';
import { readMergedState } from '../src/knowledge/core/merged-state.ts';
import { aheadLockPath, BACKGROUND_INDEX_ITEMS } from '../src/knowledge/views/search/index-worker.ts';
import { indexKey, searchDir } from '../src/knowledge/views/search/persist.ts';
import { machine } from './harness.ts';
import { argOf, benchEnv, CLI, fmt, type ProcessTiming, seededRepo, stats, timeWriteBurst, WRITE_BURST } from './lib.ts';

const argv = process.argv.slice(2);
const size = Number(argOf(argv, 'size', String(BACKGROUND_INDEX_ITEMS)));
const rounds = Number(argOf(argv, 'rounds', '10'));
const before = argOf(argv, 'before', '').split(',').filter(Boolean);
const log = (s: string) => process.stderr.write(`${s}\n`);
const env = benchEnv();
const BURST = WRITE_BURST;
/** How often the worker's CPU time and the tip's index file are looked at. */
const LOOK_MS = 20;
/** The clock ticks /proc counts CPU time in (USER_HZ: 100 on Linux builds). */
const TICK_MS = 10;

interface Side {
  label: string;
  cli: string;
  dir: string;
  writes: ProcessTiming[];
  /** the CPU ms of the workers of a round, summed */
  worker: number[];
  /** ms from the last write's end to the last tip's index file (NaN: not there once the workers were done) */
  indexedAfter: number[];
}

/** A process's CPU time in ms (user + system), undefined once it has ended. */
function cpuOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/** Where the index file of the tip of the store at `dir` goes, and the lock naming its worker. */
async function filesOf(dir: string): Promise<{ tipFile: string; lock: string }> {
  const kb = await openKnowledgeBase({ cwd: dir, env });
  try {
    return { tipFile: join(searchDir(kb.repo.axmeDir), `${indexKey(await readMergedState(kb))}.idx`), lock: aheadLockPath(kb) };
  } finally {
    await closeKnowledgeBase(kb);
  }
}

/** The workers the lock `lock` names while it is held, their CPU time followed until each ends. */
function followWorkers(lock: string): { stop: () => Promise<number> } {
  const seen = new Map<number, number>();
  let going = true;
  const loop = (async () => {
    while (going || [...seen.keys()].some((pid) => cpuOf(pid) !== undefined)) {
      let holder = 0;
      try {
        holder = Number(readFileSync(lock, 'utf8').split(' ')[0]);
      } catch {}
      if (holder > 0 && !seen.has(holder)) seen.set(holder, 0);
      for (const pid of seen.keys()) {
        const cpu = cpuOf(pid);
        if (cpu !== undefined) seen.set(pid, cpu);
      }
      await sleep(LOOK_MS);
    }
  })();
  return {
    stop: async () => {
      going = false;
      await loop;
      return [...seen.values()].reduce((a, b) => a + b, 0);
    },
  };
}

const sides: Side[] = [CLI, ...before].map((cli, i) => {
  log(`seeding ${size} decisions for ${cli}…`);
  return { label: i === 0 ? 'this build' : `before (${cli})`, cli, dir: seededRepo(size), writes: [], worker: [], indexedAfter: [] };
});

for (let round = 0; round < rounds; round++) {
  const order = sides.map((_, i) => sides[(i + round) % sides.length]!);
  for (const side of order) {
    const workers = followWorkers((await filesOf(side.dir)).lock);
    const writes = await timeWriteBurst(side.cli, side.dir, env, round);
    const end = performance.now();
    const file = (await filesOf(side.dir)).tipFile;
    let indexedAt = Number.NaN;
    const watching = (async () => {
      for (let i = 0; i < 60_000 / LOOK_MS && Number.isNaN(indexedAt); i++) {
        if (existsSync(file)) indexedAt = performance.now() - end;
        else await sleep(LOOK_MS);
      }
    })();
    side.worker.push(await workers.stop());
    // the workers are done: a file not there now will not come
    if (Number.isNaN(indexedAt) && !existsSync(file)) indexedAt = Number.POSITIVE_INFINITY;
    await watching;
    side.writes.push(writes);
    side.indexedAfter.push(Number.isFinite(indexedAt) ? indexedAt : Number.NaN);
  }
  log(`round ${round + 1}/${rounds}`);
}

const med = (xs: number[]) => fmt(stats(xs).median);
const range = (xs: number[]) => `${fmt(stats(xs).p10)}–${fmt(stats(xs).p90)}`;
const lines = [
  `## A burst of ${BURST} command-line writes while the index worker works, ${size} items (${new Date().toISOString().slice(0, 10)})`,
  '',
  (({ cpu, cores, node, git }) => `${cpu}, ${cores} cores, node ${node}, git ${git}`)(machine()),
  '',
  `${rounds} rounds, every build once a round in turn, each on its own store; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} at the end.`,
  '',
  `| | the ${BURST} writes: wall median ms | p10–p90 | their CPU median ms | p10–p90 | the workers' CPU median ms | last tip indexed, ms after the last write: median | p10–p90 | rounds the last tip had its index |`,
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...sides.map((s) => {
    const wall = s.writes.map((t) => t.ms);
    const cpu = s.writes.map((t) => t.cpu);
    const indexed = s.indexedAfter.filter(Number.isFinite);
    return `| ${s.label} | ${med(wall)} | ${range(wall)} | ${med(cpu)} | ${range(cpu)} | ${med(s.worker)} | ${indexed.length ? med(indexed) : '–'} | ${indexed.length ? range(indexed) : '–'} | ${indexed.length} of ${rounds} |`;
  }),
];
if (sides.length > 1) {
  // round by round: this build's writes over each other's (the same round's noise on both)
  for (const other of sides.slice(1)) {
    const ratio = (f: (t: ProcessTiming) => number) => stats(sides[0]!.writes.map((t, i) => f(t) / f(other.writes[i]!))).median.toFixed(3);
    lines.push('', `This build's writes over ${other.label}'s, median of rounds: wall ×${ratio((t) => t.ms)}, CPU ×${ratio((t) => t.cpu)}.`);
  }
}
console.log(lines.join('\n'));
