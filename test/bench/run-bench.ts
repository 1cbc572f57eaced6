import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, type ProcessRun, runProcess, TS_NODE_ARGS } from '../helpers.ts';

/**
 * Benchmark scripts run by the tests: never to time anything, only to prove each harness still
 * works end to end at a tiny size, and refuses what it does not understand. The runs are
 * asynchronous, so that a test file can run several at once (each is mostly one process waiting
 * on the next child it spawned).
 */

export type BenchRun = ProcessRun;

/**
 * Runs `bench/<script>` with `args` (its JSON, without `--out`, goes to bench/results): exit status
 * and output. `signal` (a test's own, aborted when it times out) stops the run.
 */
export function runBench(script: string, args: string[], signal?: AbortSignal): Promise<BenchRun> {
  return runProcess(process.execPath, [...TS_NODE_ARGS, join('bench', script), ...args], {
    cwd: join(import.meta.dirname, '../..'),
    env: cleanEnv(),
    signal,
  });
}

/**
 * Runs `bench/<script>` with `args`, its JSON going to a temporary folder: it must exit 0 and write
 * exactly one `<name>-<time>.json` (`verify` for verify.bench.ts). Its output and that JSON; the
 * folder is removed. `signal` as for runBench.
 */
export async function runBenchJson<T>(script: string, args: string[], signal?: AbortSignal): Promise<{ stdout: string; json: T }> {
  const out = mkdtempSync(join(tmpdir(), 'axme-bench-out-'));
  try {
    const r = await runBench(script, [...args, '--out', out], signal);
    assert.equal(r.status, 0, r.stderr);
    const files = readdirSync(out);
    assert.equal(files.length, 1, `one JSON file: ${files.join(', ')}`);
    assert.match(files[0]!, new RegExp(`^${script.replace(/\.bench\.ts$/, '')}-.*\\.json$`));
    return { stdout: r.stdout, json: JSON.parse(readFileSync(join(out, files[0]!), 'utf8')) as T };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
