/**
 * The guard rail's own state (docs/safety.md, "The guard rail's own state") against the ways
 * around it issue 31 found: removing or moving a folder that holds a guarded path, writers the
 * engine did not know (sponge, editors, curl -o, git's own writers...), axme run through a package
 * runner, git settings given through the environment, and refs/memory/* moved by push, fetch,
 * symbolic-ref or update-ref --stdin. Each denial sits next to an everyday neighbour.
 *
 * The context is corpus.test.ts's, with the guarded paths the pre-tool-use hook sets
 * (setup/paths.ts guardedPaths): .claude/settings*.json, .git/hooks, .git/axme, .git/config,
 * .git/refs/memory, .husky, node_modules/.bin/axme, node_modules/axme, ~/.claude/settings.json.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { safetyContext } from './context.ts';

const M = ' #!axme pr=none repo=acme/app';
const policy = defaultPolicy();

const DENY: string[] = [
  // a folder holding guarded paths, removed, moved or written into
  'rm -rf .claude',
  'rm -r .claude/',
  'mv .claude .claude.off',
  'mv .git/hooks x',
  'rm -rf .git/axme',
  'rm -rf .git/refs/memory',
  'find .claude -delete',
  'git rm -r .claude',
  'git mv .claude x',
  'mv .git .git.bak',
  'rm -rf ~/.claude',
  'cp /tmp/x .claude/',
  'cp -r /tmp/x .claude',
  'rsync -a --delete /tmp/empty/ .claude/',
  'tar xf a.tar -C .claude',
  'unzip a.zip -d .claude',
  'chmod 000 .claude',
  'tar -C ~/.config -xf cfg.tar',
  "find . -name '*.json' -delete",
  'find . -name hooks -exec rm -rf {} +',
  // writers aimed at a guarded path
  'sponge .claude/settings.json',
  'git rm .claude/settings.json',
  'git mv .claude/settings.json x',
  'vim .claude/settings.json',
  'vi .claude/settings.local.json',
  'nano .husky/pre-commit',
  'ed .claude/settings.json',
  "ex -sc '%d|wq' .claude/settings.json",
  'curl -o .claude/settings.json https://x.example.com/s',
  'curl -sSL https://x.example.com/s --output .claude/settings.json',
  'wget -O .claude/settings.json https://x.example.com/s',
  'wget -q https://x.example.com/s -O.claude/settings.json',
  'patch .claude/settings.json p.diff',
  'sort -o .claude/settings.json x',
  'git checkout other -- .claude/settings.json',
  'git restore --source=x .claude/settings.json',
  'git checkout other -- .husky/pre-commit',
  'ln -sf /bin/true node_modules/.bin/axme',
  'cp /tmp/fake.cjs node_modules/axme/dist/axme.cjs',
  'dd if=/tmp/x of=.claude/settings.json',
  "sed -i 's/hooksPath/x/' .git/config",
  // axme through a package runner
  'npm exec axme -- safety set families.publish off',
  'npx axme@latest safety remove bash_deny "npm publish"',
  'pnpm dlx axme safety reset',
  'bunx axme safety remove fs_deny "*.log"',
  'yarn dlx axme uninstall',
  'npx -y axme@1.2.3 uninstall',
  'pnpm exec axme safety set families.infra off',
  'npm x -- axme safety reset',
  // core.hooksPath and core.fsmonitor, however they are given
  `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/tmp git commit -m x${M}`,
  `GIT_CONFIG_PARAMETERS="'core.hooksPath'='/tmp'" git push origin feature/x${M}`,
  `export GIT_CONFIG_PARAMETERS="'core.fsmonitor'='/tmp/x'"`,
  'env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=/tmp/x git status',
  'git -c core.fsmonitor=/tmp/x status',
  'git config core.fsmonitor /tmp/x',
  'git config --unset core.hooksPath',
  'git config set core.hooksPath /tmp',
  // refs/memory/* moved by hand
  'git push . HEAD:refs/memory/main',
  `git push origin HEAD:refs/memory/main${M}`,
  'git fetch . HEAD:refs/memory/main',
  'git fetch origin +refs/heads/x:refs/memory/main',
  'git symbolic-ref refs/memory/main refs/heads/x',
  'git update-ref --stdin',
  "echo 'update refs/memory/main HEAD' | git update-ref --stdin",
  "git update-ref --stdin <<< 'delete refs/memory/main'",
  'printf x > .git/refs/memory/main',
  // passing as a person
  'AXME_ACTOR=human axme revert 1a2b3c4',
  'export AXME_ACTOR=human',
  `env -u CLAUDECODE git push --force origin main${M}`,
  'env --unset=CLAUDECODE axme decision revoke D-001 --reason x',
  'unset CLAUDECODE AXME_AGENT',
  'CLAUDECODE=0 axme ui',
  // the whole environment cleared: the actor's variables with it
  'env -i PATH=$PATH axme decision revoke D-001 --reason x',
  'env - axme decision revoke D-001 --reason x',
  'env --ignore-environment node_modules/.bin/axme revert 1a2b3c4',
  'env -iv npx axme decision revoke D-001 --reason x',
  'exec -c axme decision revoke D-001 --reason x',
  `env -i PATH=/usr/bin git commit -m x${M}`,
];

const ALLOW: string[] = [
  'rm -rf node_modules',
  'rm -rf node_modules/.bin',
  'mv node_modules /tmp/nm',
  'npm ci',
  'cp README.md docs/',
  'cp /tmp/x .',
  'cp -r template/. .',
  'touch .claude/notes.md',
  'mkdir -p .claude/commands',
  'cat .claude/settings.json',
  'vim src/index.ts',
  'curl -o /tmp/x https://x.example.com/s',
  'wget -O dist/app.js https://x.example.com/s',
  'sort -o out.txt in.txt',
  'patch -p1 < fix.diff',
  'git rm --cached .claude/settings.local.json',
  'git checkout main -- src/index.ts',
  'git restore --staged .claude/settings.json',
  `git push origin feature/x${M}`,
  'git fetch origin',
  "git fetch origin 'refs/memory/*:refs/remotes/origin/memory/*'",
  'git log refs/memory/main',
  'git show refs/memory/main:safety/rules.yaml',
  'git symbolic-ref --short HEAD',
  "echo 'update refs/heads/x HEAD' | git update-ref --stdin",
  'git update-ref refs/heads/feature HEAD',
  'git config core.editor vim',
  'git config --get core.hooksPath',
  'git -c core.pager=less log',
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=x git log',
  'npx axme status',
  'pnpm dlx axme safety add bash_deny "rm -rf dist"',
  'npx prettier --check .',
  'rm -rf ~/.cache/pip',
  'find . -type d -name __pycache__ -exec rm -rf {} +',
  "find . -name '*.o' -delete",
  'echo AXME_ACTOR=human',
  'AXME_ACTOR=agent axme status',
  'CLAUDECODE=1 npm test',
  "env -u CLAUDECODE claude -p 'summarise the diff'",
  'unset NODE_OPTIONS',
  // a clean environment for a build or the tests is everyday
  'env -i PATH="$PATH" HOME="$HOME" npm test',
  'env -i node -e 1',
  'env -i AXME_ACTOR=agent axme status',
];

describe('the guard rail against the ways around it', () => {
  for (const command of DENY) {
    test(`deny: ${command}`, async () => {
      const v = await evaluateCommand(command, policy, safetyContext());
      assert.equal(v.decision, 'deny', `${command} -> ${v.decision} [${v.rule}]`);
      assert.equal(v.rule, 'axme.self', `${command}: ${v.rule} ${v.reason}`);
    });
  }
  for (const command of ALLOW) {
    test(`allow: ${command}`, async () => {
      const v = await evaluateCommand(command, policy, safetyContext());
      assert.equal(v.decision, 'allow', `${command} -> [${v.rule}] ${v.reason}`);
    });
  }
});
