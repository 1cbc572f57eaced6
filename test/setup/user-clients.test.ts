import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { UserPlace } from '../../src/setup/clients/adapter.ts';
import { adapterOf } from '../../src/setup/clients/adapters.ts';
import { applyClients, parseAgents, planClientRemoval, planClients } from '../../src/setup/clients/index.ts';
import { userServerName } from '../../src/setup/clients/user-level.ts';

/** Where a user-level client's file is on `ctx`'s OS (its adapter's `user.path`). */
const userConfigPath = (client: 'windsurf' | 'claude-desktop', ctx: UserPlace) => adapterOf(client).user!.path(ctx);

import { axme, axmeOk, CLI, cleanEnv, git, tempRepo } from '../helpers.ts';

const INIT = ['init', '--no-git-hooks', '--no-scan', '--no-fetch-config'];
const SELF = { execPath: process.execPath, script: CLI };

/** Where each client's file is on each OS, from the variables given. */
const PATHS = [
  { client: 'windsurf', platform: 'linux', parts: ['.codeium', 'windsurf', 'mcp_config.json'] },
  { client: 'windsurf', platform: 'darwin', parts: ['.codeium', 'windsurf', 'mcp_config.json'] },
  { client: 'claude-desktop', platform: 'linux', parts: ['.config', 'Claude', 'claude_desktop_config.json'] },
  { client: 'claude-desktop', platform: 'darwin', parts: ['Library', 'Application Support', 'Claude', 'claude_desktop_config.json'] },
] as const;

