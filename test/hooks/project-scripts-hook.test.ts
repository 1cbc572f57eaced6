import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tempRepo } from '../helpers.ts';
import { bashDenial } from './hook-in-process.ts';

/**
 * The built hook reads the project's own files for a command that runs one of its scripts
 * (src/setup/project-files.ts): a real temporary repository with a real package.json, Makefile
 * and justfile, `axme hook pre-tool-use` given Claude Code's payload as the client writes it.
 */
describe('pre-tool-use hook: the project scripts a command runs', () => {
  let dir: string;
  let home: string;
  let cleanup: () => void;
  before(() => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    home = mkdtempSync(join(tmpdir(), 'axme-home-'));
    const scripts = { build: 'rm -rf dist && tsc', test: 'rm -rf coverage && jest', release: 'npm publish', deploy: 'npm run build && npm run release' };
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', scripts }, null, 2));
    writeFileSync(
      join(dir, 'Makefile'),
      'all:\n\tgcc -o app main.c\nclean:\n\trm -rf build\ndeploy: push\n\techo done\npush:\n\tgit push --force origin main\n',
    );
    mkdirSync(join(dir, 'web'));
    writeFileSync(join(dir, 'web', 'package.json'), JSON.stringify({ scripts: { build: 'vite build', wipe: 'rm -rf ~' } }));
    // a package.json past what the hook reads: unknown, judged by the command's own words
    mkdirSync(join(dir, 'big'));
    writeFileSync(join(dir, 'big', 'package.json'), JSON.stringify({ scripts: { release: 'npm publish' }, pad: 'x'.repeat(300 * 1024) }));
  });
  after(() => {
    cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  const denial = (command: string) => bashDenial(dir, command, { HOME: home });

  for (const command of ['npm run build', 'npm test', 'make', 'make clean', 'npm --prefix web run build', 'npm --prefix big run release']) {
    test(`${command} goes ahead`, async () => {
      assert.equal(await denial(command), null);
    });
  }
  const denied: Array<[string, RegExp]> = [
    ['npm run release', /package\.json scripts\.release runs `npm publish`/],
    ['npm run deploy', /package\.json scripts\.release runs `npm publish`/],
    ['make deploy', /Makefile target push runs `git push --force origin main`/],
    ['npm --prefix web run wipe', /web\/package\.json scripts\.wipe runs `rm -rf ~`/],
  ];
  for (const [command, reason] of denied) {
    test(`${command} is denied, naming the script`, async () => {
      assert.match((await denial(command)) ?? 'allowed', reason);
    });
  }
});
