import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cleanEnv } from '../helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const bench = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'bench/serve-http.bench.ts', ...args], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8' });

// Not a benchmark: proves the harness still runs end to end at 2 clients x 3 ops (never times).
test('the team server benchmark runs small: the table, the JSON, nothing lost', { timeout: 180_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'axme-bench-out-'));
  try {
    const r = bench(['--clients', '2', '--ops', '3', '--out', out]);
    assert.equal(r.status, 0, r.stderr);
    for (const run of ['http load', 'http writes', 'stdio fleet']) assert.match(r.stdout, new RegExp(`^\\| ${run} \\| 2 \\| 6 \\| \\d+ \\| 6/6 \\| 0 \\| clean \\|`, 'm'), `table row "${run}"`);
    assert.match(r.stdout, /HTTP writes\/s vs the stdio fleet's: /);
    const files = readdirSync(out);
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^serve-http-.*\.json$/);
    const json = JSON.parse(readFileSync(join(out, files[0]!), 'utf8')) as { clients: number; ops: number; phases: Array<{ name: string; acked: number; lost: number; fsck: boolean; searches: number }> };
    assert.equal(json.clients, 2);
    assert.equal(json.ops, 3);
    assert.deepEqual(json.phases.map((p) => p.name), ['http load', 'http writes', 'stdio fleet']);
    assert.ok(json.phases.every((p) => p.acked === 6 && p.lost === 0 && p.fsck));
    assert.equal(json.phases[0]!.searches, 6);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('the team server benchmark refuses an unknown option with exit 2', () => {
  const r = bench(['--clientz', '5']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option/);
  assert.equal(bench(['--ops', 'many']).status, 2);
});
