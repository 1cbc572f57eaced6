/**
 * Which git dir outside the working tree a command in the sandbox may write: a linked worktree's
 * commits land in the repository's shared git dir, a submodule's in the superproject's
 * `.git/modules/…`, so those are bound writable. A `.git` file is only a pointer, though, and one
 * the agent writes itself (`sub/.git: gitdir: /elsewhere/.git`) must not make another repository's
 * git dir writable: the git dir has to point back at the tree (a linked worktree's `gitdir` file, a
 * submodule's `core.worktree`). Real bubblewrap, real git, the built binary.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI, cleanEnv, git, sandboxProject } from '../helpers.ts';

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;

describe('git dirs outside the tree in the sandbox', { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox here' }, () => {
  let project: string;
  let home: string;
  let cleanup: () => void;
  let other: string;
  const commit = ['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m'];
  before(() => {
    ({ project, home, cleanup } = sandboxProject('git-dirs-'));
    git(project, [...commit, 'first']);
    // another repository on the same machine, outside the project
    other = join(project, '..', 'other');
    mkdirSync(other);
    git(other, ['init', '-q', '-b', 'main']);
    git(other, [...commit, 'theirs']);
  });
  after(() => cleanup());

  const sandboxed = (cwd: string, command: string) =>
    spawnSync(process.execPath, [CLI, 'sandbox', '-c', command], { cwd, env: cleanEnv({ HOME: home, AXME_SANDBOX: 'auto' }), encoding: 'utf8' });

  test("a .git file the agent wrote does not open another repository's git dir", () => {
    const sub = join(project, 'sub');
    mkdirSync(sub);
    writeFileSync(join(sub, '.git'), `gitdir: ${join(other, '.git')}\n`);
    const r = sandboxed(sub, `echo planted > ${join(other, '.git', 'refs', 'heads', 'planted')}; git update-ref refs/heads/moved HEAD`);
    assert.ok(!existsSync(join(other, '.git', 'refs', 'heads', 'planted')), `the other git dir stayed read-only: ${r.stderr}`);
    assert.ok(!existsSync(join(other, '.git', 'refs', 'heads', 'moved')), r.stderr);
    assert.notEqual(r.status, 0);
  });

  test('a linked worktree commits into the shared git dir', () => {
    const linked = join(project, '..', 'linked');
    git(project, ['worktree', 'add', '-q', '-b', 'feat', linked]);
    const r = sandboxed(linked, `git ${commit.join(' ')} in-the-sandbox`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(git(project, ['log', '-1', '--format=%s', 'feat']), /in-the-sandbox/);
  });

  test("a submodule commits into the superproject's git dir", () => {
    const origin = join(project, '..', 'lib-origin');
    mkdirSync(origin);
    git(origin, ['init', '-q', '-b', 'main']);
    git(origin, [...commit, 'lib']);
    git(project, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', origin, 'lib']);
    const lib = join(project, 'lib');
    assert.match(readFileSync(join(lib, '.git'), 'utf8'), /modules/);
    const r = sandboxed(lib, `git ${commit.join(' ')} in-the-submodule`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(git(lib, ['log', '-1', '--format=%s']), /in-the-submodule/);
  });
});