describe('--user: Windsurf and Claude Desktop, in a file of the user', () => {
  let dir: string;
  let cleanup: () => void;
  let home: string;
  before(() => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    home = mkdtempSync(join(tmpdir(), 'axme-home-'));
  });
  after(() => {
    cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  test('the file of each client on Windows: %USERPROFILE% for Windsurf, %APPDATA% for Claude Desktop; an unset variable is refused', () => {
    const env = { USERPROFILE: 'C:\\Users\\me', APPDATA: 'C:\\Users\\me\\AppData\\Roaming', HOME: '/not/used' };
    assert.equal(userConfigPath('windsurf', { env, platform: 'win32' }), 'C:\\Users\\me\\.codeium\\windsurf\\mcp_config.json');
    assert.equal(userConfigPath('claude-desktop', { env, platform: 'win32' }), 'C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
    assert.throws(() => userConfigPath('claude-desktop', { env: { USERPROFILE: 'C:\\Users\\me' }, platform: 'win32' }), /APPDATA is not set/);
    assert.throws(() => userConfigPath('windsurf', { env: {}, platform: 'linux' }), /HOME is not set/);
  });

  for (const p of PATHS) {
    test(`${p.client} on ${p.platform}: ~/${p.parts.join('/')}, merged, idempotent, removed exactly, its folders pruned`, () => {
      const env = { HOME: join(home, p.platform) };
      const at = join(env.HOME, ...p.parts);
      assert.equal(userConfigPath(p.client, { env, platform: p.platform }), at);
      const ctx = { env, platform: p.platform, self: SELF };
      const selection = parseAgents(p.client, { user: true });
      const created = applyClients(planClients(dir, selection, ctx)).filter((c) => c.path === at);
      assert.deepEqual(
        created.map((c) => c.action),
        ['created'],
      );
      const name = userServerName(dir);
      assert.equal(name, `axme-${basename(dir).toLowerCase()}`);
      const config = JSON.parse(readFileSync(at, 'utf8'));
      assert.deepEqual(Object.keys(config.mcpServers), [name]);
      assert.deepEqual(config.mcpServers[name].args.slice(1), ['-C', dir, 'serve'], 'it starts axme in this project');
      // the user's other servers and settings, then init again: kept, and a second run changes no byte
      const mine = { globalShortcut: 'Ctrl+Space', mcpServers: { fs: { command: 'npx', args: ['-y', 'fs-mcp'] } } };
      writeFileSync(at, `${JSON.stringify(mine, null, 2)}\n`);
      applyClients(planClients(dir, selection, ctx));
      const merged = readFileSync(at, 'utf8');
      assert.deepEqual(JSON.parse(merged).mcpServers.fs, mine.mcpServers.fs);
      assert.equal(JSON.parse(merged).globalShortcut, 'Ctrl+Space');
      assert.deepEqual(
        applyClients(planClients(dir, selection, ctx))
          .filter((c) => c.path === at)
          .map((c) => c.action),
        ['unchanged'],
      );
      assert.equal(readFileSync(at, 'utf8'), merged);
      applyClients(planClientRemoval(dir, selection, ctx));
      assert.equal(readFileSync(at, 'utf8'), `${JSON.stringify(mine, null, 2)}\n`, 'uninstall removes exactly that entry');
      // a file holding nothing else goes, with the client's folders axme made
      rmSync(at);
      rmSync(dirname(at), { recursive: true });
      applyClients(planClients(dir, selection, ctx));
      applyClients(planClientRemoval(dir, selection, ctx));
      assert.ok(!existsSync(at) && !existsSync(dirname(at)), 'the file and the folder axme created are gone');
      assert.ok(existsSync(env.HOME), 'never the home folder');
    });
  }

  test('axme init --user (the built CLI, this OS): the entry starts axme in the project from anywhere; dry run writes nothing; uninstall --user removes exactly it', async () => {
    if (process.platform === 'win32') return;
    const env = { HOME: join(home, 'cli') };
    const windsurf = join(env.HOME, '.codeium', 'windsurf', 'mcp_config.json');
    const desktop =
      process.platform === 'darwin'
        ? join(env.HOME, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
        : join(env.HOME, '.config', 'Claude', 'claude_desktop_config.json');
    mkdirSync(dirname(windsurf), { recursive: true });
    const before = '{\n  "mcpServers": {\n    "github": { "command": "gh-mcp" }\n  }\n}\n';
    writeFileSync(windsurf, before);

    const dry = await axme(dir, [...INIT, '--agent', 'windsurf,claude-desktop', '--user', '--dry-run'], { env });
    assert.equal(dry.code, 0, dry.stderr);
    assert.ok(dry.stdout.includes(`windsurf: Would update ${windsurf}`), dry.stdout);
    assert.ok(dry.stdout.includes(`claude-desktop: Would create ${desktop}`), dry.stdout);
    assert.equal(readFileSync(windsurf, 'utf8'), before);
    assert.ok(!existsSync(desktop) && !existsSync(join(dir, '.windsurfrules')), 'a dry run writes nothing');

    const r = await axmeOk(dir, [...INIT, '--agent', 'windsurf,claude-desktop', '--user', '--json'], { env });
    assert.deepEqual(
      r.clients.map((x: { client: string; path: string; action: string }) => `${x.client}:${x.path}:${x.action}`),
      [`windsurf:${join(dir, '.windsurfrules')}:created`, `windsurf:${windsurf}:updated`, `claude-desktop:${desktop}:created`],
    );
    const name = userServerName(dir);
    const entry = JSON.parse(readFileSync(desktop, 'utf8')).mcpServers[name];
    assert.deepEqual(JSON.parse(readFileSync(windsurf, 'utf8')).mcpServers[name], entry);
    assert.ok(entry.command.startsWith('/') && entry.args[0].startsWith('/'), 'absolute paths');
    // started as Claude Desktop does: no shell, not in the project
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const client = new Client({ name: 'user-test', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: entry.command, args: entry.args, cwd: tmpdir(), env: cleanEnv() as Record<string, string>, stderr: 'pipe' }),
    );
    try {
      const status = await client.callTool({ name: 'axme_status', arguments: {} });
      assert.ok(JSON.stringify(status.structuredContent).includes(join(dir, '.git')), 'the server serves this project');
    } finally {
      await client.close();
    }
    const text = readFileSync(windsurf, 'utf8');
    await axmeOk(dir, [...INIT, '--agent', 'windsurf,claude-desktop', '--user'], { env });
    assert.equal(readFileSync(windsurf, 'utf8'), text, 'a second run changes no byte');

    // another project with the same folder name does not take the entry over
    const other = join(mkdtempSync(join(tmpdir(), 'axme-other-')), basename(dir));
    try {
      mkdirSync(other);
      git(other, ['init', '-q']);
      const clash = await axme(other, [...INIT, '--agent', 'claude-desktop', '--user'], { env });
      assert.equal(clash.code, 2);
      assert.match(clash.stderr, new RegExp(`the server "${name}" already starts axme in .*another project with the same folder name`));
      assert.equal((await axme(other, ['log'])).code, 2, 'refused before the store was created');
    } finally {
      rmSync(dirname(other), { recursive: true, force: true });
    }

    const un = await axme(dir, ['uninstall', '--agent', 'windsurf,claude-desktop', '--user'], { env });
    assert.equal(un.code, 0, un.stderr);
    assert.ok(un.stdout.includes(`windsurf: Removed the axme server from ${windsurf}`), un.stdout);
    assert.equal(
      readFileSync(windsurf, 'utf8'),
      before.replace('{ "command": "gh-mcp" }', '{\n      "command": "gh-mcp"\n    }'),
      'exactly the entry goes (the rest as JSON writes it)',
    );
    assert.ok(!existsSync(desktop) && !existsSync(dirname(desktop)), 'the file and folder axme created are gone');
    assert.ok(!existsSync(join(dir, '.windsurfrules')));
  });
});

describe("--user: a server of the same name that is not axme's", () => {
  test('is neither taken over by init nor removed by uninstall', () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    const home = mkdtempSync(join(tmpdir(), 'axme-home-'));
    try {
      const env = { HOME: home };
      const ctx = { env, platform: 'linux' as const, self: SELF };
      const at = userConfigPath('windsurf', { env, platform: 'linux' });
      mkdirSync(dirname(at), { recursive: true });
      const theirs = `${JSON.stringify({ mcpServers: { [userServerName(dir)]: { command: 'my-own-thing' } } }, null, 2)}\n`;
      writeFileSync(at, theirs);
      assert.throws(() => applyClients(planClients(dir, parseAgents('windsurf', { user: true }), ctx)), /is already there and is not axme's/);
      assert.equal(readFileSync(at, 'utf8'), theirs);
      applyClients(planClientRemoval(dir, parseAgents('windsurf', { user: true }), ctx));
      assert.equal(readFileSync(at, 'utf8'), theirs);
    } finally {
      cleanup();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
