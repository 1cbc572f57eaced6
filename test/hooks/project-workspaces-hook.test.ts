import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tempRepo } from '../helpers.ts';
import { bashDenial } from './hook-in-process.ts';

/**
 * The built hook finds a workspace's members on disk (src/setup/project-files.ts lists the folders
 * a workspaces glob names): a real repository whose root package.json says `workspaces:
 * ["packages/*"]`, Claude Code's payload for `npm run release -w pkg-a` and the like.
 */
describe('pre-tool-use hook: the scripts of a workspace member', () => {
  let dir: string;
  let home: string;
  let cleanup: () => void;
  before(() => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    home = mkdtempSync(join(tmpdir(), 'axme-home-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'] }));
    mkdirSync(join(dir, 'packages', 'a'), { recursive: true });
    writeFileSync(join(dir, 'packages', 'a', 'package.json'), JSON.stringify({ name: 'pkg-a', scripts: { build: 'tsc', release: 'npm publish' } }));
    mkdirSync(join(dir, 'packages', 'b'), { recursive: true });
    writeFileSync(join(dir, 'packages', 'b', 'package.json'), JSON.stringify({ name: '@acme/b', scripts: { build: 'vite build' } }));
  });
  after(() => {
    cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  const denial = (command: string) => bashDenial(dir, command, { HOME: home });

  for (const command of ['npm run build -w pkg-a', 'npm run build --workspaces', 'yarn workspace @acme/b build']) {
    test(`${command} goes ahead`, async () => {
      assert.equal(await denial(command), null);
    });
  }
  for (const command of ['npm run release -w pkg-a', 'npm run release --workspaces', 'yarn workspaces foreach -A run release']) {
    test(`${command} is denied, naming the member's script`, async () => {
      assert.match((await denial(command)) ?? 'allowed', /packages\/a\/package\.json scripts\.release runs `npm publish`/);
    });
  }
});
