import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { initCore } from '../core.ts';
import { axme, axmeOk, CLI, cleanEnv, git, tempRepo } from '../helpers.ts';
import { cliText } from '../store-fixture.ts';

interface Check {
  name: string;
  status: string;
  detail: string;
  fix?: string;
}
const checksOf = (stdout: string): Check[] => (JSON.parse(stdout) as { checks: Check[] }).checks;

describe('axme init --local and axme doctor: machine-specific choices stay out of the shared files', () => {
  let dir: string;
  let cleanup: () => void;
  before(() => ({ dir, cleanup } = tempRepo({ commit: true })));
  after(() => cleanup());

  test("--local puts this machine's axme into .claude/settings.local.json only, keeping what is there", async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, '.claude'), { recursive: true });
    writeFileSync(join(dir, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { allow: ['Bash(make)'] }, env: { EDITOR: 'vi' } }));
    await axmeOk(dir, ['init', '--local', '--no-scan']);
    const local = JSON.parse(readFileSync(join(dir, '.claude', 'settings.local.json'), 'utf8'));
    assert.deepEqual(local.permissions, { allow: ['Bash(make)'] });
    assert.equal(local.env.EDITOR, 'vi');
    assert.equal(local.env.AXME_BIN, CLI);
    assert.equal(local.env.AXME_NODE, process.execPath);
    for (const f of ['.claude/settings.json', '.mcp.json']) assert.ok(!readFileSync(join(dir, f), 'utf8').includes(CLI), `${f} holds no path`);
    // the portable command runs the local choice: AXME_BIN and AXME_NODE as Claude Code would set them from that file
    const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
    const command = settings.hooks.PreToolUse.at(-1).hooks[0].command as string;
    const env = { PATH: '/usr/bin:/bin', HOME: dir, GIT_CONFIG_GLOBAL: '/dev/null', ...local.env };
    const r = spawnSync('/bin/sh', ['-c', command], {
      cwd: join(dir),
      env,
      input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: dir }),
      encoding: 'utf8',
    });
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny', r.stderr);
  });

  test('axme as a devDependency is found from a subfolder, with no AXME_BIN, no CLAUDE_PROJECT_DIR and none on PATH', async () => {
    const { mkdirSync, symlinkSync } = await import('node:fs');
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(CLI, join(dir, 'node_modules', '.bin', 'axme'));
    mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
    const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
    const command = settings.hooks.PreToolUse.at(-1).hooks[0].command as string;
    const env = { PATH: `${join(process.execPath, '..')}:/usr/bin:/bin`, HOME: dir, GIT_CONFIG_GLOBAL: '/dev/null' };
    const r = spawnSync('/bin/sh', ['-c', command], {
      cwd: join(dir, 'src', 'deep'),
      env,
      input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: dir }),
      encoding: 'utf8',
    });
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, 'deny', r.stderr);
    const { rmSync } = await import('node:fs');
    rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
  });

  test('doctor says which axme the commands find, checks the git hooks and the MCP entry, and changes nothing', async () => {
    const sessions = () => (existsSync(join(dir, '.git', 'axme', 'sessions')) ? readdirSync(join(dir, '.git', 'axme', 'sessions')).length : 0);
    const before = sessions();
    const r = await axmeIn(dir, ['doctor', '--json']);
    assert.equal(r.code, 0, r.stdout);
    const checks = checksOf(r.stdout);
    const found = checks.find((c) => c.name === 'axme found')!;
    assert.match(found.detail, new RegExp(`^${CLI.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(AXME_BIN\\), version `));
    assert.match(checks.find((c) => c.name === 'mcp claude-code')!.detail, /^\.mcp\.json starts .*axme\.cjs serve$/);
    assert.equal(sessions(), before, 'the live hook check opened no session');
    // a machine without axme (and so without a launcher its own init left): the doctor says so, with the fix
    rmSync(join(dir, '.git', 'axme', 'launcher'), { force: true });
    const bare = await axme(dir, ['doctor', '--json'], { env: { AXME_BIN: '', AXME_NODE: '', PATH: '/usr/bin:/bin' } });
    assert.equal(bare.code, 1);
    const missing = checksOf(bare.stdout).find((c) => c.name === 'axme found')!;
    assert.equal(missing.status, 'problem');
    assert.match(missing.fix!, /npm i -D <the axme package/);
  });

  test('what an earlier version left that names a file missing here is a problem, not "ok" (one doctor run reads both)', async (t) => {
    const mcpPath = join(dir, '.mcp.json');
    const saved = readFileSync(mcpPath, 'utf8');
    writeFileSync(mcpPath, JSON.stringify({ mcpServers: { axme: { command: process.execPath, args: ['/old/checkout/dist/axme.cjs', 'serve'] } } }));
    writeFileSync(
      join(dir, '.git', 'hooks', 'commit-msg'),
      `#!/bin/sh\n# axme-hook: installed by axme init; axme uninstall removes it\n${process.execPath} /old/checkout/dist/axme.cjs git-hook commit-msg "$@"\n`,
    );
    const checks = checksOf((await axmeIn(dir, ['doctor', '--json'])).stdout);
    writeFileSync(mcpPath, saved);

    await t.test('an .mcp.json entry of an earlier version', () => {
      const mcp = checks.find((c) => c.name === 'mcp claude-code')!;
      assert.equal(mcp.status, 'problem');
      assert.match(mcp.detail, /starts \/old\/checkout\/dist\/axme\.cjs, which does not exist on this machine/);
    });

    await t.test('git hooks of an earlier version; init rewrites them', async () => {
      const hooks = checks.find((c) => c.name === 'git hooks')!;
      assert.equal(hooks.status, 'problem');
      assert.match(hooks.detail, /commit-msg: \/old\/checkout\/dist\/axme\.cjs/);
      await initCore(dir, { claude: true, gitHooks: true });
      assert.equal(checksOf((await axmeIn(dir, ['doctor', '--json'])).stdout).find((c) => c.name === 'git hooks')!.status, 'ok');
    });
  });

  test('git hooks declined with --no-git-hooks are a choice: doctor stays ok; installing them again clears it', async () => {
    const other = tempRepo({ commit: true });
    try {
      await initCore(other.dir, { claude: true });
      const r = await axmeIn(other.dir, ['doctor', '--json']);
      const hooks = checksOf(r.stdout).find((c) => c.name === 'git hooks')!;
      assert.equal(hooks.status, 'ok', hooks.detail);
      assert.match(hooks.detail, /as chosen \(axme init --no-git-hooks\)/);
      assert.equal(r.code, 0, r.stdout);
      await initCore(other.dir, { claude: true, gitHooks: true });
      assert.equal(spawnSync('git', ['config', '--get', 'axme.gitHooks'], { cwd: other.dir, env: cleanEnv() }).status, 1, 'the choice is cleared');
    } finally {
      other.cleanup();
    }
  });

  test('the git hooks of a machine without axme let people commit and say how to install it', () => {
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'with axme']);
    // no axme anywhere: not on PATH, not in node_modules, and not where this clone's init recorded it (the clone's hooks came by husky)
    rmSync(join(dir, '.git', 'axme', 'launcher'), { force: true });
    const r = spawnSync('git', ['commit', '-q', '--allow-empty', '-m', 'no axme on this machine'], {
      cwd: dir,
      env: { ...cleanEnv(), AXME_BIN: '', AXME_NODE: '', PATH: '/usr/bin:/bin', CLAUDECODE: '1' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /axme is not installed on this machine \(npm i -D <the axme package: .*\): this commit was not checked by axme/);
  });
});

