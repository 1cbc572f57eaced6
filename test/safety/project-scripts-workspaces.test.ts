import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { describe, test } from 'node:test';
import { type EvalContext, evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { ROOT, safetyContext, testHoles } from './context.ts';

/**
 * The project's scripts reached through its workspaces (a member's package.json found by the root
 * package.json's `workspaces` globs or pnpm-workspace.yaml and the member's `name`) and through a
 * Makefile's `include` and `$(call …)` / `$(foreach …)`. The context is context.ts's (the project
 * /home/u/proj) with these files on its disk; the folders are the ones the files are in.
 */
const FILES: Record<string, string> = {
  [`${ROOT}/package.json`]: JSON.stringify({
    name: 'root',
    private: true,
    workspaces: ['packages/*', 'apps/web'],
    scripts: { build: 'tsc -b', 'root-only': 'git push --force origin main' },
  }),
  [`${ROOT}/pnpm-workspace.yaml`]: 'packages:\n  - \'packages/*\'\n  - "apps/*"\n  # a comment\n',
  [`${ROOT}/packages/pkg-a/package.json`]: JSON.stringify({ name: 'pkg-a', scripts: { build: 'tsc', release: 'npm publish' } }),
  [`${ROOT}/packages/b-folder/package.json`]: JSON.stringify({ name: '@acme/pkg-b', scripts: { build: 'vite build', wipe: 'rm -rf ~' } }),
  [`${ROOT}/apps/web/package.json`]: JSON.stringify({ name: 'web', scripts: { build: 'next build', deploy: 'git push --force origin main' } }),
  [`${ROOT}/inc.mk`]: 'include common.mk\n-include missing.mk\nsinclude $(CONF)\nCONF := conf.mk\n',
  [`${ROOT}/inc2.mk`]: 'CONF := conf.mk\ninclude common.mk $(CONF)\n',
  [`${ROOT}/common.mk`]: 'build:\n\tgcc -o app main.c\npublish:\n\tnpm publish\n',
  [`${ROOT}/conf.mk`]: 'wipe:\n\trm -rf ~/\n',
  [`${ROOT}/loop.mk`]: 'include loop.mk\nall:\n\techo hi\nnuke:\n\trm -rf ~/\n',
  [`${ROOT}/fn.mk`]: [
    'rm_dir = rm -rf $(1)/$(2)',
    'DIRS := a b',
    'PKGS := one two',
    'clean:',
    '\t$(call rm_dir,build,out)',
    'nuke:',
    '\t$(call rm_dir,~,)',
    'clean-all:',
    '\t$(foreach d,$(DIRS),rm -rf $(d)/out;)',
    'publish-all:',
    '\t$(foreach p,$(PKGS),cd $(p) && npm publish;)',
    '',
  ].join('\n'),
};

/** The folders of FILES under `dir`, as the hook lists a folder. */
function folderNames(files: Record<string, string>): (dir: string) => string[] {
  return (dir) => {
    const out = new Set<string>();
    for (const path of Object.keys(files)) {
      if (!path.startsWith(`${dir}/`)) continue;
      const rest = path.slice(dir.length + 1).split('/');
      if (rest.length > 1) out.add(rest[0]!);
    }
    return [...out];
  };
}

/** The hook's readers of the project's files and folders, holding `files`. */
const onDisk = (files: Record<string, string>): Partial<EvalContext> => ({
  fileText: (path) => files[posix.normalize(path)] ?? null,
  folderNames: folderNames(files),
});

/** A command's verdict with `files` on the disk (`allow`, or `<decision> [<rule>]`), and its reason. */
async function verdict(command: string, files: Record<string, string> = FILES): Promise<{ said: string; reason: string }> {
  const ctx = safetyContext(onDisk(files));
  const v = await evaluateCommand(command, defaultPolicy(), ctx);
  return { said: v.decision === 'allow' ? 'allow' : `${v.decision} [${v.rule}]`, reason: v.reason };
}

/** [an everyday command that runs a member's script, its dangerous neighbour whose script the rules deny] */
const ROWS: Record<string, ReadonlyArray<readonly [string, string]>> = {
  "npm's -w names a workspace by its package name, its folder or a folder above it": [
    ['npm run build -w pkg-a', 'npm run release -w pkg-a'],
    ['npm run build --workspace=@acme/pkg-b', 'npm run wipe --workspace=@acme/pkg-b'],
    ['npm run build --workspace @acme/pkg-b', 'npm -w @acme/pkg-b run wipe'],
    ['npm run build -w apps/web', 'npm run deploy -w apps/web'],
    ['npm run build -w packages', 'npm run release -w packages'],
    ['npm test -w web --if-present', 'npm run release -w web -w pkg-a'],
  ],
  "npm's --workspaces runs the script of every member": [
    ['npm run build --workspaces', 'npm run release --workspaces'],
    ['npm run build --ws', 'npm run wipe --ws'],
    ['npm run build -ws', 'npm run deploy -ws --if-present'],
    ['npm run root-only --workspaces', 'npm run root-only --workspaces --include-workspace-root'],
    ['pnpm -r run root-only', 'pnpm -r --include-workspace-root run root-only'],
  ],
  "yarn's workspace NAME and workspaces foreach": [
    ['yarn workspace pkg-a build', 'yarn workspace pkg-a release'],
    ['yarn workspace @acme/pkg-b run build', 'yarn workspace @acme/pkg-b run wipe'],
    ['yarn workspaces foreach -A run build', 'yarn workspaces foreach -A run release'],
    ['yarn workspaces foreach --all --parallel run build', 'yarn workspaces foreach -Apt run deploy'],
    ['yarn workspaces run build', 'yarn workspaces run wipe'],
  ],
  "pnpm's --filter and -r (pnpm-workspace.yaml)": [
    ['pnpm --filter pkg-a build', 'pnpm --filter pkg-a release'],
    ['pnpm -F @acme/pkg-b run build', 'pnpm -F @acme/pkg-b run wipe'],
    ['pnpm --filter "@acme/*" build', 'pnpm --filter "@acme/*" wipe'],
    ['pnpm --filter ./apps/web build', 'pnpm --filter ./apps/web run deploy'],
    ['pnpm --filter=web build', 'pnpm --filter=web... run deploy'],
    ['pnpm -r build', 'pnpm -r release'],
    ['pnpm -r run build', 'pnpm recursive run wipe'],
    ['pnpm -C packages/pkg-a build', 'pnpm -C packages/pkg-a release'],
  ],
  "a Makefile's include, -include and sinclude of the project's files": [
    ['make -f inc.mk build', 'make -f inc.mk publish'],
    ['make -f inc2.mk build', 'make -f inc2.mk wipe'],
    ['make -f loop.mk', 'make -f loop.mk nuke'],
  ],
  "make's $(call …) and $(foreach …) of the file's own variables": [
    ['make -f fn.mk clean', 'make -f fn.mk nuke'],
    ['make -f fn.mk clean-all', 'make -f fn.mk publish-all'],
  ],
};

testHoles(ROWS, onDisk(FILES));

describe('the reason names the member whose script it is', () => {
  test('npm run release -w pkg-a', async () => {
    assert.match((await verdict('npm run release -w pkg-a')).reason, /packages\/pkg-a\/package\.json scripts\.release runs `npm publish`/);
  });
  test('yarn workspace @acme/pkg-b wipe', async () => {
    assert.match((await verdict('yarn workspace @acme/pkg-b wipe')).reason, /packages\/b-folder\/package\.json scripts\.wipe runs `rm -rf ~`/);
  });
  test('an included Makefile', async () => {
    assert.match((await verdict('make -f inc.mk publish')).reason, /target publish runs `npm publish`/);
  });
});

describe("npm's install scripts", () => {
  const files = { [`${ROOT}/package.json`]: JSON.stringify({ name: 'app', scripts: { prepare: 'git config core.hooksPath hooks' } }) };
  test('npm install runs prepare: denied, naming it', async () => {
    const v = await verdict('npm install', files);
    assert.match(v.said, /^deny /);
    assert.match(v.reason, /package\.json scripts\.prepare runs `git config core\.hooksPath hooks`/);
  });
  test('npm install --ignore-scripts runs none of them', async () => {
    assert.equal((await verdict('npm install --ignore-scripts', files)).said, 'allow');
    assert.equal((await verdict('npm ci --ignore-scripts=true', files)).said, 'allow');
    assert.match((await verdict('npm ci --ignore-scripts=false', files)).said, /^deny /);
  });
});

describe('what the hook cannot read is judged as today', () => {
  test('a workspace no member is named: nothing read', async () => {
    assert.equal((await verdict('npm run release -w nobody')).said, 'allow');
    assert.equal((await verdict('yarn workspace nobody release')).said, 'allow');
    assert.equal((await verdict('pnpm --filter nobody release')).said, 'allow');
  });
  test('past 32 members a command reads no more package.json files (MAX_MEMBERS)', async () => {
    const files: Record<string, string> = { [`${ROOT}/package.json`]: JSON.stringify({ workspaces: ['p/*'] }) };
    for (let i = 0; i < 40; i++)
      files[`${ROOT}/p/m${String(i).padStart(2, '0')}/package.json`] = JSON.stringify({ name: `m${i}`, scripts: { wipe: 'rm -rf ~' } });
    assert.match((await verdict('npm run wipe -w m0', files)).said, /^deny /);
    assert.match((await verdict('npm run wipe -w m31', files)).said, /^deny /);
    assert.equal((await verdict('npm run wipe -w m32', files)).said, 'allow');
  });
  test('a folder that cannot be listed: its members are not read', async () => {
    const ctx = safetyContext({ fileText: (path) => FILES[posix.normalize(path)] ?? null, folderNames: () => undefined });
    assert.equal((await evaluateCommand('npm run release --workspaces', defaultPolicy(), ctx)).decision, 'allow');
  });
  test('an included dotfile (`include .env`) is not read: its values are never quoted', async () => {
    const files = { [`${ROOT}/Makefile`]: 'include .env\nwipe:\n\trm -rf ~/ $(DEPLOY_KEY)\n', [`${ROOT}/.env`]: 'DEPLOY_KEY := abc123\n' };
    const v = await verdict('make wipe', files);
    assert.match(v.said, /^deny /);
    assert.doesNotMatch(v.reason, /abc123/);
  });
  test('a $(call …) of a variable the file does not define stays unknown', async () => {
    const files = { [`${ROOT}/Makefile`]: 'x:\n\trm -rf $(call undefined_fn,a)\n' };
    assert.match((await verdict('make x', files)).said, /^deny /);
  });
});
