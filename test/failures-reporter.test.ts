import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

/** `npm test`'s second reporter: the failed tests named at the very end of the log, with their errors. */

const REPORTER = resolve(import.meta.dirname, '..', 'scripts', 'failures-reporter.mjs');

function run(source: string): { status: number | null; stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), 'axme-reporter-'));
  try {
    writeFileSync(join(dir, 'sample.test.mjs'), source);
    const r = spawnSync(
      process.execPath,
      [
        '--test',
        '--test-reporter=tap',
        '--test-reporter-destination=stdout',
        `--test-reporter=${REPORTER}`,
        '--test-reporter-destination=stdout',
        join(dir, 'sample.test.mjs'),
      ],
      { encoding: 'utf8', env: { PATH: process.env.PATH } },
    );
    return { status: r.status, stdout: r.stdout.replaceAll(dir, '<dir>') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the failed tests come last: file, line, name and the first lines of the error; suites are not listed twice', () => {
  const r = run(`import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
describe('a suite', () => {
  test('adds', () => assert.equal(1 + 1, 3));
  test('passes', () => {});
});
test('throws', () => { throw new Error('boom\\nthe second line'); });
`);
  assert.equal(r.status, 1);
  const tail = r.stdout.slice(r.stdout.lastIndexOf('# duration_ms'));
  assert.match(
    tail,
    /\n# 2 failed:\n- <dir>\/sample\.test\.mjs:4 {2}adds\n {6}Expected values to be strictly equal:[\s\S]*2 !== 3[\s\S]*\n- <dir>\/sample\.test\.mjs:7 {2}throws\n {6}boom\n {6}the second line\n$/,
  );
  assert.doesNotMatch(tail, /a suite/);
});

test('nothing is added when every test passes', () => {
  const r = run(`import { test } from 'node:test';\ntest('fine', () => {});\n`);
  assert.equal(r.status, 0);
  assert.doesNotMatch(r.stdout, /failed:/);
  assert.match(r.stdout, /# pass 1\n/);
});

test('a todo test that fails is not listed: the run passes, and the list names only what failed', () => {
  const r = run(`import { test } from 'node:test';
import assert from 'node:assert/strict';
test('not done yet', { todo: 'later' }, () => assert.fail('expected'));
test('fine', () => {});
`);
  assert.equal(r.status, 0);
  assert.doesNotMatch(r.stdout, /failed:/);
});
