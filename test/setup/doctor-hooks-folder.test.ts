import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { axmeIn } from '../cli-in-process.ts';
import { axmeOk, git, tempRepo } from '../helpers.ts';

/**
 * `axme doctor` checks that axme's git hooks sit where git runs them: core.hooksPath (set after
 * `axme init`, by husky's install or by hand) moves that folder, and hooks left in the old one
 * never run. Real repositories, the real git CLI.
 */

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

async function repo(husky = false) {
  const { dir, cleanup } = tempRepo({ commit: true });
  cleanups.push(cleanup);
  if (husky) {
    mkdirSync(join(dir, '.husky', '_'), { recursive: true });
    git(dir, ['config', 'core.hooksPath', '.husky/_']);
  }
  await axmeOk(dir, ['init', '--no-claude', '--no-scan']);
  return dir;
}

async function gitHooksCheck(dir: string): Promise<{ status: string; detail: string; fix?: string }> {
  const r = await axmeIn(dir, ['doctor', '--json']);
  const check = JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name === 'git hooks');
  assert.ok(check, r.stdout);
  return check;
}

describe('axme doctor: the git hooks sit where git runs them', () => {
  test('installed in the hooks folder: ok', async () => {
    const dir = await repo();
    assert.equal((await gitHooksCheck(dir)).status, 'ok');
  });

  test('husky activated after init (core.hooksPath moved): a problem naming both folders; the fix is axme init', async () => {
    const dir = await repo();
    mkdirSync(join(dir, '.husky', '_'), { recursive: true });
    git(dir, ['config', 'core.hooksPath', '.husky/_']);
    const c = await gitHooksCheck(dir);
    assert.equal(c.status, 'problem', JSON.stringify(c));
    assert.match(c.detail, /\.git\/hooks/);
    assert.match(c.detail, /core\.hooksPath/);
    assert.match(c.detail, /git does not run them/);
    assert.match(c.fix ?? '', /axme init/);
  });

  test("husky's lines without husky's stubs in .husky/_: git runs none of them; the fix is husky's install", async () => {
    const dir = await repo(true);
    const c = await gitHooksCheck(dir);
    assert.equal(c.status, 'problem', JSON.stringify(c));
    assert.match(c.detail, /\.husky\/_/);
    assert.match(c.fix ?? '', /npx husky/);
    // with husky's stubs (what `npx husky` writes: each calls .husky/<hook>) all is well
    for (const hook of ['commit-msg', 'pre-push', 'post-commit', 'post-merge', 'post-rewrite'])
      writeFileSync(join(dir, '.husky', '_', hook), '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n', { mode: 0o755 });
    assert.equal((await gitHooksCheck(dir)).status, 'ok');
  });

  test('core.hooksPath moved to a folder outside the repository: the fix says how to install there knowingly', async () => {
    const dir = await repo();
    const shared = mkdtempSync(join(tmpdir(), 'axme-shared-hooks-'));
    cleanups.push(() => rmSync(shared, { recursive: true, force: true }));
    git(dir, ['config', 'core.hooksPath', shared]);
    const c = await gitHooksCheck(dir);
    assert.equal(c.status, 'problem', JSON.stringify(c));
    assert.match(c.detail, /git does not run them/);
    assert.match(c.fix ?? '', /--hooks-path/);
  });
});
