/**
 * `axme init --no-git-hooks` connects the agent clients as `axme init` does: their commands find
 * axme through the launcher init records in .git/axme/launcher (with no AXME_BIN, no
 * node_modules/.bin/axme and none on PATH), so the safety hook answers instead of blocking every
 * call with "axme is not installed". Leaving out the git hooks leaves out only the git hooks.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeOk, tempRepo } from '../helpers.ts';

describe('axme init --no-git-hooks', () => {
  let dir: string;
  let cleanup: () => void;
  before(() => ({ dir, cleanup } = tempRepo({ commit: true })));
  after(() => cleanup());

  test("records the launcher: Claude Code's PreToolUse command answers with no axme on PATH", async () => {
    await axmeOk(dir, ['init', '--no-git-hooks', '--no-scan']);
    assert.ok(existsSync(join(dir, '.git', 'axme', 'launcher')), 'the launcher is recorded');
    assert.ok(
      !existsSync(join(dir, '.git', 'hooks', 'commit-msg')) || !readFileSync(join(dir, '.git', 'hooks', 'commit-msg'), 'utf8').includes('axme'),
      'no git hook',
    );
    const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
    const command = settings.hooks.PreToolUse.at(-1).hooks[0].command as string;
    const r = spawnSync('/bin/sh', ['-c', command], {
      cwd: dir,
      env: { PATH: '/usr/bin:/bin', HOME: dir, GIT_CONFIG_GLOBAL: '/dev/null' },
      input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la' }, cwd: dir, session_id: 'l-1' }),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, `the hook ran axme: ${r.stderr}`);
    assert.doesNotMatch(r.stdout, /"permissionDecision":"deny"/, r.stdout);
  });
});
