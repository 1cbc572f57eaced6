import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { git } from '../helpers.ts';
import { removeByHand, twoPeople } from '../team-clones.ts';

/**
 * A clone with two remotes (docs/sync.md, "A hold's question stays here while open"): a hold's
 * question is about this clone and the remote it names, so while it is open a sync with another
 * remote takes that remote's knowledge but pushes none there (exit 1, saying which question and
 * what settles it); once it is settled the knowledge goes there, the question closed (real git: two
 * bare remotes, two clones).
 */

const root = mkdtempSync(join(tmpdir(), 'axme-sync-two-remotes-'));
after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

/** The hold questions in the store `gitDir` holds at refs/memory/main, each as `<status> <question's first words>`. */
function holdQuestionsAt(gitDir: string): string[] {
  const names = git(root, ['--git-dir', gitDir, 'ls-tree', '--name-only', 'refs/memory/main', 'questions/'])
    .split('\n')
    .filter((p) => p.startsWith('questions/sync-held-'));
  return names.map((p) => {
    const text = git(root, ['--git-dir', gitDir, 'show', `refs/memory/main:${p}`]);
    return `${/^status: (\S+)/m.exec(text)![1]} ${p}`;
  });
}

describe('an open hold question and a second remote', () => {
  test('is never pushed to the other remote while open; once settled, the knowledge goes there with it closed', async () => {
    const {
      remote: origin,
      people: [ann, bob],
    } = await twoPeople(root);
    const upstream = join(root, 'upstream.git');
    git(root, ['init', '-q', '--bare', upstream]);
    git(bob.dir, ['remote', 'add', 'upstream', upstream]);
    await axmeInOk(ann.dir, ['decision', 'add', '--title', 'Use Valkey for caching', '--decision', 'Valkey.'], { env: ann.env });
    await axmeInOk(ann.dir, ['sync'], { env: ann.env });
    await axmeInOk(bob.dir, ['sync'], { env: bob.env });
    await axmeInOk(bob.dir, ['sync', 'upstream'], { env: bob.env });

    // ann removes the decision by hand: bob's sync with origin holds it and asks
    removeByHand(ann.dir, 'decisions/use-valkey-for-caching.md');
    git(ann.dir, ['push', '-q', origin, 'refs/memory/main:refs/memory/main']);
    const held = await axmeIn(bob.dir, ['sync', 'origin'], { env: bob.env });
    assert.equal(held.code, 1, held.stderr);
    assert.match(held.stderr, /holding origin's knowledge/);
    const before = git(root, ['--git-dir', upstream, 'rev-parse', 'refs/memory/main']).trim();

    // bob's sync with upstream: the open question about origin stays here
    const other = await axmeIn(bob.dir, ['sync', 'upstream', '--json'], { env: bob.env });
    assert.equal(other.code, 1, other.stdout + other.stderr);
    const error = JSON.parse(other.stderr).error;
    assert.equal(error.code, 'WRONG_STATE');
    assert.match(error.message, /did not push the knowledge to upstream: Q-\d+ .*origin.* is open here/);
    assert.match(error.message, /axme sync origin --accept-removals/);
    assert.deepEqual(error.data.questions.length, 1);
    assert.equal(git(root, ['--git-dir', upstream, 'rev-parse', 'refs/memory/main']).trim(), before, 'nothing pushed to upstream');
    assert.deepEqual(holdQuestionsAt(upstream), []);

    // settled here: the knowledge goes to upstream, the question closed
    await axmeInOk(bob.dir, ['sync', 'origin', '--accept-removals'], { env: bob.env });
    const synced = await axmeInOk(bob.dir, ['sync', 'upstream', '--json'], { env: bob.env });
    assert.equal(synced.pushed.memory, true);
    assert.deepEqual(
      holdQuestionsAt(upstream).map((q) => q.split(' ')[0]),
      ['answered'],
    );
    assert.deepEqual(holdQuestionsAt(origin).length, 1, 'origin has it too, closed');
  });
});
