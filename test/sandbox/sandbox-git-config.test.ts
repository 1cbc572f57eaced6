/**
 * git's settings under the kernel sandbox (docs/safety.md, "git's settings"): `.git/config` stays
 * read-only to commands in the sandbox, yet the everyday git commands that write it are recorded —
 * a plain git command that writes only settings that run nothing runs outside as axme's own git
 * line; one whose work stays inside (`git push -u`, `git checkout --track`) has its tracking
 * recorded after it succeeded. A setting that runs a program, a chained command, a global option,
 * a local or helper URL: nothing recorded, and the command says why. Real bubblewrap through
 * `axme sandbox -c` (the command line Codex and Gemini CLI are handed), a real bare remote.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { repoFacts } from '../../src/setup/repo-facts.ts';
import { gitConfigGrant } from '../../src/setup/sandbox-git-config.ts';
import { CLI, cleanEnv, git, localGitSetting, sandboxCommand, sandboxProject } from '../helpers.ts';

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;

describe('git settings written from the sandbox', { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox here' }, () => {
  let project: string;
  let home: string;
  let remote: string;
  let outside: string;
  let cleanup: () => void;
  before(() => {
    ({ project, home, cleanup } = sandboxProject('git-config-'));
    // the remote in the temp folder (writable in the sandbox: the push lands); a canary folder outside it
    remote = join(mkdtempSync(join(tmpdir(), 'axme-gitconfig-remote-')), 'remote.git');
    outside = join(dirname(project), 'outside');
    mkdirSync(outside);
    git(dirname(remote), ['init', '-q', '--bare', remote]);
    git(project, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init']);
    git(project, ['branch', '-M', 'main']);
    git(project, ['remote', 'add', 'origin', remote]);
    git(project, ['push', '-q', 'origin', 'main', 'main:other', 'main:third']);
    git(project, ['branch', 'feat']);
  });
  after(() => {
    cleanup();
    rmSync(dirname(remote), { recursive: true, force: true });
  });

  const sandboxed = (command: string) => sandboxCommand(project, home)(command);
  const setting = (key: string) => localGitSetting(project, key);
  const recorded = (command: string, expected: Record<string, string | null>) => {
    const r = sandboxed(command);
    assert.equal(r.status, 0, `${command}:\n${r.out}`);
    for (const [key, value] of Object.entries(expected)) assert.equal(setting(key), value, `${command} → ${key}:\n${r.out}`);
  };

  // in order: each builds on the one before
  test('git push -u origin feat: pushed in the sandbox, its tracking recorded', () =>
    recorded('git push -u origin feat', { 'branch.feat.remote': 'origin', 'branch.feat.merge': 'refs/heads/feat' }));

  test("git push -u with axme's marker comment", () => {
    git(project, ['branch', 'marked']);
    recorded('git push -q -u origin marked #!axme pr=none repo=acme/demo', { 'branch.marked.remote': 'origin', 'branch.marked.merge': 'refs/heads/marked' });
  });

  test('git branch --set-upstream-to=origin/other feat', () =>
    recorded('git branch --set-upstream-to=origin/other feat', { 'branch.feat.merge': 'refs/heads/other' }));

  test('git branch --unset-upstream feat', () => recorded('git branch --unset-upstream feat', { 'branch.feat.remote': null, 'branch.feat.merge': null }));

  test('git remote add, set-url, rename, remove', () => {
    recorded('git remote add up https://example.com/up.git', { 'remote.up.url': 'https://example.com/up.git' });
    recorded('git remote set-url up git@example.com:team/up.git', { 'remote.up.url': 'git@example.com:team/up.git' });
    recorded('git remote rename up up2', { 'remote.up.url': null, 'remote.up2.url': 'git@example.com:team/up.git' });
    recorded('git remote remove up2', { 'remote.up2.url': null });
  });

  test('git config --local pull.rebase / --unset', () => {
    recorded('git config --local pull.rebase true', { 'pull.rebase': 'true' });
    recorded('git config --unset pull.rebase', { 'pull.rebase': null });
  });

  test('git checkout -b x --track origin/other, git switch -c y origin/other, git checkout third (from the one remote that has it)', () => {
    recorded('git checkout -q -b x --track origin/other', { 'branch.x.remote': 'origin', 'branch.x.merge': 'refs/heads/other' });
    assert.equal(git(project, ['branch', '--show-current']).trim(), 'x');
    recorded('git switch -c y origin/other', { 'branch.y.remote': 'origin', 'branch.y.merge': 'refs/heads/other' });
    recorded('git checkout third', { 'branch.third.remote': 'origin', 'branch.third.merge': 'refs/heads/third' });
    assert.equal(git(project, ['branch', '--show-current']).trim(), 'third');
  });

  test('git worktree add -b wt1 <path> origin/other, git worktree add <path> fourth (from the one remote that has it): made in the sandbox, the tracking recorded', () => {
    git(project, ['push', '-q', 'origin', 'main:fourth']);
    const trees = dirname(remote);
    recorded(`git worktree add -q -b wt1 ${join(trees, 'wt1')} origin/other`, { 'branch.wt1.remote': 'origin', 'branch.wt1.merge': 'refs/heads/other' });
    assert.equal(git(join(trees, 'wt1'), ['branch', '--show-current']).trim(), 'wt1');
    recorded(`git worktree add -q --track -B wt2 ${join(trees, 'wt2')} origin/third`, {
      'branch.wt2.remote': 'origin',
      'branch.wt2.merge': 'refs/heads/third',
    });
    recorded(`git worktree add -q ${join(trees, 'fourth')} fourth`, { 'branch.fourth.remote': 'origin', 'branch.fourth.merge': 'refs/heads/fourth' });
    assert.equal(git(join(trees, 'fourth'), ['branch', '--show-current']).trim(), 'fourth');
  });

  test('git branch -m and -D carry the branch settings', () => {
    git(project, ['checkout', '-q', 'main']);
    recorded('git branch -m x x2', { 'branch.x.merge': null, 'branch.x2.merge': 'refs/heads/other' });
    recorded('git branch -D x2', { 'branch.x2.merge': null });
    assert.equal(spawnSync('git', ['rev-parse', '-q', '--verify', 'refs/heads/x2'], { cwd: project }).status, 1);
  });

  // a setting that runs a program, written by any route: never recorded, and the command says why
  for (const [command, key] of [
    ['git config core.hooksPath /tmp/h', 'core.hookspath'],
    ["git config alias.st '!sh -c id'", 'alias.st'],
    ['git config core.fsmonitor ./fsmon', 'core.fsmonitor'],
    ['git config core.editor vim', 'core.editor'],
    ['git config core.pager less', 'core.pager'],
    ['git config core.sshCommand ./ssh', 'core.sshcommand'],
    ["git config credential.helper '!./x'", 'credential.helper'],
    ['git config include.path ../x', 'include.path'],
    ['git config filter.x.smudge ./x', 'filter.x.smudge'],
    ['git config remote.origin.uploadpack ./x', 'remote.origin.uploadpack'],
    ['git config --add core.hooksPath /tmp/h', 'core.hookspath'],
    ['git -c core.hooksPath=/tmp/h config user.email me@x', 'user.email'],
    ['git config branch.feat.remote /tmp/evil.git', 'branch.feat.remote'],
    // not a program, but kept in the repository's config it would sign the user's own later commits
    ['git config user.name "Agent Smith"', 'user.name'],
    ['git config --local user.email agent@example.com', 'user.email'],
    // not a program, but the user's next fetch or push would lose history: a fetch into the local branches, a forced push
    ["git config --add remote.origin.fetch '+refs/heads/*:refs/heads/*'", 'remote.origin.fetch'],
    ["git config remote.origin.push '+refs/heads/*:refs/heads/*'", 'remote.origin.push'],
    ["git remote add evil 'ext::sh -c touch% /tmp/x'", 'remote.evil.url'],
    ['git remote add loc /tmp/evil.git', 'remote.loc.url'],
    ['git remote add loc2 file:///tmp/evil.git', 'remote.loc2.url'],
  ] as const)
    test(`refused: ${command}`, () => {
      const r = sandboxed(command);
      assert.notEqual(r.status, 0, r.out);
      // every value of the key: none but what was there before (the fetch refspec `git remote add` wrote)
      const values = spawnSync('git', ['config', '--local', '--get-all', key], { cwd: project, encoding: 'utf8' }).stdout.trim();
      assert.equal(values, key === 'remote.origin.fetch' ? '+refs/heads/*:refs/remotes/origin/*' : '', r.out);
      assert.equal(setting('core.hookspath'), null);
      assert.match(r.out, /axme: git's settings \(\.git\/config\) are read-only in axme's sandbox/, r.out);
    });

  test('refused: the remote set to a local path keeps its URL', () => {
    const r = sandboxed('git remote set-url origin /tmp/evil.git');
    assert.notEqual(r.status, 0, r.out);
    assert.equal(setting('remote.origin.url'), remote);
  });

  test('refused: a remote moved to another host (where the user pushes next) keeps its URL; the same host takes another URL', () => {
    git(project, ['remote', 'add', 'hosted', 'https://example.com/team/app.git']);
    for (const command of ['git remote set-url hosted https://evil.example/app.git', 'git config remote.hosted.url git@evil.example:team/app.git']) {
      const r = sandboxed(command);
      assert.notEqual(r.status, 0, r.out);
      assert.equal(setting('remote.hosted.url'), 'https://example.com/team/app.git', r.out);
      assert.match(r.out, /moves a remote to another host/, r.out);
    }
    recorded('git remote set-url hosted git@example.com:team/app.git', { 'remote.hosted.url': 'git@example.com:team/app.git' });
  });

  test('refused: git config --global writes no home file', () => {
    const r = sandboxed('git config --global user.name me');
    assert.notEqual(r.status, 0, r.out);
    assert.equal(existsSync(join(home, '.gitconfig')), false, r.out);
    assert.match(r.out, /--local/, r.out);
  });

  test('a chained git push -u runs in the sandbox: nothing of it outside, its tracking not recorded, the agent told to run it alone', () => {
    git(project, ['branch', 'chain']);
    const canary = join(outside, 'canary');
    const r = sandboxed(`git push -q -u origin chain && touch ${canary}`);
    assert.equal(existsSync(canary), false, r.out);
    assert.equal(setting('branch.chain.remote'), null, r.out);
    assert.match(r.out, /run `git push -q -u origin chain` alone/, r.out);
    const r2 = sandboxed(`git config user.email a@b; touch ${canary}`);
    assert.equal(existsSync(canary), false, r2.out);
    assert.equal(setting('user.email'), null, r2.out);
  });

  test('a substitution in a git config word is no plain command: it runs in the sandbox', () => {
    const canary = join(outside, 'subst');
    const r = sandboxed(`git config user.email "$(touch ${canary})x@y"`);
    assert.equal(existsSync(canary), false, r.out);
    assert.equal(setting('user.email'), null, r.out);
  });

  test('a command that writes no git setting gets nothing from the judge: it runs in the sandbox as before', () => {
    const at = { cwd: project, home, facts: repoFacts({ commonDir: join(project, '.git'), gitDir: join(project, '.git') }, cleanEnv()) };
    for (const command of [
      'ls',
      'echo git config user.name me',
      'git status',
      'git push origin feat',
      'git log --oneline',
      'git config --get user.name',
      'git config user.name',
      'git config -l',
      'git checkout main',
      'git checkout -b fresh',
      'git switch -',
      'git branch',
      'git branch newone',
      'git remote -v',
      'git push -u --dry-run origin feat',
      'git worktree list',
      'git worktree add /tmp/axme-detached origin/other',
      'git worktree add --no-track -b nt /tmp/axme-nt origin/other',
      'git worktree add -b fresh2 /tmp/axme-fresh main',
    ])
      assert.equal(gitConfigGrant(command, at), null, command);
  });

  test('the git commands that write settings axme leaves to the user say so', () => {
    for (const command of ['git sparse-checkout init', 'git lfs install', 'git submodule init', 'git maintenance register']) {
      const r = sandboxed(command);
      assert.match(
        r.out,
        /axme: git's settings \(\.git\/config\) are read-only in axme's sandbox.*ask the user to run it outside the agent/,
        `${command}: ${r.out}`,
      );
    }
  });

  test('git push -u without a branch named says what to run', () => {
    const r = sandboxed('git push -u');
    assert.match(r.out, /name the remote and the branch/, r.out);
  });
});
