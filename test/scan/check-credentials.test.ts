import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { axme, axmeOk, tempRepo } from '../helpers.ts';

const TOKEN_A = `ghp_${'a'.repeat(36)}`;
const TOKEN_B = `ghp_${'b'.repeat(36)}`;
const AWS = 'AKIAABCDEFGHIJKLMNOP';

/** `axme check` names every credential a file holds, each with its line: a CI run must show all that a merge would share. */
describe('axme check: every credential of a file', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    await axmeOk(dir, ['init']);
    await axmeOk(dir, [
      'memory',
      'add',
      '--allow-secret',
      '--type',
      'pattern',
      '--title',
      'Staging access',
      '--description',
      `token ${TOKEN_A}`,
      '--body',
      `First line.\nsecond token ${TOKEN_B}\nand the key ${AWS}`,
    ]);
  });
  after(() => cleanup());

  test('text: one finding per credential, each with its line', async () => {
    const r = await axme(dir, ['check']);
    assert.equal(r.code, 1);
    const lines = r.stdout.split('\n').filter((l) => l.includes('memories/staging-access.md') && /looks like it contains/.test(l));
    assert.equal(lines.length, 3, r.stdout);
    assert.equal(new Set(lines.map((l) => /line (\d+)/.exec(l)?.[1])).size, 3, `three lines named: ${lines.join('\n')}`);
    assert.match(r.stderr, /FAILED: 3 findings/);
  });

  test('--json: one finding per credential, with its line', async () => {
    const r = await axme(dir, ['check', '--json']);
    assert.equal(r.code, 1);
    const found = (JSON.parse(r.stdout).findings as Array<{ path: string; reason: string; line?: number }>).filter(
      (f) => f.path === 'memories/staging-access.md',
    );
    assert.equal(found.length, 3, r.stdout);
    assert.deepEqual(
      found.map((f) => typeof f.line),
      ['number', 'number', 'number'],
    );
    assert.deepEqual(
      found.map((f) => f.line),
      [...found.map((f) => f.line!)].sort((a, b) => a - b),
      'in file order',
    );
    assert.ok(found.some((f) => /AWS access key/.test(f.reason)));
    assert.equal(found.filter((f) => /GitHub token/.test(f.reason)).length, 2);
  });
});
