import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { remoteUrlAt } from '../../src/hooks/remote-url.ts';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { git, tempRepo } from '../helpers.ts';

/**
 * The remote URLs the pre-tool-use hook reads from a real repository's config (remote-url.ts),
 * and the guard's answer on moving a remote with them: another host is denied, the same host
 * another way passes.
 */
let dir: string;
let cleanup: () => void;
before(() => {
  ({ dir, cleanup } = tempRepo({ commit: true }));
  dir = realpathSync(dir);
  git(dir, ['remote', 'add', 'origin', 'https://github.com/acme/app.git']);
  git(dir, ['remote', 'add', 'gl.mirror', 'git@gitlab.com:acme/app.git']);
  git(dir, ['worktree', 'add', '-q', join(dir, 'wt'), '-b', 'feature']);
  mkdirSync(join(dir, 'src'));
});
after(() => cleanup());

test('a remote URL is read from the config file, from a subfolder and a linked worktree too', () => {
  assert.equal(remoteUrlAt(dir, {}, null, 'origin'), 'https://github.com/acme/app.git');
  assert.equal(remoteUrlAt(join(dir, 'src'), {}, null, 'origin'), 'https://github.com/acme/app.git');
  assert.equal(remoteUrlAt(join(dir, 'wt'), {}, null, 'origin'), 'https://github.com/acme/app.git');
  assert.equal(remoteUrlAt(dir, {}, join(dir, '.git'), 'gl.mirror'), 'git@gitlab.com:acme/app.git');
  assert.equal(remoteUrlAt(dir, {}, null, 'upstream'), null);
  assert.equal(remoteUrlAt('/', {}, null, 'origin'), null);
});

test('moving a remote to another host is denied; the same host another way passes', async () => {
  const ctx = {
    cwd: dir,
    home: '/nonexistent-home',
    root: dir,
    branchOf: () => 'main',
    remoteUrl: (d: string, gitDir: string | null, name: string) => remoteUrlAt(d, {}, gitDir, name),
    lookupPr: async () => 'open' as const,
  };
  const decide = async (command: string) => (await evaluateCommand(command, defaultPolicy(), ctx)).decision;
  assert.equal(await decide('git remote set-url origin https://evil.example/x.git'), 'deny');
  assert.equal(await decide('git -C src remote set-url origin https://evil.example/x.git'), 'deny');
  assert.equal(await decide('git config remote.origin.url ssh://git@evil.example/x.git'), 'deny');
  assert.equal(await decide('git remote set-url origin git@github.com:acme/app.git'), 'allow');
  assert.equal(await decide('git remote set-url upstream https://evil.example/x.git'), 'allow');
  assert.equal(await decide('git remote add upstream https://github.com/org/app.git'), 'allow');
});

test("a remote's URL is what git itself says, however its config files write it", () => {
  const home = mkdtempSync(join(dir, 'home-'));
  const global = join(home, '.gitconfig');
  writeFileSync(global, '[user]\n\tname = x\n');
  const env = { GIT_CONFIG_GLOBAL: global, GIT_CONFIG_NOSYSTEM: '1', HOME: home };
  git(dir, ['config', 'remote.commented.url', 'https://github.com/acme/c.git']);
  git(dir, ['config', 'remote.quoted.url', 'https://github.com/acme/q.git']);
  // hand edits git accepts: a comment after the value, a quoted value
  const configPath = join(dir, '.git', 'config');
  const text = readFileSync(configPath, 'utf8');
  writeFileSync(
    configPath,
    text
      .replace('url = https://github.com/acme/c.git', 'url = https://github.com/acme/c.git ; moved from svn')
      .replace('url = https://github.com/acme/q.git', 'url = "https://github.com/acme/q.git"'),
  );
  for (const name of ['origin', 'gl.mirror', 'commented', 'quoted']) {
    const byGit = execFileSync('git', ['remote', 'get-url', name], { cwd: dir, env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
    assert.equal(remoteUrlAt(dir, env, null, name), byGit, name);
  }
});
