import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { mcpServerEntry } from '../../src/setup/launch.ts';
import { sandboxShellText } from '../../src/setup/sandbox.ts';

// Claude Code expands `${NAME:-default}` in .mcp.json's command and arguments before it hands the
// line to the prefix script (CLAUDE_CODE_SHELL_PREFIX), and it gives a variable set but empty as
// it is, the default only to an unset one (its expander: a string value, even "", wins). The
// prefix must expand its copy of the line the same way, or AXME_NODE='' makes the two lines differ
// and the MCP server runs inside the sandbox, where its writes fail (EROFS).

/** Claude Code's expansion of `${NAME}` / `${NAME:-default}` in an MCP server's command line. */
function claudeExpand(text: string, env: Record<string, string | undefined>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (typeof v === 'string') return v;
    return fallback ?? whole;
  });
}

/** The line as Claude Code hands it to the prefix: command and arguments, quoted where needed. */
function handed(env: Record<string, string | undefined>): string {
  const { command, args } = mcpServerEntry();
  return [command, ...args]
    .map((a) => claudeExpand(a, env))
    .map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'"'"'`)}'`))
    .join(' ');
}

const dir = mkdtempSync(join(tmpdir(), 'axme-launch-vars-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the prefix script (sandbox off) on the line; a stand-in zsh marks the way of the agent's commands. */
function route(env: Record<string, string | undefined>): 'own' | 'sandboxed' {
  const script = join(dir, 'prefix.sh');
  writeFileSync(script, sandboxShellText(null, null), { mode: 0o755 });
  const zsh = join(dir, 'zsh');
  writeFileSync(zsh, '#!/bin/sh\necho SANDBOXED\n');
  chmodSync(zsh, 0o755);
  const base: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin', SHELL: zsh, HOME: dir };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) base[k] = v;
  const r = spawnSync(script, [handed(env)], { cwd: dir, env: base, encoding: 'utf8' });
  return r.stdout.includes('SANDBOXED') ? 'sandboxed' : 'own';
}

describe("axme's MCP server is run outside the sandbox whether AXME_NODE / AXME_BIN are unset or set but empty", () => {
  const rows: Array<Record<string, string>> = [{}, { AXME_NODE: '' }, { AXME_BIN: '' }, { AXME_NODE: '', AXME_BIN: '' }, { AXME_NODE: '/usr/bin/node' }];
  for (const env of rows) {
    test(JSON.stringify(env), () => {
      assert.equal(route(env), 'own');
    });
  }
});
