import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { axmeOk, cleanEnv, git, tempRepo } from '../helpers.ts';

/**
 * post-merge: a commit `git merge` makes gets the note post-commit gives other commits (git runs
 * commit-msg for a merge, which moves the marker into trailers, but not post-commit). Real git with
 * the hooks `axme init` installed — in the hooks folder and in husky's.
 */

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

/** git as an agent runs it (CLAUDECODE=1), or as a person. */
function gitAs(dir: string, args: string[], agent: boolean): { status: number | null; stderr: string } {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: cleanEnv(agent ? { CLAUDECODE: '1' } : {}) });
  return { status: r.status, stderr: r.stderr };
}

/** A repository with axme's git hooks, a `feature` branch one commit ahead and main one commit ahead of it. */
async function diverged(husky: boolean) {
  const { dir, cleanup } = tempRepo({ commit: true });
  cleanups.push(cleanup);
  if (husky) {
    // git runs the hooks of .husky itself (husky 9's .husky/_ stubs would call these same files)
    mkdirSync(join(dir, '.husky'));
    git(dir, ['config', 'core.hooksPath', '.husky']);
  }
  await axmeOk(dir, ['init', '--no-claude', '--no-scan']);
  git(dir, ['switch', '-q', '-c', 'feature']);
  writeFileSync(join(dir, 'f.txt'), 'f\n');
  git(dir, ['add', 'f.txt']);
  git(dir, ['commit', '-q', '-m', 'Add f']);
  git(dir, ['switch', '-q', 'main']);
  writeFileSync(join(dir, 'm.txt'), 'm\n');
  git(dir, ['add', 'm.txt']);
  git(dir, ['commit', '-q', '-m', 'Add m']);
  return dir;
}

const note = (dir: string, rev: string) => git(dir, ['log', '-1', '--notes=axme', '--format=%N', rev]);

describe('post-merge: the note of a merge commit', () => {
  for (const husky of [false, true])
    test(`an agent's merge with the marker gets trailers and a note (${husky ? "husky's folder" : 'the hooks folder'})`, async () => {
      const dir = await diverged(husky);
      const hook = husky ? join(dir, '.husky', 'post-merge') : join(dir, git(dir, ['rev-parse', '--git-path', 'hooks']).trim(), 'post-merge');
      assert.ok(existsSync(hook), `installed where git runs it: ${hook}`);
      assert.match(readFileSync(hook, 'utf8'), /git-hook post-merge/);
      const r = gitAs(dir, ['merge', '--no-ff', '-q', 'feature', '-m', 'Merge feature per D-001', '-m', '#!axme pr=none repo=acme/app'], true);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(git(dir, ['rev-list', '--parents', '-1', 'HEAD']).trim().split(' ').length, 3, 'a merge commit');
      assert.match(git(dir, ['log', '-1', '--format=%B']), /Axme-PR: none\nAxme-Repo: acme\/app/);
      assert.match(note(dir, 'HEAD'), /^branch: main\ndecisions: D-001\n(memory: [0-9a-f]{40}\n)?pr: none\nrepo: acme\/app\n/);
    });

  test("a fast-forward writes no note on the commits it brings; a person's plain merge gets none", async () => {
    const dir = await diverged(false);
    // someone else's commit with trailers (made without hooks: no note here), reached by a fast-forward
    git(dir, ['switch', '-q', '-c', 'ahead']);
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    git(dir, ['add', 'a.txt']);
    git(dir, ['-c', `core.hooksPath=${join(dir, 'no-hooks')}`, 'commit', '-q', '-m', 'Add a', '-m', 'Axme-PR: none\nAxme-Repo: acme/app']);
    assert.equal(note(dir, 'HEAD').trim(), '');
    git(dir, ['switch', '-q', 'main']);
    git(dir, ['branch', '-q', '-f', 'behind', 'main']);
    git(dir, ['switch', '-q', 'behind']);
    git(dir, ['merge', '-q', 'main']);
    const ff = gitAs(dir, ['merge', '-q', '--ff-only', 'ahead'], false);
    assert.equal(ff.status, 0, ff.stderr);
    assert.equal(note(dir, 'HEAD').trim(), '', 'no note on a commit the fast-forward brought');
    git(dir, ['switch', '-q', 'main']);
    const plain = gitAs(dir, ['merge', '--no-ff', '-q', 'feature', '-m', 'Merge feature'], false);
    assert.equal(plain.status, 0, plain.stderr);
    assert.equal(note(dir, 'HEAD').trim(), '', "a person's plain merge: nothing to tie");
  });

  test('uninstall takes the post-merge hook out with the others', async () => {
    const dir = await diverged(false);
    const hook = join(dir, git(dir, ['rev-parse', '--git-path', 'hooks']).trim(), 'post-merge');
    await axmeOk(dir, ['uninstall']);
    assert.equal(existsSync(hook), false);
  });
});