describe('axme doctor and the remote: fetch settings and a store in step, read without the network', () => {
  test('missing refspecs (a problem, with its fix); not shared yet and in step (state)', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(join(tmpdir(), 'axme-doctor-remote-'));
    try {
      const remote = join(root, 'remote.git');
      git(root, ['init', '-q', '--bare', remote]);
      const dir = join(root, 'work');
      git(root, ['clone', '-q', remote, dir]);
      await initCore(dir, { claude: true, gitHooks: true, fetchConfig: false });
      // one doctor run per state of the store, its checks read by name
      const doctorRun = async () => {
        const checks = checksOf((await axmeIn(dir, ['doctor', '--json'])).stdout);
        return (name: string) => checks.find((c) => c.name === name)!;
      };
      const unsynced = await doctorRun();
      const fetch = unsynced('remote fetch');
      assert.equal(fetch.status, 'missing');
      assert.match(fetch.fix!, /axme init/);
      // where the store stands is state: said, not failed
      const before = unsynced('in step');
      assert.equal(before.status, 'ok');
      assert.match(before.detail, /origin has none of this store's knowledge yet .*: axme sync shares it/);
      await axmeInOk(dir, ['sync']);
      const synced = await doctorRun();
      assert.equal(synced('remote fetch').status, 'ok');
      assert.equal(synced('in step').status, 'ok');
      await cliText(dir, decisionAdd, { title: 'Not shared yet', decision: 'Saved after the last sync.' });
      const ahead = (await doctorRun())('in step');
      assert.equal(ahead.status, 'ok');
      assert.match(ahead.detail, /1 commit ahead of origin \(not shared yet\) \(as of the last fetch from origin\): axme sync shares it/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("a teammate's fresh clone, before axme init: origin's knowledge not fetched yet is not called none", async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(join(tmpdir(), 'axme-doctor-clone-'));
    try {
      const remote = join(root, 'remote.git');
      git(root, ['init', '-q', '--bare', remote]);
      const first = join(root, 'first');
      git(root, ['clone', '-q', remote, first]);
      await initCore(first, { claude: true, gitHooks: false, fetchConfig: false });
      await cliText(first, decisionAdd, { title: 'Shared', decision: 'On origin before the teammate clones.' });
      await axmeInOk(first, ['sync']);
      const second = join(root, 'second');
      git(root, ['clone', '-q', remote, second]);
      const checks = checksOf((await axmeIn(second, ['doctor', '--json'])).stdout);
      const step = checks.find((c) => c.name === 'in step')!;
      assert.doesNotMatch(step.detail, /no knowledge .*on origin/, step.detail);
      assert.match(step.detail, /not fetched/, step.detail);
      assert.match(step.detail, /axme init/, step.detail);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
