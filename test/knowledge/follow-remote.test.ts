import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { decisionList } from '../../src/operations/decision/list.ts';
import { initCore, syncCore } from '../core.ts';
import { axme, axmeOk, git } from '../helpers.ts';
import { cliJson, cliText } from '../store-fixture.ts';

/**
 * A teammate's first minutes: `git clone`, then `axme init`. The remote already holds the team's
 * knowledge on refs/memory/main; the clone's store must start from it (one history), and when the
 * remote cannot be read, the store that starts on its own merges with it later without loss.
 */
describe('axme init on a clone whose remote holds the knowledge', () => {
  let root: string;
  let remote: string;
  let first: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'axme-follow-'));
    remote = join(root, 'remote.git');
    first = join(root, 'first');
    git(root, ['init', '-q', '--bare', '-b', 'main', remote]);
    git(root, ['clone', '-q', remote, first]);
    git(first, ['-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '--allow-empty', '-m', 'first']);
    git(first, ['push', '-q', 'origin', 'main']);
    await initCore(first, { gitHooks: true });
    await cliText(first, decisionAdd, { title: 'Use Valkey for caching', decision: 'Valkey replaces Redis.' });
    await syncCore(first);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test("the clone's store starts from the remote's: one history, the team's decisions there", async () => {
    const clone = join(root, 'clone');
    git(root, ['clone', '-q', remote, clone]);
    const r = await axme(clone, ['init', '--no-claude', '--no-scan']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /started from origin's knowledge \(refs\/memory\/main at [0-9a-f]{12}\)/);
    assert.equal(git(clone, ['rev-parse', 'refs/memory/main']), git(first, ['rev-parse', 'refs/memory/main']), 'the same commit: no second history');
    const list = await cliJson(clone, decisionList);
    assert.deepEqual(
      list.map((d: { id: string; title: string }) => `${d.id} ${d.title}`),
      ['D-001 Use Valkey for caching'],
    );
    // and the two stay one: a decision made in the clone reaches the first checkout by a plain sync
    await cliText(clone, decisionAdd, { title: 'Keep sessions in Valkey', decision: 'One store for both.' });
    await syncCore(clone);
    await syncCore(first);
    assert.deepEqual(
      (await cliJson(first, decisionList)).map((d: { id: string }) => d.id),
      ['D-001', 'D-002'],
    );
  });

  test('a remote that cannot be read: the store starts on its own, says so, and the next sync merges both without loss', async () => {
    const clone = join(root, 'offline');
    git(root, ['clone', '-q', remote, clone]);
    git(clone, ['remote', 'set-url', 'origin', join(root, 'nowhere.git')]);
    const r = await axme(clone, ['init', '--no-claude', '--no-scan']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /origin could not be read .*the next `axme sync` merges it with origin's without loss/);
    await cliText(clone, decisionAdd, { title: 'Written while offline', decision: 'Before the remote was reachable.' });
    git(clone, ['remote', 'set-url', 'origin', remote]);
    await syncCore(clone);
    const titles = (await cliJson(clone, decisionList)).map((d: { title: string }) => d.title).sort();
    assert.ok(titles.includes('Use Valkey for caching') && titles.includes('Written while offline'), titles.join(', '));
  });

  test('a remote without knowledge: a fresh store, and no word about the remote', async () => {
    const empty = join(root, 'empty.git');
    git(root, ['init', '-q', '--bare', '-b', 'main', empty]);
    const clone = join(root, 'fresh');
    git(root, ['clone', '-q', empty, clone]);
    const r = await axme(clone, ['init', '--no-claude', '--no-scan']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /origin/);
    assert.match(r.stdout, /Initialized axme knowledge/);
  });
});
