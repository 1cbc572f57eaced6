import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { seededStore } from '../test/seeded-store.ts';

export const CLI = join(import.meta.dirname, '../dist/axme.cjs');

/** Environment for benchmark processes: no agent/git variables, no user git config. */
export function benchEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_') && !k.startsWith('AXME_') && k !== 'CLAUDECODE') env[k] = v;
  return {
    ...env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
    ...extra,
  };
}

/**
 * A repository whose refs/memory/main holds `n` decisions (one commit built with git
 * fast-import: seeding 10k items one commit at a time would take minutes).
 */
export function seededRepo(n: number): string {
  return seededStore(
    n,
    (i) => ({
      slug: `seeded-decision-${i}`,
      title: `Seeded decision ${i} about component ${i % 97}`,
      decision: `Component ${i % 97} uses approach ${i}. `.repeat(3),
      reasoning: 'Measured in the benchmark seed.',
    }),
    { prefix: `axme-bench-${n}-` },
  );
}

export interface Stats {
  n: number;
  median: number;
  p10: number;
  p90: number;
  min: number;
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const q = (f: number) => s[Math.min(s.length - 1, Math.floor(f * s.length))]!;
  return { n: s.length, median: q(0.5), p10: q(0.1), p90: q(0.9), min: s[0]! };
}

/** Milliseconds a child process takes from spawn to exit (fails on a non-zero exit). */
export function timeProcess(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`))));
    // a child that never reads its stdin (node -e 0, a hook with nothing to read) may exit before
    // the input is written: that EPIPE is not the child's failure (its exit code says that)
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

/** GNU time, which tells a process's CPU time with its children's (null where it is missing). */
export const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** A process's wall time and the CPU time it and what it waited for used (ms). */
export interface ProcessTiming {
  ms: number;
  cpu: number;
}

/**
 * Runs `cmd` to its end: its wall time and the CPU time it and the processes it waited for used
 * (user + system, from GNU time: on a shared, loaded machine the steadier measure; NaN without it).
 * A detached process it starts is not its own.
 */
export function timeProcessCpu(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<ProcessTiming> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(GNU_TIME ?? cmd, GNU_TIME ? ['-f', 'cpu %U %S', cmd, ...args] : args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      const m = /^cpu ([\d.]+) ([\d.]+)$/m.exec(err);
      if (code !== 0 || (GNU_TIME && !m)) fail(new Error(`${cmd} ${args.join(' ')} in ${opts.cwd} exited ${code}: ${err}`));
      else done({ ms, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : Number.NaN });
    });
  });
}

/** How many `axme decision add` an agent writes back to back in the burst benches (search-cold, index-worker). */
export const WRITE_BURST = 5;

/** WRITE_BURST `axme decision add` with `cli` in `dir`, back to back: their wall and CPU ms, summed. */
export async function timeWriteBurst(cli: string, dir: string, env: NodeJS.ProcessEnv, round: number): Promise<{ ms: number; cpu: number }> {
  const writes = { ms: 0, cpu: 0 };
  for (let w = 0; w < WRITE_BURST; w++) {
    const args = ['decision', 'add', '--title', `Bench burst ${round}.${w} about component 42`, '--decision', 'Written in a burst.'];
    const t = await timeProcessCpu('node', [cli, ...args], { cwd: dir, env });
    writes.ms += t.ms;
    writes.cpu += t.cpu;
  }
  return writes;
}

export const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

export { argOf } from './args.ts';

/** The cosine of the angle between two vectors of the same length (0 when either is all zeros). */
export function cosine(x: ArrayLike<number>, y: ArrayLike<number>): number {
  let s = 0;
  let nx = 0;
  let ny = 0;
  for (let d = 0; d < x.length; d++) {
    s += x[d]! * y[d]!;
    nx += x[d]! * x[d]!;
    ny += y[d]! * y[d]!;
  }
  return nx && ny ? s / Math.sqrt(nx * ny) : 0;
}

/** Runs `call` once in this process and pushes its wall and CPU (user + system) milliseconds onto `wall` and `cpu`. */
export async function timeCall(call: () => Promise<unknown>, wall: number[], cpu: number[]): Promise<void> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await call();
  wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
}
