import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeOk, cleanEnv, git, tempRepo } from '../helpers.ts';
import { hookInProcess } from './hook-in-process.ts';

// A project with no remote has no <owner>/<name> to copy: the guard's reason for a marker without
// repo= says what to write then, and what it says is accepted by the real commit-msg hook.

describe('the guard says what repo= to write when the project has no remote', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await axmeOk(dir, ['init']);
    assert.equal(git(dir, ['remote']).trim(), '', 'no remote');
  });
  after(() => cleanup());

  test('git commit … #!axme pr=none: denied, the reason names a repo= for a project without a remote, and that marker commits', async () => {
    const command = 'git commit -q -m "Add notes" #!axme pr=none';
    const input = JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', cwd: dir, tool_name: 'Bash', tool_input: { command } });
    const hook = await hookInProcess('pre-tool-use', { cwd: dir, input, env: { CLAUDECODE: '1' } });
    const reason: string = JSON.parse(hook.stdout).hookSpecificOutput.permissionDecisionReason;
    const m = /no remote[^]*?(repo=[A-Za-z0-9][\w.-]*\/[\w.-]+)/.exec(reason);
    assert.ok(m, `the reason says what to write without a remote: ${reason}`);
    writeFileSync(join(dir, 'notes.txt'), 'n\n');
    git(dir, ['add', 'notes.txt']);
    const fixed = `git commit -q -m "Add notes" #!axme pr=none ${m[1]}`;
    const again = await hookInProcess('pre-tool-use', {
      cwd: dir,
      input: JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', cwd: dir, tool_name: 'Bash', tool_input: { command: fixed } }),
      env: { CLAUDECODE: '1' },
    });
    assert.doesNotMatch(again.stdout, /"deny"/, again.stdout);
    const r = spawnSync('bash', ['-c', fixed], { cwd: dir, env: cleanEnv({ CLAUDECODE: '1' }), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(git(dir, ['log', '-1', '--format=%B']), new RegExp(`Axme-Repo: ${m[1]!.slice(5)}`));
  });

  test('git commit with no marker at all: denied, the reason shows the whole marker and what repo= takes without a remote', async () => {
    const command = 'git commit -q -m "Add more notes"';
    const input = JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', cwd: dir, tool_name: 'Bash', tool_input: { command } });
    const hook = await hookInProcess('pre-tool-use', { cwd: dir, input, env: { CLAUDECODE: '1' } });
    const reason: string = JSON.parse(hook.stdout).hookSpecificOutput.permissionDecisionReason;
    assert.match(reason, /#!axme pr=<N\|none> repo=<owner>\/<name>/);
    assert.match(reason, /no remote[^]*?repo=[A-Za-z0-9][\w.-]*\/[\w.-]+/, reason);
  });
});
