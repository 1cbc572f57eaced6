import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uninstallGitHooks } from '../../src/setup/git-hooks.ts';
import { rejectsWith } from '../core.ts';
import { cleanEnv, tempRepo } from '../helpers.ts';

test("axme uninstall's removal of the git hooks is a person's: an agent gets NOT_ALLOWED", async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    await rejectsWith(uninstallGitHooks({ cwd: dir, env: cleanEnv({ CLAUDECODE: '1' }) }, dir), 'NOT_ALLOWED', /axme uninstall/);
    assert.deepEqual(await uninstallGitHooks({ cwd: dir, env: cleanEnv() }, dir), []);
  } finally {
    cleanup();
  }
});
