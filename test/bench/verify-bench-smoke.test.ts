import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cleanEnv } from '../helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const bench = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'bench/verify.bench.ts', ...args], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8' });

// Not run in CI as a benchmark: this only proves the harness still works end to end (never times).
test('the staleness benchmark runs at a tiny size: the table and the JSON', { timeout: 120_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'axme-bench-out-'));
  try {
    const r = bench(['--commits', '60', '--items', '12', '--files', '20', '--reps', '1', '--out', out]);
    assert.equal(r.status, 0, r.stderr);
    for (const measure of ['axme verify, first run', 'axme verify, cold', 'axme verify, warm', 'naive: git log']) assert.ok(r.stdout.includes(`| ${measure}`), `table has "${measure}"`);
    const files = readdirSync(out);
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^verify-.*\.json$/);
    const json = JSON.parse(readFileSync(join(out, files[0]!), 'utf8')) as { commits: number; items: number; rows: Array<{ measure: string; stale: number }> };
    assert.equal(json.commits, 60);
    assert.equal(json.items, 12);
    assert.equal(json.rows.length, 4);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('the staleness benchmark refuses an unknown option with exit 2', () => {
  const r = bench(['--commitz', '5']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option/);
  assert.equal(bench(['--items', 'many']).status, 2);
});
