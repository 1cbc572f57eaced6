import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv } from '../helpers.ts';

/**
 * Benchmark scripts run by the tests: never to time anything, only to prove each harness still
 * works end to end at a tiny size, and refuses what it does not understand.
 */

/** Runs `bench/<script>` with `args` (its JSON, without `--out`, goes to bench/results): exit status and output. */
export function runBench(script: string, args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', join('bench', script), ...args], {
    cwd: join(import.meta.dirname, '../..'),
    env: cleanEnv(),
    encoding: 'utf8',
  });
}

/**
 * Runs `bench/<script>` with `args`, its JSON going to a temporary folder: it must exit 0 and write
 * exactly one `<name>-<time>.json` (`verify` for verify.bench.ts). Its output and that JSON; the
 * folder is removed.
 */
export function runBenchJson<T>(script: string, args: string[]): { stdout: string; json: T } {
  const out = mkdtempSync(join(tmpdir(), 'axme-bench-out-'));
  try {
    const r = runBench(script, [...args, '--out', out]);
    assert.equal(r.status, 0, r.stderr);
    const files = readdirSync(out);
    assert.equal(files.length, 1, `one JSON file: ${files.join(', ')}`);
    assert.match(files[0]!, new RegExp(`^${script.replace(/\.bench\.ts$/, '')}-.*\\.json$`));
    return { stdout: r.stdout, json: JSON.parse(readFileSync(join(out, files[0]!), 'utf8')) as T };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
