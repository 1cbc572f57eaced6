import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runBench, runBenchJson } from './run-bench.ts';

test('the team server benchmark runs small: the table, the JSON, nothing lost', { timeout: 600_000 }, async (t) => {
  const { stdout, json } = await runBenchJson<{
    clients: number;
    ops: number;
    phases: Array<{ name: string; acked: number; lost: number; fsck: boolean; searches: number }>;
  }>('serve-http.bench.ts', ['--clients', '2', '--ops', '3'], t.signal);
  for (const run of ['http load', 'http writes', 'http writes + flood', 'stdio fleet'])
    assert.match(stdout, new RegExp(`^\\| ${run.replace(/[+]/g, '\\+')} \\| 2 \\| 6 \\| \\d+ \\| 6/6 \\| 0 \\| clean \\|`, 'm'), `table row "${run}"`);
  assert.match(stdout, /HTTP writes\/s vs the stdio fleet's: /);
  assert.equal(json.clients, 2);
  assert.equal(json.ops, 3);
  assert.deepEqual(
    json.phases.map((p) => p.name),
    ['http load', 'http writes', 'http writes + flood', 'stdio fleet'],
  );
  assert.ok(json.phases.every((p) => p.acked === 6 && p.lost === 0 && p.fsck));
  assert.equal(json.phases[0]!.searches, 6);
});

test('the team server benchmark refuses an unknown option with exit 2', async () => {
  const [r, many] = await Promise.all([runBench('serve-http.bench.ts', ['--clientz', '5']), runBench('serve-http.bench.ts', ['--ops', 'many'])]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option/);
  assert.equal(many.status, 2);
});
