import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { axme, axmeOk, tempRepo } from '../helpers.ts';

/** `axme init --agent … --mcp-url … --mcp-token-env …`: clients pointed at a team's `axme serve --http`. */

test('init --mcp-url writes HTTP server entries with the token from the environment (Claude Code, Cursor, Gemini)', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    // a local stdio entry first: becoming remote drops its command
    await axmeOk(dir, ['init', '--agent', 'claude-code,cursor', '--no-git-hooks', '--no-scan']);
    await axmeOk(dir, ['init', '--agent', 'claude-code,cursor,gemini', '--no-git-hooks', '--no-scan', '--mcp-url', 'https://axme.example.com/mcp', '--mcp-token-env', 'AXME_TOKEN']);
    const claude = JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')).mcpServers.axme;
    assert.deepEqual(claude, { type: 'http', url: 'https://axme.example.com/mcp', headers: { Authorization: 'Bearer ${AXME_TOKEN}' } });
    const cursor = JSON.parse(readFileSync(join(dir, '.cursor', 'mcp.json'), 'utf8')).mcpServers.axme;
    assert.deepEqual(cursor, { url: 'https://axme.example.com/mcp', headers: { Authorization: 'Bearer ${env:AXME_TOKEN}' } });
    const gemini = JSON.parse(readFileSync(join(dir, '.gemini', 'settings.json'), 'utf8')).mcpServers.axme;
    assert.deepEqual(gemini, { httpUrl: 'https://axme.example.com/mcp', headers: { Authorization: 'Bearer ${AXME_TOKEN}' } });
  } finally {
    cleanup();
  }
});

test('init --mcp-url refuses what it cannot configure, before writing anything', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    mkdirSync(join(dir, '.codex'));
    const codex = await axme(dir, ['init', '--agent', 'codex', '--no-git-hooks', '--no-scan', '--mcp-url', 'https://axme.example.com/mcp']);
    assert.equal(codex.code, 2);
    assert.match(codex.stderr, /codex is not one of them/);
    assert.equal(existsSync(join(dir, '.codex', 'config.toml')), false);
    const bad = await axme(dir, ['init', '--agent', 'cursor', '--mcp-url', 'ftp://x', '--no-git-hooks']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /http\(s\) URL/);
    const env = await axme(dir, ['init', '--agent', 'cursor', '--mcp-url', 'https://x/mcp', '--mcp-token-env', 'A-B', '--no-git-hooks']);
    assert.equal(env.code, 2);
    const noAgent = await axme(dir, ['init', '--mcp-url', 'https://x/mcp', '--no-git-hooks']);
    assert.equal(noAgent.code, 2);
    assert.match(noAgent.stderr, /goes with --agent/);
  } finally {
    cleanup();
  }
});
