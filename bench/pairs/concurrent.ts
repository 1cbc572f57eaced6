import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { closeKnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { itemsOf, readState } from '../../src/knowledge/core/state.ts';
import { type BenchContext, comparePair, type PairModule, type PairResult } from '../harness.ts';
import { benchEnv, fmt } from '../lib.ts';

/**
 * Pair 3, concurrent writers (issue 8): 8 processes each adding 50 decisions to the same store at
 * once — the time until the last one is done, and how many of the 400 items are on
 * refs/memory/main afterwards (must be 400).
 *
 * A: 8 long-lived writer processes on axme's in-process API (concurrent-writer.ts, bundled once
 *    per run with esbuild, as dist/ is: a writer starts in Node's time, not tsx's), as 8 agents'
 *    MCP servers would be: started, store opened and read, then released together by a "go"
 *    line; timed from "go" to the last exit, so start-up is not in the number.
 * B: 8 bash loops of 50 git plumbing adds (bench/plumbing-add.sh) that retry an add whose
 *    compare-and-swap update-ref lost (the script re-reads the tip each time): what a careful
 *    user would script. Same barrier (bash prints "ready", waits for "go"), same timing.
 *    Once per size, untimed, the same loops without the retry show what a naive script keeps.
 *
 * Every round starts from fresh copies of the fixture (the work changes the store); the items
 * kept are counted after every run, and axme keeping fewer than 400 is an error, not a number.
 */

/** writers: 8 (the 8 × 50); `--writers N` (at least 2) makes smoke runs cheaper: each is a process start-up */
const DEFAULT_WRITERS = 8;
/** adds per writer: 50 (the 8 × 50); `--adds N` makes smoke runs short */
const DEFAULT_ADDS = 50;
/**
 * Larger stores are skipped: at 100k items one uncontended add takes ~190 ms with plumbing and
 * ~230 ms through axme (measured on the 2-core bench machine), so 400 serialized adds per side
 * per round, plus the naive run, come to well over the ~3 minutes this pair may take.
 */
const MAX_SIZE = 10_000;
/** 8 Node start-ups and 8 reads of the store on 2 cores: seconds at 10k items, not minutes */
const READY_TIMEOUT_MS = 180_000;
/** a bash writer gives up on one add after this many lost compare-and-swaps (a livelock, not contention) */
const MAX_TRIES = 1_000;

const ROOT = join(import.meta.dirname, '..', '..');
const WORKER = join(import.meta.dirname, 'concurrent-writer.ts');
const PLUMBING = join(import.meta.dirname, '..', 'plumbing-add.sh');

/**
 * The bash writer: prints "ready", waits for "go", then adds `count` decisions with the plumbing
 * script. With retry=1 a lost update-ref (or any failure of the script) is run again from the
 * top — a new `git rev-parse` of the tip — after the same jittered backoff axme's commitOperation
 * uses (5·2^n ms, at most 250, times 0.5–1.5): retrying at once took ~3× longer at 100 items (8
 * loops on 2 cores rebuilding trees that lose anyway), so the baseline gets the better schedule.
 * With retry=0 a failed add is counted and skipped.
 */
const WRITER_SH = `#!/usr/bin/env bash
set -u
add=$1 w=$2 n=$3 retry=$4 maxtries=$5
echo ready
read -r go || exit 2
[ "$go" = go ] || exit 2
retries=0 failed=0
for ((i = 0; i < n; i++)); do
  slug=bench-concurrent-w$w-$i
  tries=1
  until bash "$add" "$slug" 2>/dev/null; do
    if [ "$retry" = 0 ]; then failed=$((failed + 1)); break; fi
    if [ "$tries" -ge "$maxtries" ]; then echo "writer $w: gave up on $slug after $tries tries" >&2; exit 1; fi
    ms=$((5 << (tries < 6 ? tries : 6))); ms=$((ms > 250 ? 250 : ms))
    sleep "$(printf '0.%03d' $((ms / 2 + RANDOM % ms)))"
    tries=$((tries + 1)) retries=$((retries + 1))
  done
done
echo "done retries=$retries failed=$failed"
`;

/**
 * concurrent-writer.ts and what it imports as one ES module in `dir` (a `require` for the
 * CommonJS dependencies inside): loading it takes a fraction of what tsx takes to load the
 * sources, in every writer of every round.
 */
async function bundleWorker(dir: string): Promise<string> {
  const outfile = join(dir, 'concurrent-writer.mjs');
  await build({
    entryPoints: [WORKER],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    banner: { js: "import { createRequire as axmeCreateRequire } from 'node:module'; const require = axmeCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return outfile;
}

interface Crew {
  /** writes "go" to every writer; resolves when the last one has exited 0: ms from "go", and each one's stdout */
  go: () => Promise<{ ms: number; outputs: string[] }>;
}

/**
 * Starts the writers and waits until each has printed "ready" (or fails: one exited first, or
 * the timeout passed — then all are killed).
 */
async function startCrew(label: string, commands: Array<{ cmd: string; args: string[]; cwd: string }>, env: NodeJS.ProcessEnv): Promise<Crew> {
  const children: ChildProcess[] = [];
  const outs: string[] = [];
  const errs: string[] = [];
  const exits: Array<Promise<number | null>> = [];
  const readies: Array<Promise<void>> = [];
  let ready = 0;
  commands.forEach(({ cmd, args, cwd }, i) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    outs[i] = '';
    errs[i] = '';
    // a writer that died must not take the bench down with EPIPE when "go" is written
    child.stdin!.on('error', () => {});
    child.stderr!.on('data', (d) => (errs[i] += d));
    // listeners attached now, before anything can exit: a fast writer's close is never missed
    exits.push(new Promise((resolve) => child.on('close', (code) => resolve(code))));
    readies.push(
      new Promise((resolve, reject) => {
        child.stdout!.on('data', (d) => {
          const before = outs[i]!;
          outs[i] += d;
          if (!before.includes('ready\n') && outs[i]!.includes('ready\n')) {
            ready++;
            resolve();
          }
        });
        child.on('error', reject);
        child.on('close', (code) => reject(new Error(`${label} writer ${i} exited ${code} before it was ready: ${errs[i]!.trim()}`)));
      }),
    );
  });
  const killAll = () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${label}: only ${ready} of ${commands.length} writers printed "ready" within ${READY_TIMEOUT_MS / 1000} s (start-up and opening the store on this machine took too long, or a writer hangs)`,
          ),
        ),
      READY_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([Promise.all(readies), timeout]);
  } catch (err) {
    killAll();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return {
    go: async () => {
      const t0 = performance.now();
      for (const c of children) c.stdin!.end('go\n');
      const codes = await Promise.all(exits);
      const ms = performance.now() - t0;
      const failed = codes.map((code, i) => (code === 0 ? null : `writer ${i} exited ${code}: ${errs[i]!.trim()}`)).filter((x) => x !== null);
      if (failed.length) throw new Error(`${label}: ${failed.join('; ')}`);
      return { ms, outputs: outs };
    },
  };
}

/** Decisions on refs/memory/main beyond the `seeded` ones of the fixture. */
function keptItems(repo: string, seeded: number, env: NodeJS.ProcessEnv): number {
  const out = execFileSync('git', ['-C', repo, 'ls-tree', '--name-only', 'refs/memory/main', 'decisions/'], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  return out.split('\n').filter(Boolean).length - seeded;
}

/** Sum of `key=N` over the writers' "done" lines (the bash writers' retry and failure counts). */
function sumOf(outputs: string[], key: string): number {
  return outputs.reduce((n, o) => n + Number(new RegExp(`\\b${key}=(\\d+)`).exec(o)?.[1] ?? 0), 0);
}

/** The same kept count in every run, or the list. */
function keptFact(kept: number[], total: number): string {
  return kept.every((k) => k === total) ? `${total}/${total} every run (${kept.length} runs)` : kept.map((k) => `${k}/${total}`).join(', ');
}

export const concurrentPairs: PairModule = async (ctx: BenchContext) => {
  const out: PairResult[] = [];
  const env = benchEnv();
  const rounds = Math.max(2, Math.min(ctx.reps, 5));
  const adds = Number(ctx.option('adds', String(DEFAULT_ADDS)));
  if (!Number.isInteger(adds) || adds < 1) throw new Error(`--adds must be a positive whole number, got ${ctx.option('adds', '')}`);
  const writers = Number(ctx.option('writers', String(DEFAULT_WRITERS)));
  if (!Number.isInteger(writers) || writers < 2) throw new Error(`--writers must be a whole number of at least 2, got ${ctx.option('writers', '')}`);
  const total = writers * adds;
  const worker = await bundleWorker(ctx.tempDir('axme-concurrent-writer-'));
  const writerSh = join(ctx.tempDir('axme-concurrent-'), 'writer.sh');
  writeFileSync(writerSh, WRITER_SH, { mode: 0o755 });
  const bashCrew = (repo: string, retry: boolean) =>
    startCrew(
      retry ? 'plumbing (retry)' : 'plumbing (no retry)',
      Array.from({ length: writers }, (_, w) => ({
        cmd: 'bash',
        args: [writerSh, PLUMBING, String(w), String(adds), retry ? '1' : '0', String(MAX_TRIES)],
        cwd: repo,
      })),
      env,
    );

  for (const size of ctx.sizes) {
    if (size > MAX_SIZE) {
      ctx.log(
        `concurrent: skipping ${size} items (above ${MAX_SIZE}: 400 adds that each rewrite a ${size}-entry tree, on both sides, take many minutes per round)`,
      );
      continue;
    }
    const axmeKept: number[] = [];
    const retryKept: number[] = [];
    const retries: number[] = [];
    let lastAxmeRepo = '';
    let idsChecked = 0;

    const result = await comparePair({
      pair: 'concurrent',
      measure: `${writers} writers × ${adds} adds, until the last is done`,
      size,
      reps: rounds,
      a: {
        label: `axme, ${writers} warm in-process writers`,
        run: async () => {
          const repo = ctx.fixture(size);
          // (the repository is an argument: cwd is the project, as for every writer)
          const crew = await startCrew(
            'axme',
            Array.from({ length: writers }, (_, w) => ({ cmd: process.execPath, args: [worker, repo, String(w), String(adds)], cwd: ROOT })),
            env,
          );
          const { ms } = await crew.go();
          const kept = keptItems(repo, size, env);
          axmeKept.push(kept);
          if (kept !== total)
            throw new Error(`BUG: axme kept ${kept} of ${total} concurrent adds at ${size} items (${repo}): every add exited 0, so items were lost`);
          // unique display IDs: two writers numbering from the same tip would be a lost race too
          const kb = await openKnowledgeBase({ cwd: repo, env });
          try {
            const ids = itemsOf(await readState(kb), 'decision').map((d) => d.id);
            if (new Set(ids).size !== size + total)
              throw new Error(`BUG: ${ids.length - new Set(ids).size} duplicate decision IDs after the concurrent adds at ${size} items (${repo})`);
            idsChecked++;
          } finally {
            await closeKnowledgeBase(kb);
          }
          lastAxmeRepo = repo;
          return ms;
        },
      },
      b: {
        label: `git plumbing script, ${writers} bash loops retrying a lost update-ref`,
        run: async () => {
          const repo = ctx.fixture(size);
          const { ms, outputs } = await (await bashCrew(repo, true)).go();
          retryKept.push(keptItems(repo, size, env));
          retries.push(sumOf(outputs, 'retries'));
          return ms;
        },
      },
    });

    // the axme store after the last run: objects and links intact
    execFileSync('git', ['-C', lastAxmeRepo, 'fsck', '--no-progress'], { env, stdio: ['ignore', 'ignore', 'pipe'] });

    // the naive loop, once: no retry, so every lost compare-and-swap is an item not saved
    const naiveRepo = ctx.fixture(size);
    const naive = await (await bashCrew(naiveRepo, false)).go();
    const naiveKept = keptItems(naiveRepo, size, env);
    const naiveFailed = sumOf(naive.outputs, 'failed');

    const sortedRetries = [...retries].sort((x, y) => x - y);
    result.facts = {
      'axme kept': keptFact(axmeKept, total),
      'axme decision IDs': `unique every run (${idsChecked} runs)`,
      'git fsck --no-progress (axme store, last run)': 'clean',
      'plumbing (retry) kept': keptFact(retryKept, total),
      'plumbing (retry) lost update-refs retried per run': `${sortedRetries[0]}–${sortedRetries[sortedRetries.length - 1]} (median ${sortedRetries[Math.floor(sortedRetries.length / 2)]})`,
      'plumbing (no retry) kept': `${naiveKept}/${total} (${naiveFailed} adds lost their update-ref and were dropped; ${fmt(naive.ms)} ms)`,
    };
    ctx.log(
      `concurrent ${size}: axme ${result.a.samples.map(fmt).join(', ')} ms; plumbing ${result.b.samples.map(fmt).join(', ')} ms; naive kept ${naiveKept}/${total}`,
    );
    out.push(result);
  }
  return out;
};
