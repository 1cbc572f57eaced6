import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ADAPTERS, adapterOf } from '../../src/setup/clients/adapters.ts';
import { remoteOf } from '../../src/setup/clients/remote.ts';
import { axme, axmeOk, tempRepo } from '../helpers.ts';

/** `axme init --agent … --mcp-url … --mcp-token-env …`: clients pointed at a team's `axme serve --http`. */

const URL = 'https://axme.example.com/mcp';

test('init --mcp-url writes HTTP server entries with the token from the environment (Claude Code, Cursor, VS Code, Gemini, Codex)', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    // the user's Codex file, with comments and a table of their own around ours
    mkdirSync(join(dir, '.codex'));
    const codexPath = join(dir, '.codex', 'config.toml');
    writeFileSync(codexPath, '# team settings\nmodel = "o4"  # keep\n\n[mcp_servers.other]\ncommand = "other"\n');
    // a local stdio entry first: becoming remote drops its command
    await axmeOk(dir, ['init', '--agent', 'claude-code,cursor,vscode,codex', '--no-git-hooks', '--no-scan']);
    assert.match(readFileSync(codexPath, 'utf8'), /\[mcp_servers\.axme\]\ncommand = /);
    await axmeOk(dir, ['init', '--agent', 'claude-code,cursor,vscode,gemini,codex', '--no-git-hooks', '--no-scan', '--mcp-url', URL, '--mcp-token-env', 'AXME_TOKEN']);
    const claude = JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')).mcpServers.axme;
    assert.deepEqual(claude, { type: 'http', url: URL, headers: { Authorization: 'Bearer ${AXME_TOKEN}' } });
    const cursor = JSON.parse(readFileSync(join(dir, '.cursor', 'mcp.json'), 'utf8')).mcpServers.axme;
    assert.deepEqual(cursor, { url: URL, headers: { Authorization: 'Bearer ${env:AXME_TOKEN}' } });
    const vscode = JSON.parse(readFileSync(join(dir, '.vscode', 'mcp.json'), 'utf8')).servers.axme;
    assert.deepEqual(vscode, { type: 'http', url: URL, headers: { Authorization: 'Bearer ${env:AXME_TOKEN}' } });
    const gemini = JSON.parse(readFileSync(join(dir, '.gemini', 'settings.json'), 'utf8')).mcpServers.axme;
    assert.deepEqual(gemini, { httpUrl: URL, headers: { Authorization: 'Bearer ${AXME_TOKEN}' } });
    assert.equal(
      readFileSync(codexPath, 'utf8'),
      `# team settings\nmodel = "o4"  # keep\n\n[mcp_servers.other]\ncommand = "other"\n\n[mcp_servers.axme]\nurl = "${URL}"\nbearer_token_env_var = "AXME_TOKEN"\n`,
    );
    // no token variable: entries without one (a loopback server with no tokens)
    await axmeOk(dir, ['init', '--agent', 'claude-code,codex', '--no-git-hooks', '--no-scan', '--mcp-url', 'http://127.0.0.1:7777/mcp']);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')).mcpServers.axme, { type: 'http', url: 'http://127.0.0.1:7777/mcp' });
    assert.match(readFileSync(codexPath, 'utf8'), /\[mcp_servers\.axme\]\nurl = "http:\/\/127\.0\.0\.1:7777\/mcp"\n$/);
    // and back to a local server: nothing of the team server's entry is left beside the command
    await axmeOk(dir, ['init', '--agent', 'claude-code,cursor,vscode,gemini,codex', '--no-git-hooks', '--no-scan', '--mcp-url', URL, '--mcp-token-env', 'AXME_TOKEN']);
    await axmeOk(dir, ['init', '--agent', 'claude-code,cursor,vscode,gemini,codex', '--no-git-hooks', '--no-scan']);
    assert.match(readFileSync(codexPath, 'utf8'), /\[mcp_servers\.axme\]\ncommand = .*\nargs = \[/);
    assert.doesNotMatch(readFileSync(codexPath, 'utf8'), /url = /);
    const local = (file: string, key = 'mcpServers') => Object.keys(JSON.parse(readFileSync(join(dir, file), 'utf8'))[key].axme).sort();
    assert.deepEqual(local('.mcp.json'), ['args', 'command']);
    assert.deepEqual(local('.cursor/mcp.json'), ['args', 'command', 'env']);
    assert.deepEqual(local('.vscode/mcp.json', 'servers'), ['args', 'command', 'type']);
    assert.equal(JSON.parse(readFileSync(join(dir, '.vscode', 'mcp.json'), 'utf8')).servers.axme.type, 'stdio');
    assert.deepEqual(local('.gemini/settings.json'), ['args', 'command']);
  } finally {
    cleanup();
  }
});

