import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { doctor } from '../../src/setup/doctor.ts';
import { installScriptsCheck } from '../../src/setup/doctor-install-scripts.ts';
import { cleanEnv, openTestKb, tempRepo } from '../helpers.ts';

/**
 * `axme doctor`'s "install scripts" check: what the guard says of `npm install` in this checkout,
 * read from its real package.json — said up front, with the script that makes it denied and what
 * to do, before an agent's `npm install` is.
 */
describe('axme doctor: install scripts', () => {
  test('an install script the guard denies (git config core.hooksPath hooks) is a problem naming the script and what to do', async () => {
    const { dir, cleanup } = tempRepo();
    try {
      const env = cleanEnv({ HOME: join(dir, '.home') });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', scripts: { prepare: 'git config core.hooksPath hooks', test: 'node --test' } }));
      const c = await installScriptsCheck({ root: dir, env });
      assert.equal(c.name, 'install scripts');
      assert.equal(c.status, 'problem');
      assert.match(c.detail, /npm install is denied in agent sessions/);
      assert.match(c.detail, /package\.json scripts\.prepare runs `git config core\.hooksPath hooks`/);
      assert.match(c.fix ?? '', /--ignore-scripts/);
    } finally {
      cleanup();
    }
  });

  test('harmless install scripts, or none, are ok', async () => {
    const { dir, cleanup } = tempRepo();
    try {
      const env = cleanEnv({ HOME: join(dir, '.home') });
      assert.deepEqual(await installScriptsCheck({ root: dir, env }), {
        name: 'install scripts',
        status: 'ok',
        detail: 'no package.json here: npm install runs no script of the project',
      });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', scripts: { postinstall: 'node scripts/setup.js', prepare: 'tsc' } }));
      const c = await installScriptsCheck({ root: dir, env });
      assert.equal(c.status, 'ok', c.detail);
      assert.match(c.detail, /postinstall, prepare: the guard lets npm install run them/);
    } finally {
      cleanup();
    }
  });

  test('doctor runs it, with the store rules in force', async () => {
    const { dir, cleanup } = tempRepo();
    const env = cleanEnv({ HOME: join(dir, '.home') });
    const kb = await openTestKb(dir, { env });
    try {
      await initStore(kb);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', scripts: { postinstall: 'npm publish' } }));
      const c = (await doctor({ cwd: dir, env })).checks.find((x) => x.name === 'install scripts');
      assert.equal(c?.status, 'problem');
      assert.match(c!.detail, /package\.json scripts\.postinstall runs `npm publish`/);
    } finally {
      await closeKnowledgeBase(kb);
      cleanup();
    }
  });
});
