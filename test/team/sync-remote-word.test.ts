import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeIn } from '../cli-in-process.ts';
import { git } from '../helpers.ts';

/**
 * `axme sync [remote]`: the remote named, however the command line gives it (before or after
 * `--`), is the one synced with; a name that is not a configured remote is a usage error (exit 2)
 * naming it and the remotes there are, never a sync with origin (real git: two bare remotes).
 */

let root: string;
let dir: string;
const env = { AXME_SYNC_AUTO: 'off' };
before(async () => {
  root = mkdtempSync(join(tmpdir(), 'axme-sync-word-'));
  for (const r of ['origin.git', 'upstream.git']) git(root, ['init', '-q', '--bare', join(root, r)]);
  dir = join(root, 'clone');
  git(root, ['clone', '-q', join(root, 'origin.git'), dir]);
  git(dir, ['remote', 'add', 'upstream', join(root, 'upstream.git')]);
  const r = await axmeIn(dir, ['init', '--no-claude', '--no-git-hooks', '--no-scan'], { env });
  assert.equal(r.code, 0, r.stderr);
});
after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

const memoryOn = (remote: string) => git(root, ['--git-dir', join(root, `${remote}.git`), 'for-each-ref', 'refs/memory/']).trim();

describe('axme sync with a remote that is not configured', () => {
  for (const args of [
    ['sync', 'nosuch'],
    ['sync', '--', 'nosuch'],
    ['sync', '--json', '--', 'nosuch'],
  ]) {
    test(`axme ${args.join(' ')}: exit 2 naming it and the remotes, nothing synced`, async () => {
      const r = await axmeIn(dir, args, { env });
      assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
      assert.equal(r.stdout, '');
      const said = args.includes('--json') ? JSON.parse(r.stderr).error : { message: r.stderr };
      assert.match(said.message, /no git remote named "nosuch": the remotes are origin, upstream/);
      if (args.includes('--json')) assert.deepEqual(said.data.remotes, ['origin', 'upstream']);
      assert.equal(memoryOn('origin'), '', 'nothing pushed to origin');
    });
  }

  test('axme sync -- upstream syncs with upstream, not origin', async () => {
    const r = await axmeIn(dir, ['sync', '--', 'upstream'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Synced with upstream/);
    assert.notEqual(memoryOn('upstream'), '');
    assert.equal(memoryOn('origin'), '');
  });

  test('axme sync -- a b: one remote at a time (exit 2)', async () => {
    const r = await axmeIn(dir, ['sync', '--', 'origin', 'upstream'], { env });
    assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, /"upstream" is one word too many: axme sync \[remote\]/);
    assert.equal(memoryOn('origin'), '');
  });
});
