import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { gitSettingAt, remoteUrlAt } from '../../src/hooks/remote-url.ts';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { git, tempRepo } from '../helpers.ts';

/**
 * The guard's redirect check on the settings that pick the remote a branch is pushed to
 * (src/safety/push-destinations.ts): `branch.<b>.pushRemote`, `remote.pushDefault` and
 * `branch.<b>.remote`, written to stay, are read as git reads them for a
 * push — the branch then goes where the named remote's URL leads — and one that sends a branch's
 * pushes to another host than before is denied, as moving the remote's URL is. The same host (a fork
 * beside origin), a read, a push that names its remote, a value only the shell knows pass. A real
 * repository's config, read by the hook's own lookups.
 */
let dir: string;
let cleanup: () => void;
before(() => {
  ({ dir, cleanup } = tempRepo({ commit: true }));
  dir = realpathSync(dir);
  git(dir, ['branch', '-M', 'main']);
  git(dir, ['branch', 'feat']);
  git(dir, ['remote', 'add', 'origin', 'https://github.com/acme/app.git']);
  git(dir, ['remote', 'add', 'fork', 'git@github.com:me/app.git']);
  git(dir, ['remote', 'add', 'evil', 'https://evil.example/app.git']);
  git(dir, ['config', 'branch.main.remote', 'origin']);
  git(dir, ['config', 'branch.main.merge', 'refs/heads/main']);
});
after(() => cleanup());

const decide = async (command: string) => {
  const ctx = {
    cwd: dir,
    home: '/nonexistent-home',
    root: dir,
    branchOf: () => 'main',
    remoteUrl: (d: string, gitDir: string | null, name: string) => remoteUrlAt(d, {}, gitDir, name),
    gitSetting: (d: string, gitDir: string | null, key: string) => gitSettingAt(d, {}, gitDir, key),
    lookupPr: async () => 'open' as const,
  };
  const r = await evaluateCommand(command, defaultPolicy(), ctx);
  return r.decision === 'deny' ? `deny ${r.rule}` : r.decision;
};

describe("a branch's pushes sent to another host by the settings that pick its remote", () => {
  for (const command of [
    'git config branch.main.pushRemote evil',
    'git config branch.feat.pushRemote evil',
    'git config --local branch.main.pushremote evil',
    'git config set branch.main.pushRemote evil',
    'git config remote.pushDefault evil',
    'git config remote.pushdefault https://evil.example/x.git',
    'git config branch.main.remote evil',
    'git config branch.feat.remote evil',
    'git -C . config branch.main.pushRemote evil',
    'git status && git config branch.main.pushRemote evil',
  ])
    test(`denied: ${command}`, async () => {
      assert.equal(await decide(command), 'deny network.redirect');
    });

  for (const command of [
    'git config branch.main.pushRemote fork',
    'git config branch.feat.pushRemote origin',
    'git config remote.pushDefault fork',
    'git config remote.pushDefault origin',
    'git config branch.feat.remote origin',
    'git config --get branch.main.pushRemote',
    'git config branch.main.merge refs/heads/main',
    'git config --unset branch.main.pushRemote',
    'git config branch.main.pushRemote "$REMOTE"',
    'git -c remote.pushDefault=evil push --dry-run',
    'git push fork feat #!axme pr=none repo=acme/app',
    'git remote add up https://other.example/x.git',
  ])
    test(`passes: ${command}`, async () => {
      assert.equal(await decide(command), 'allow');
    });
});
