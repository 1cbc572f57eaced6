import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fmt, type Stats, seededRepo, stats } from './lib.ts';

/**
 * The side-by-side harness (issue 8): a comparison is a pair of sides, A (axme) and B (what a
 * user would otherwise use), run in one process tree, alternating — A then B, then B then A —
 * so that machine noise and warm-up hit both alike. Each side's times give a median and a
 * spread; the ratio A/B is taken round by round (these machines are noisy: a ratio inside one
 * round means more than two medians from different moments).
 */

export interface Side {
  label: string;
  /** one timed run; returns its own time in ms when it measures itself (a barrier, a server round trip), else it is timed here */
  run: (round: number) => Promise<number | void>;
}

export interface PairSpec {
  /** the comparison, e.g. "save" */
  pair: string;
  /** what is compared, e.g. "add one decision" */
  measure: string;
  /** items in the store */
  size: number;
  a: Side;
  b: Side;
  reps: number;
  /** untimed runs of each side first (module loading, caches) */
  warmup?: number;
}

export interface SideResult {
  label: string;
  stats: Stats;
  samples: number[];
}

export interface PairResult {
  pair: string;
  measure: string;
  size: number;
  a: SideResult;
  b: SideResult;
  /** A/B per round: median and spread */
  ratio: Stats;
  /** facts that are not times (items kept, hit rates), shown under the table */
  facts?: Record<string, string | number>;
}

async function timed(side: Side, round: number): Promise<number> {
  const t0 = performance.now();
  const own = await side.run(round);
  return typeof own === 'number' ? own : performance.now() - t0;
}

/** Runs both sides `reps` times, alternating which goes first; ratio per round. */
export async function comparePair(spec: PairSpec): Promise<PairResult> {
  for (let w = 0; w < (spec.warmup ?? 0); w++) {
    await spec.a.run(-1 - w);
    await spec.b.run(-1 - w);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < spec.reps; i++) {
    if (i % 2 === 0) {
      a.push(await timed(spec.a, i));
      b.push(await timed(spec.b, i));
    } else {
      b.push(await timed(spec.b, i));
      a.push(await timed(spec.a, i));
    }
  }
  return {
    pair: spec.pair,
    measure: spec.measure,
    size: spec.size,
    a: { label: spec.a.label, stats: stats(a), samples: a },
    b: { label: spec.b.label, stats: stats(b), samples: b },
    ratio: stats(a.map((x, i) => x / b[i]!)),
  };
}

/** What every pair module is given: sizes, repetitions, fixtures, a log on stderr. */
export interface BenchContext {
  sizes: number[];
  reps: number;
  /** a fresh copy of a repository seeded with `size` decisions (seeded once per size, then copied) */
  fixture: (size: number) => string;
  /** a temporary folder, removed at the end */
  tempDir: (prefix: string) => string;
  log: (text: string) => void;
  /** a pair's own command-line option (`--name value`), or the fallback */
  option: (name: string, fallback: string) => string;
  /** the untimed rounds to run of a pair that wants `rounds`: fewer when `--warmup N` caps them (a smoke run: 0) */
  warmup: (rounds: number) => number;
}

/** A pair module: runs its comparisons at the sizes it can manage in reasonable time. */
export type PairModule = (ctx: BenchContext) => Promise<PairResult[]>;

/** Fixtures seeded once per size and copied per use (seeding 100k items takes ~20 s, copying ~1 s). */
export function fixtures(log: (t: string) => void): { fixture: (size: number) => string; tempDir: (prefix: string) => string; cleanup: () => void } {
  const seeds = new Map<number, string>();
  const made: string[] = [];
  const tempDir = (prefix: string) => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    made.push(d);
    return d;
  };
  return {
    fixture: (size) => {
      let seed = seeds.get(size);
      if (!seed) {
        log(`seeding a store of ${size} decisions...`);
        seed = seededRepo(size);
        seeds.set(size, seed);
        made.push(seed);
      }
      const copy = join(tempDir(`axme-fixture-${size}-`), 'repo');
      execFileSync('cp', ['-a', seed, copy]);
      return copy;
    },
    tempDir,
    cleanup: () => {
      for (const d of made) rmSync(d, { recursive: true, force: true });
    },
  };
}

/** The machine a run happened on: what a table of numbers must say next to it. */
export function machine(): { cpu: string; cores: number; memoryGiB: number; node: string; git: string; platform: string } {
  const git = execFileSync('git', ['--version'], { encoding: 'utf8' })
    .trim()
    .replace(/^git version /, '');
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    git,
    platform: `${process.platform} ${process.arch}`,
  };
}

const range = (s: Stats) => `${fmt(s.median)} (${fmt(s.p10)}–${fmt(s.p90)})`;

/** The results as a Markdown table (one row per pair and size), then the facts. */
export function renderTable(results: PairResult[]): string {
  const rows = [
    '| pair | items | A | A ms, median (p10–p90) | B | B ms, median (p10–p90) | A/B per round, median (p10–p90) |',
    '| --- | ---: | --- | ---: | --- | ---: | ---: |',
  ];
  for (const r of results) {
    const ratio = `**${r.ratio.median.toFixed(2)}** (${r.ratio.p10.toFixed(2)}–${r.ratio.p90.toFixed(2)})`;
    rows.push(`| ${r.pair}: ${r.measure} | ${r.size} | ${r.a.label} | ${range(r.a.stats)} | ${r.b.label} | ${range(r.b.stats)} | ${ratio} |`);
  }
  const facts = results
    .filter((r) => r.facts)
    .map(
      (r) =>
        `- ${r.pair} (${r.size} items): ${Object.entries(r.facts!)
          .map(([k, v]) => `${k} ${v}`)
          .join('; ')}`,
    );
  return `${rows.join('\n')}\n${facts.length ? `\n${facts.join('\n')}\n` : ''}`;
}