test('every client with a project MCP file has an HTTP entry, and doctor reads Claude Code\'s back as written', () => {
  for (const c of ADAPTERS.filter((c) => c.mcp)) {
    const entry = c.mcp!.remote({ url: URL, tokenEnv: 'T' });
    assert.equal(entry.url ?? entry.httpUrl, URL, c.id);
  }
  for (const remote of [{ url: URL, tokenEnv: 'AXME_TOKEN' }, { url: URL, tokenEnv: null }]) {
    const written = JSON.parse(JSON.stringify(adapterOf('claude-code').mcp!.remote(remote))) as Record<string, unknown>;
    assert.deepEqual(remoteOf(written), remote);
  }
  assert.equal(remoteOf({ command: 'sh', args: ['-c', 'axme serve'] }), null);
});

test('doctor names the team server and says when the token variable is not set', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    await axmeOk(dir, ['init', '--agent', 'claude-code', '--no-git-hooks', '--no-scan', '--mcp-url', URL, '--mcp-token-env', 'AXME_TEAM_TOKEN']);
    const check = async (env: NodeJS.ProcessEnv) => {
      const r = await axme(dir, ['doctor', '--json'], { env });
      return { code: r.code, mcp: (JSON.parse(r.stdout) as { checks: Array<{ name: string; status: string; detail: string; fix?: string }> }).checks.find((c) => c.name === 'mcp server')! };
    };
    const unset = await check({ AXME_TEAM_TOKEN: '' });
    assert.equal(unset.code, 1);
    assert.equal(unset.mcp.status, 'problem');
    assert.match(unset.mcp.detail, new RegExp(`^a team's server at ${URL.replace(/[./]/g, '\\$&')}: its token comes from \\$AXME_TEAM_TOKEN, which is not set here`));
    assert.match(unset.mcp.fix!, /^export AXME_TEAM_TOKEN=.*axme token add/);
    const set = await check({ AXME_TEAM_TOKEN: 'axme_t_secret' });
    assert.equal(set.mcp.status, 'ok');
    assert.equal(set.mcp.detail, `a team's server at ${URL}, token from $AXME_TEAM_TOKEN`);
    assert.doesNotMatch(JSON.stringify(set), /axme_t_secret/, 'the token itself is never shown');
  } finally {
    cleanup();
  }
});

test('init --mcp-url refuses what it cannot configure, before writing anything', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    const user = await axme(dir, ['init', '--agent', 'windsurf', '--user', '--no-git-hooks', '--no-scan', '--mcp-url', URL], { env: { HOME: dir } });
    assert.equal(user.code, 2);
    assert.match(user.stderr, /--mcp-url and --user/);
    assert.equal(existsSync(join(dir, '.codeium')), false);
    assert.equal(existsSync(join(dir, '.windsurfrules')), false);
    const bad = await axme(dir, ['init', '--agent', 'cursor', '--mcp-url', 'ftp://x', '--no-git-hooks']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /http\(s\) URL/);
    const creds = await axme(dir, ['init', '--agent', 'cursor', '--mcp-url', 'https://bob:pw@x/mcp', '--no-git-hooks']);
    assert.equal(creds.code, 2);
    assert.match(creds.stderr, /without credentials/);
    const env = await axme(dir, ['init', '--agent', 'cursor', '--mcp-url', 'https://x/mcp', '--mcp-token-env', 'A-B', '--no-git-hooks']);
    assert.equal(env.code, 2);
    assert.match(env.stderr, /name of an environment variable/);
    const noAgent = await axme(dir, ['init', '--mcp-url', 'https://x/mcp', '--no-git-hooks']);
    assert.equal(noAgent.code, 2);
    assert.match(noAgent.stderr, /goes with --agent/);
    const tokenOnly = await axme(dir, ['init', '--agent', 'cursor', '--mcp-token-env', 'AXME_TOKEN', '--no-git-hooks']);
    assert.equal(tokenOnly.code, 2);
    assert.match(tokenOnly.stderr, /--mcp-token-env goes with --mcp-url/);
    assert.equal(existsSync(join(dir, '.cursor')), false, 'nothing was written');
    assert.equal(existsSync(join(dir, '.mcp.json')), false, 'nothing was written');
  } finally {
    cleanup();
  }
});
