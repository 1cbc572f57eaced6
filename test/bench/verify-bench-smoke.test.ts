import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runBench, runBenchJson } from './run-bench.ts';

test('the staleness benchmark runs at a tiny size: the table and the JSON', { timeout: 600_000 }, async (t) => {
  const { stdout, json } = await runBenchJson<{ commits: number; items: number; rows: Array<{ measure: string; stale: number }> }>(
    'verify.bench.ts',
    ['--commits', '60', '--items', '12', '--files', '20', '--reps', '1'],
    t.signal,
  );
  for (const measure of ['axme verify, first run', 'axme verify, cold', 'axme verify, warm', 'naive: git log'])
    assert.ok(stdout.includes(`| ${measure}`), `table has "${measure}"`);
  assert.equal(json.commits, 60);
  assert.equal(json.items, 12);
  assert.equal(json.rows.length, 4);
});

test('the staleness benchmark refuses an unknown option with exit 2', async () => {
  const [r, many] = await Promise.all([runBench('verify.bench.ts', ['--commitz', '5']), runBench('verify.bench.ts', ['--items', 'many'])]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option/);
  assert.equal(many.status, 2);
});
