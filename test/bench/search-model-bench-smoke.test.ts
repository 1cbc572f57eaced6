import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runBenchJson } from './run-bench.ts';

// Not a timing: proves bench/search-model.bench.ts still runs end to end and measures both sides.
test('the search-model benchmark runs at a tiny size and measures words only beside words + model', { timeout: 600_000 }, async (t) => {
  const { stdout, json } = await runBenchJson<{ rows: Array<{ measure: string; words: { median: number } | null; model: { median: number } }> }>(
    'search-model.bench.ts',
    ['--size', '20', '--reps', '1'],
    t.signal,
  );
  for (const measure of ['load the model', 'warm query', 'first query after a write'])
    assert.ok(
      json.rows.some((r) => r.measure.startsWith(measure) && r.model.median > 0),
      `${measure}: ${stdout}`,
    );
  assert.ok(json.rows.find((r) => r.measure === 'warm query')!.words!.median > 0);
});
