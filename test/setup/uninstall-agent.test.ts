import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { uninstallGitHooks } from '../../src/setup/git-hooks.ts';
import { axmeIn } from '../cli-in-process.ts';
import { rejectsWith } from '../core.ts';
import { axmeOk, cleanEnv, tempRepo } from '../helpers.ts';

test("axme uninstall's removal of the git hooks is a person's: an agent gets NOT_ALLOWED", async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    await rejectsWith(uninstallGitHooks({ cwd: dir, env: cleanEnv({ CLAUDECODE: '1' }) }, dir), 'NOT_ALLOWED', /axme uninstall/);
    assert.deepEqual(await uninstallGitHooks({ cwd: dir, env: cleanEnv() }, dir), []);
  } finally {
    cleanup();
  }
});

test("axme uninstall --agent's removal of a client's hooks is a person's too: an agent gets NOT_ALLOWED, nothing changes", async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    await axmeOk(dir, ['init', '--agent', 'codex', '--no-scan', '--no-git-hooks']);
    const before = snapshot(dir);
    const refused = await axmeIn(dir, ['uninstall', '--agent', 'codex'], { env: { CLAUDECODE: '1' } });
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /only a person may do: ask the user to run `axme uninstall --agent codex` themselves/);
    assert.deepEqual(snapshot(dir), before, 'no file changed');
    const json = await axmeIn(dir, ['uninstall', '--agent', 'codex', '--json'], { env: { AXME_AGENT: '1' } });
    assert.equal(json.code, 1);
    assert.equal(JSON.parse(json.stderr).error.code, 'NOT_ALLOWED');
    // AXME_ACTOR decides first, by the same rule as every command: a bad value is a usage error
    const robot = await axmeIn(dir, ['uninstall', '--agent', 'codex'], { env: { AXME_ACTOR: 'robot' } });
    assert.equal(robot.code, 2, robot.stderr);
    assert.match(robot.stderr, /AXME_ACTOR=robot is not an actor/);
    assert.deepEqual(snapshot(dir), before, 'no file changed');
    // a person removes them
    const done = await axmeIn(dir, ['uninstall', '--agent', 'codex', '--json']);
    assert.equal(done.code, 0, done.stderr);
    assert.ok(JSON.parse(done.stdout).clients.some((c: { parts: string[] }) => c.parts.includes('hooks')));
  } finally {
    cleanup();
  }
});

test('one rule tells a person from an agent: AXME_ACTOR first (a bad value is an input error everywhere), else the agent variables', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    await rejectsWith(uninstallGitHooks({ cwd: dir, env: cleanEnv({ AXME_ACTOR: 'robot' }) }, dir), 'INVALID_INPUT', /AXME_ACTOR=robot is not an actor/);
    assert.deepEqual(await uninstallGitHooks({ cwd: dir, env: cleanEnv({ CLAUDECODE: '1', AXME_ACTOR: 'human' }) }, dir), []);
    await rejectsWith(uninstallGitHooks({ cwd: dir, env: cleanEnv({ AXME_ACTOR: 'sync' }) }, dir), 'NOT_ALLOWED', /axme uninstall/);
  } finally {
    cleanup();
  }
});

/** Every file of the working tree (not .git) with its text. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[p] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

test("axme uninstall --agent claude-code takes out axme's Claude Code hooks and CLAUDE.md section, and nothing of the user's", async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    mkdirSync(join(dir, '.claude'), { recursive: true });
    const mine = { type: 'command', command: './scripts/check.sh', timeout: 5 };
    writeFileSync(
      join(dir, '.claude/settings.json'),
      `${JSON.stringify({ permissions: { allow: ['Bash(ls)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [mine] }], Stop: [{ hooks: [mine] }] } }, null, 2)}\n`,
    );
    writeFileSync(join(dir, 'CLAUDE.md'), '# My project\n\nUse tabs.\n');
    await axmeOk(dir, ['init', '--no-scan', '--no-git-hooks']);
    assert.match(readFileSync(join(dir, '.claude/settings.json'), 'utf8'), /axme/, 'init wrote its hooks');
    const dry = await axmeIn(dir, ['uninstall', '--agent', 'claude-code', '--dry-run', '--json']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(
      JSON.parse(dry.stdout)
        .clients.map((c: { parts: string[] }) => c.parts)
        .flat()
        .sort(),
      ['hooks', 'instructions', 'server'],
    );
    const done = await axmeIn(dir, ['uninstall', '--agent', 'claude-code', '--json']);
    assert.equal(done.code, 0, done.stderr);
    const settings = JSON.parse(readFileSync(join(dir, '.claude/settings.json'), 'utf8'));
    assert.deepEqual(settings, {
      permissions: { allow: ['Bash(ls)'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [mine] }], Stop: [{ hooks: [mine] }] },
    });
    assert.equal(readFileSync(join(dir, 'CLAUDE.md'), 'utf8'), '# My project\n\nUse tabs.\n');
    assert.equal(existsSync(join(dir, '.mcp.json')), false);
    // a second run finds nothing of axme's left
    const again = await axmeIn(dir, ['uninstall', '--agent', 'claude-code', '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.ok(JSON.parse(again.stdout).clients.every((c: { action: string }) => c.action === 'unchanged'));
  } finally {
    cleanup();
  }
});

test("a settings file that held only axme's Claude Code hooks goes with them; an agent may not take them", async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    await axmeOk(dir, ['init', '--no-scan', '--no-git-hooks']);
    const before = snapshot(dir);
    const refused = await axmeIn(dir, ['uninstall', '--agent', 'claude-code'], { env: { CLAUDECODE: '1' } });
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /ask the user to run `axme uninstall --agent claude-code`/);
    assert.deepEqual(snapshot(dir), before, 'no file changed');
    const done = await axmeIn(dir, ['uninstall', '--agent', 'claude-code']);
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /claude-code: Removed \.claude\/settings\.json/);
    assert.equal(existsSync(join(dir, '.claude/settings.json')), false);
    assert.equal(existsSync(join(dir, 'CLAUDE.md')), false);
  } finally {
    cleanup();
  }
});
