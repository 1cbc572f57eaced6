/**
 * A remote removed (or renamed away, or its URL unset) and its name added again is the same remote
 * moved (docs/safety.md, "git's settings"): `git remote remove origin` then `git remote add origin
 * https://other.example/…`, each run on its own, sends the user's next push of a branch without a
 * remote of its own (git pushes to `origin`) where `git remote set-url origin https://other.example/…`
 * would. The sandbox records neither the add nor its URL, and the guard denies it, as it does the
 * set-url; the same host again (https to ssh), and a name that never was, are recorded. Real
 * bubblewrap through `axme sandbox -c`, real git, the real hook.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { axme, git, localGitSetting, sandboxCommand, sandboxProject } from '../helpers.ts';

const bwrapWorks = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', '/bin/true']).status === 0;

const HOST_URL = 'https://git.example.com/team/app.git';

describe('a remote removed and its name added again', { skip: !bwrapWorks && 'bubblewrap cannot start a sandbox here' }, () => {
  let project: string;
  let home: string;
  let cleanup: () => void;
  before(() => {
    ({ project, home, cleanup } = sandboxProject('readded-'));
    git(project, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init']);
    git(project, ['branch', '-M', 'main']);
  });
  after(() => cleanup());

  /** The user's remotes as they were, before each row. */
  const reset = () => {
    for (const r of spawnSync('git', ['remote'], { cwd: project, encoding: 'utf8' }).stdout.split('\n').filter(Boolean)) git(project, ['remote', 'remove', r]);
    git(project, ['remote', 'add', 'origin', HOST_URL]);
    git(project, ['remote', 'add', 'mirror', 'git@mirror.example.org:team/app.git']);
  };
  const sandboxed = (command: string) => sandboxCommand(project, home)(command);
  const url = (name: string) => localGitSetting(project, `remote.${name}.url`);
  /** The guard's answer through the real hook (Claude Code's payload; not an agent's environment otherwise). */
  const guard = async (command: string) => {
    const input = JSON.stringify({ session_id: 's', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    const r = await axme(project, ['hook', 'pre-tool-use'], { input, env: { HOME: home, CLAUDECODE: '', AXME_SANDBOX: 'off' } });
    return /"permissionDecision":"deny"/.test(r.stdout) ? `deny: ${r.stdout}` : 'allow';
  };

  for (const [how, away, name] of [
    ['removed', 'git remote remove origin', 'origin'],
    ['removed (rm)', 'git remote rm mirror', 'mirror'],
    ['renamed away', 'git remote rename origin old', 'origin'],
    ['its URL unset', 'git config --unset remote.origin.url', 'origin'],
  ] as const) {
    test(`${how}, then added again at another host: not recorded, and the guard denies it`, async () => {
      reset();
      const was = url(name);
      const gone = sandboxed(away);
      assert.equal(gone.status, 0, gone.out);
      assert.equal(url(name), null, `${away} was recorded: ${gone.out}`);
      for (const again of [`git remote add ${name} https://evil.example/app.git`, `git config remote.${name}.url https://evil.example/app.git`]) {
        assert.match(await guard(again), /^deny: .*another host|^deny: .*moves the remote/, again);
        const r = sandboxed(again);
        assert.equal(url(name), null, `${again} was recorded:\n${r.out}`);
        assert.match(r.out, /another host/, r.out);
      }
      // the same host again, another way: recorded, and the guard lets it through
      const same = was === HOST_URL ? 'git@git.example.com:team/app.git' : 'https://mirror.example.org/team/app.git';
      // (an unset URL leaves the remote's other settings: git remote add says it exists)
      const readd = how === 'its URL unset' ? `git config remote.${name}.url ${same}` : `git remote add ${name} ${same}`;
      assert.equal(await guard(readd), 'allow');
      const r = sandboxed(readd);
      assert.equal(r.status, 0, r.out);
      assert.equal(url(name), same, r.out);
    });
  }

  test('everyday neighbours: a name that never was, anywhere; removing a remote', async () => {
    reset();
    assert.equal(await guard('git remote add upstream https://other.example/org/app.git'), 'allow');
    let r = sandboxed('git remote add upstream https://other.example/org/app.git');
    assert.equal(r.status, 0, r.out);
    assert.equal(url('upstream'), 'https://other.example/org/app.git');
    assert.equal(await guard('git remote remove upstream'), 'allow');
    r = sandboxed('git remote remove upstream');
    assert.equal(r.status, 0, r.out);
    assert.equal(url('upstream'), null);
  });
});
