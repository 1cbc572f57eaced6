import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeIn } from '../cli-in-process.ts';
import { cleanEnv, git } from '../helpers.ts';

/**
 * `axme init` on a fresh clone starts its store from the remote's only when `axme sync` would
 * take that store (docs/sync.md, "A teammate's clone" and "Refused remotes"): one check for both.
 * A remote store sync refuses is not adopted; init says why and what to do, the store starts on
 * its own, and once the remote is fixed a sync merges the two (real git: a bare remote, two clones).
 */

let root: string;
let remote: string;
let first: string;
before(async () => {
  root = mkdtempSync(join(tmpdir(), 'axme-init-invalid-'));
  remote = join(root, 'remote.git');
  first = join(root, 'first');
  git(root, ['init', '-q', '--bare', '-b', 'main', remote]);
  git(root, ['clone', '-q', remote, first]);
  git(first, ['-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '--allow-empty', '-m', 'first']);
  git(first, ['push', '-q', 'origin', 'main']);
  git(first, ['config', 'user.name', 'A']);
  git(first, ['config', 'user.email', 'a@example.com']);
  const env = { AXME_SYNC_AUTO: 'off' };
  for (const args of [
    ['init', '--no-claude', '--no-git-hooks', '--no-scan'],
    ['decision', 'add', '--title', 'Use Valkey for caching', '--decision', 'Valkey replaces Redis.'],
    ['sync'],
  ]) {
    const r = await axmeIn(first, args, { env });
    assert.equal(r.code, 0, r.stderr);
  }
});
after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

/** A commit on the remote's refs/memory/main writing `files` by hand (as no axme would), pushed; returns it. */
function pushByHand(files: Record<string, string>): string {
  const env = { ...cleanEnv(), GIT_INDEX_FILE: join(first, '.git', 'by-hand-index') };
  const run = (args: string[], input?: string) => execFileSync('git', args, { cwd: first, env, encoding: 'utf8', input }).trim();
  git(first, ['fetch', '-q', 'origin', '+refs/memory/main:refs/memory/main']);
  run(['read-tree', 'refs/memory/main']);
  for (const [path, text] of Object.entries(files))
    run(['update-index', '--add', '--cacheinfo', `100644,${run(['hash-object', '-w', '--stdin'], text)},${path}`]);
  const c = run(['commit-tree', run(['write-tree']), '-p', 'refs/memory/main', '-m', 'by hand']);
  run(['update-ref', 'refs/memory/main', c]);
  git(first, ['push', '-q', 'origin', 'refs/memory/main']);
  return c;
}

const isAncestor = (dir: string, a: string, b: string) =>
  execFileSync('git', ['merge-base', '--is-ancestor', a, b], { cwd: dir, env: cleanEnv(), stdio: 'ignore' }) !== undefined;

describe('axme init on a clone whose remote store does not validate', () => {
  test('is not adopted: init says why and what to do, the store starts on its own, sync refuses the same, and merges once the remote is fixed', async () => {
    const broken = pushByHand({ 'decisions/broken.md': '---\nid: [unclosed\n---\nbody\n' });
    const clone = join(root, 'clone');
    git(root, ['clone', '-q', remote, clone]);
    const env = { AXME_SYNC_AUTO: 'off' };
    const r = await axmeIn(clone, ['init', '--no-claude', '--no-git-hooks', '--no-scan', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /refusing to merge origin's knowledge .*decisions\/broken\.md/);
    assert.match(r.stderr, /starts on its own.*axme sync/);
    assert.doesNotMatch(r.stderr, /started from origin's knowledge/);
    const json = JSON.parse(r.stdout);
    assert.equal(json.follow.followed, false);
    assert.match(json.follow.reason, /decisions\/broken\.md/);
    const tip = git(clone, ['rev-parse', 'refs/memory/main']).trim();
    assert.notEqual(tip, broken);
    assert.throws(() => isAncestor(clone, broken, tip), 'the refused store is not in the local history');
    assert.equal(git(clone, ['ls-tree', '--name-only', 'refs/memory/main', 'decisions/']), '', 'none of the remote items taken');

    // the sync refuses the same store with the same words
    const s = await axmeIn(clone, ['sync'], { env });
    assert.equal(s.code, 1, s.stderr);
    assert.match(s.stderr, /refusing to merge origin's knowledge .*decisions\/broken\.md/);

    // fixed where it was written: the next sync merges the two histories, nothing lost
    pushByHand({
      'decisions/broken.md':
        '---\nid: D-002\ntitle: Fixed\nstatus: active\nenforce: advisory\ncreated: "2026-11-01T10:00:00.000Z"\nupdated: "2026-11-01T10:00:00.000Z"\n---\nFixed.\n',
    });
    const fixed = await axmeIn(clone, ['sync'], { env });
    assert.equal(fixed.code, 0, fixed.stderr);
    assert.deepEqual(git(clone, ['ls-tree', '--name-only', 'refs/memory/main', 'decisions/']).trim().split('\n').sort(), [
      'decisions/broken.md',
      'decisions/use-valkey-for-caching.md',
    ]);
  });

  test('a store of a newer format is not adopted either: init says to upgrade axme', async () => {
    pushByHand({ 'axme.yaml': 'format: 99\nkind: repo\n' });
    const clone = join(root, 'newer');
    git(root, ['clone', '-q', remote, clone]);
    const r = await axmeIn(clone, ['init', '--no-claude', '--no-git-hooks', '--no-scan'], { env: { AXME_SYNC_AUTO: 'off' } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /storage format 99, newer than this axme reads .*upgrade axme/);
    assert.match(git(clone, ['show', 'refs/memory/main:axme.yaml']), /format: 1\b/);
  });
});
