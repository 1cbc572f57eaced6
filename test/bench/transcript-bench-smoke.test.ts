import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runBench, runBenchJson } from './run-bench.ts';

type Report = { side: string; rss_mb: number; facts: Record<string, number> };

test('the transcript benchmark runs at 1 MB: the table and the JSON, both sides in their own process', { timeout: 600_000 }, async (t) => {
  const { stdout, json } = await runBenchJson<{ mb: number; reps: number; reports: Record<'axme' | 'baseline', Report[]> }>(
    'transcript.bench.ts',
    ['--mb', '1', '--reps', '1'],
    t.signal,
  );
  for (const row of ['| A: axme |', '| B: baseline |', 'A/B per round']) assert.ok(stdout.includes(row), `output has "${row}"`);
  assert.equal(json.mb, 1);
  assert.equal(json.reports.axme.length, 1);
  assert.equal(json.reports.baseline.length, 1);
  const [a, b] = [json.reports.axme[0]!, json.reports.baseline[0]!];
  // the same file on both sides: every line seen, the one malformed line counted by both
  assert.equal(a.facts.lines, b.facts.lines);
  assert.equal(a.facts.malformed, 1);
  assert.equal(b.facts.malformed, 1);
  assert.ok(a.facts.chunks! >= 1 && a.facts.sidechain_entries! > 0 && a.facts.redactions! > 0, JSON.stringify(a.facts));
  assert.ok(a.rss_mb > 0 && b.rss_mb > 0);
});

test('the transcript benchmark refuses an unknown option or a bad value with exit 2', async () => {
  const [r, big, none] = await Promise.all([
    runBench('transcript.bench.ts', ['--size', '5']),
    runBench('transcript.bench.ts', ['--mb', 'big']),
    runBench('transcript.bench.ts', ['--reps', '0']),
  ]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option/);
  assert.equal(big.status, 2);
  assert.equal(none.status, 2);
});
