import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { axme, axmeOk, git, tempRepo } from '../helpers.ts';

/** `axme session finalize` closes a session it knows, and never one it made up. */
describe('axme session finalize without a session', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    await axmeOk(dir, ['init']);
  });
  after(() => cleanup());

  test('no AXME_SESSION and no agent session running the command: a usage error (exit 2) saying how to name the session; nothing written', async () => {
    const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    const r = await axme(dir, ['session', 'finalize'], { input: JSON.stringify({ summary: 'Planned the upgrade.' }) });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /no session to close/);
    assert.match(r.stderr, /AXME_SESSION=<id> axme session finalize/);
    assert.match(r.stderr, /axme session list/);
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), tip, 'nothing committed');
    const json = await axme(dir, ['session', 'finalize', '--json'], { input: JSON.stringify({ summary: 'x' }) });
    assert.equal(json.code, 2);
    assert.equal(JSON.parse(json.stderr).error.code, 'INVALID_INPUT');
  });

  test('input that is wrong is still said first (a usage error about the input)', async () => {
    const r = await axme(dir, ['session', 'finalize'], { input: JSON.stringify({ summary: 7 }) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /summary/);
  });

  test('with AXME_SESSION the named session is closed', async () => {
    const r = await axmeOk(dir, ['session', 'finalize', '--json'], {
      input: JSON.stringify({ summary: 'Planned the upgrade.' }),
      env: { AXME_SESSION: 'named-1' },
    });
    assert.equal(r.session, 'named-1');
  });
});
