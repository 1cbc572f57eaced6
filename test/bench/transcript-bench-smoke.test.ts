import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cleanEnv } from '../helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const bench = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'bench/transcript.bench.ts', ...args], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8' });

// Not run in CI as a benchmark: this only proves the harness still works end to end (never times).
test('the transcript benchmark runs at 1 MB: the table and the JSON, both sides in their own process', { timeout: 120_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'axme-bench-out-'));
  try {
    const r = bench(['--mb', '1', '--reps', '1', '--out', out]);
    assert.equal(r.status, 0, r.stderr);
    for (const row of ['| A: axme |', '| B: baseline |', 'A/B per round']) assert.ok(r.stdout.includes(row), `output has "${row}"`);
    const files = readdirSync(out);
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^transcript-.*\.json$/);
    type Report = { side: string; rss_mb: number; facts: Record<string, number> };
    const json = JSON.parse(readFileSync(join(out, files[0]!), 'utf8')) as { mb: number; reps: number; reports: Record<'axme' | 'baseline', Report[]> };
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
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('the transcript benchmark refuses an unknown option or a bad value with exit 2', () => {
  const r = bench(['--size', '5']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option/);
  assert.equal(bench(['--mb', 'big']).status, 2);
  assert.equal(bench(['--reps', '0']).status, 2);
});
