import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ADAPTERS, adapterOf } from '../../src/setup/clients/adapters.ts';
import { remoteOf } from '../../src/setup/clients/remote.ts';
import { doctor } from '../../src/setup/doctor.ts';
import { mcpChecks } from '../../src/setup/doctor-mcp.ts';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { axme, cleanEnv, tempRepo } from '../helpers.ts';
import { type HttpServer, startHttp } from '../mcp/http-helpers.ts';
import { makeStore } from '../store-fixture.ts';

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
    await axmeInOk(dir, ['init', '--agent', 'claude-code,cursor,vscode,codex', '--no-git-hooks', '--no-scan']);
    assert.match(readFileSync(codexPath, 'utf8'), /\[mcp_servers\.axme\]\ncommand = /);
    await axmeInOk(dir, [
      'init',
      '--agent',
      'claude-code,cursor,vscode,gemini,codex',
      '--no-git-hooks',
      '--no-scan',
      '--mcp-url',
      URL,
      '--mcp-token-env',
      'AXME_TOKEN',
    ]);
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
    await axmeInOk(dir, ['init', '--agent', 'claude-code,codex', '--no-git-hooks', '--no-scan', '--mcp-url', 'http://127.0.0.1:7777/mcp']);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')).mcpServers.axme, { type: 'http', url: 'http://127.0.0.1:7777/mcp' });
    assert.match(readFileSync(codexPath, 'utf8'), /\[mcp_servers\.axme\]\nurl = "http:\/\/127\.0\.0\.1:7777\/mcp"\n$/);
    // and back to a local server: nothing of the team server's entry is left beside the command
    await axmeInOk(dir, [
      'init',
      '--agent',
      'claude-code,cursor,vscode,gemini,codex',
      '--no-git-hooks',
      '--no-scan',
      '--mcp-url',
      URL,
      '--mcp-token-env',
      'AXME_TOKEN',
    ]);
    await axmeInOk(dir, ['init', '--agent', 'claude-code,cursor,vscode,gemini,codex', '--no-git-hooks', '--no-scan']);
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

test('every client with a project MCP file has an HTTP entry, and doctor reads each one back as written', () => {
  for (const c of ADAPTERS.filter((c) => c.mcp)) {
    const entry = c.mcp!.remote({ url: URL, tokenEnv: 'T' });
    assert.equal(entry.url ?? entry.httpUrl, URL, c.id);
    for (const remote of [
      { url: URL, tokenEnv: 'AXME_TOKEN' },
      { url: URL, tokenEnv: null },
    ]) {
      const written = JSON.parse(JSON.stringify(c.mcp!.remote(remote))) as Record<string, unknown>;
      assert.deepEqual(remoteOf(written), remote, c.id);
    }
  }
  assert.equal(remoteOf({ command: 'sh', args: ['-c', 'axme serve'] }), null);
});

describe('doctor probes the team server for real: reachable, token accepted, scope; the token never shown', () => {
  let dir: string;
  let cleanup: () => void;
  let server: HttpServer | null = null;
  const tokens: Record<string, string> = {};
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { claude: true } }));
    for (const [name, scope] of [
      ['writer', 'write'],
      ['reader', 'read'],
    ])
      tokens[name!] = (await axmeInOk(dir, ['token', 'add', name!, '--scope', scope!, '--json'])).token;
    server = await startHttp(dir);
    // Claude Code, Codex and Gemini CLI pointed at the one server
    await axmeInOk(dir, [
      'init',
      '--agent',
      'claude-code,codex,gemini',
      '--no-git-hooks',
      '--no-scan',
      '--mcp-url',
      server.url,
      '--mcp-token-env',
      'AXME_TEAM_TOKEN',
    ]);
  });
  after(async () => {
    await server?.stop();
    cleanup();
  });
  /**
   * The team server's line: from the whole doctor (`whole`: every check run, the hooks' live ones
   * too), else from the MCP checks alone (mcpChecks, the part of the doctor that probes the server).
   */
  const team = async (token: string | undefined, { whole = false } = {}) => {
    const env = cleanEnv({ AXME_TEAM_TOKEN: token ?? '' });
    const r = whole ? await doctor({ cwd: dir, env }) : { ok: true, checks: await mcpChecks(dir, '', env) };
    const checks = r.checks.filter((c) => c.name === 'mcp team server');
    assert.equal(checks.length, 1, 'one server, probed once for the three clients');
    assert.doesNotMatch(JSON.stringify(r), new RegExp(Object.values(tokens).join('|')), 'no token in the report');
    // Codex's hooks wait for a person to trust them (codex-trust.ts): the other checks are the team server's alone here
    // the whole doctor's verdict (what its exit code says), and which checks it found a problem in
    return {
      ok: r.ok && checks[0]!.status === 'ok',
      check: checks[0]!,
      problems: whole ? r.checks.filter((c) => c.status === 'problem').map((c) => c.name) : null,
    };
  };

  test('a valid token: ok, with the clients, the server and the scope', async () => {
    const w = await team(tokens.writer, { whole: true });
    assert.equal(w.check.status, 'ok', w.check.detail);
    assert.deepEqual(w.problems, ['codex hooks'], 'with a valid token the team server is no problem of the doctor');
    assert.match(
      w.check.detail,
      /^Claude Code, Gemini CLI, Codex → http:\/\/127\.0\.0\.1:\d+\/mcp: reachable, token from \$AXME_TEAM_TOKEN accepted, scope write$/,
    );
    const r = await team(tokens.reader);
    assert.match(r.check.detail, /scope read \(agents can read the knowledge, not save to it\)/);
  });

  test('a wrong token, or none set: exit 1 naming the cause and the fix', async () => {
    // the whole doctor once: its verdict (exit 1) comes from the team server's line, and from it alone
    const wrong = await team(`axme_${'x'.repeat(43)}`, { whole: true });
    assert.equal(wrong.ok, false);
    // (Codex's hooks wait for a person to trust them in this world: a problem of its own, token or not)
    assert.deepEqual(
      wrong.problems?.filter((n) => n !== 'codex hooks'),
      ['mcp team server'],
    );
    assert.equal(wrong.check.status, 'problem');
    assert.match(wrong.check.detail, /the server refused the token in \$AXME_TEAM_TOKEN \(401: the bearer token is not valid here/);
    assert.match(wrong.check.fix!, /set \$AXME_TEAM_TOKEN to a valid token/);
    assert.doesNotMatch(JSON.stringify(wrong), /axme_x{43}/);
    const unset = await team(undefined);
    assert.equal(unset.check.status, 'problem');
    assert.match(unset.check.detail, /\$AXME_TEAM_TOKEN is not set here/);
    assert.match(unset.check.fix!, /^export AXME_TEAM_TOKEN=.*axme token add/);
  });

  test('the session start tells the model when the client cannot use the team server: the variable unset, the token refused; nothing with a good token', async () => {
    /** The context the session-start hook hands Claude Code, with `token` in the entry's variable. */
    const context = async (token: string | undefined) => {
      const r = await axme(dir, ['hook', 'session-start'], {
        input: JSON.stringify({ session_id: `s-${token?.length ?? 0}`, cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }),
        env: token === undefined ? {} : { AXME_TEAM_TOKEN: token },
      });
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    };
    const good = await context(tokens.writer!);
    assert.match(good, /# Project knowledge/);
    assert.doesNotMatch(good, /team server/);
    const unset = await context(undefined);
    assert.match(unset, /\(axme's team server http:\/\/127\.0\.0\.1:\d+\/mcp cannot be used in this session: \$AXME_TEAM_TOKEN is not set here/);
    assert.match(unset, /Tell the user: export AXME_TEAM_TOKEN=/);
    const wrongToken = `axme_${'x'.repeat(43)}`;
    const wrong = await context(wrongToken);
    assert.match(wrong, /cannot be used in this session: the server refused the token in \$AXME_TEAM_TOKEN \(401/);
    assert.match(wrong, /Tell the user: set \$AXME_TEAM_TOKEN to a valid token/);
    assert.doesNotMatch(wrong, new RegExp(wrongToken));
  });

  test('the server stopped: exit 1, not reachable (through the CLI: verdict first, the problem once)', async () => {
    await server!.stop();
    server = null;
    const r = await axme(dir, ['doctor'], { env: { AXME_TEAM_TOKEN: tokens.writer } });
    assert.equal(r.code, 1, r.stdout);
    const lines = r.stdout.split('\n');
    assert.match(lines[0]!, /^axme doctor: \d problems? to fix: .*mcp team server/);
    const at = lines.findIndex((l) => /^problem +mcp team server/.test(l));
    assert.match(lines[at]!, /^problem +mcp team server +Claude Code, Gemini CLI, Codex → .*: not reachable \(ECONNREFUSED\)$/);
    assert.match(lines[at + 1]!, /fix: start the server/);
    assert.equal(r.stdout.split('not reachable').length, 2, 'said once');
  });
});

test('init --mcp-url refuses what it cannot configure, before writing anything', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    // the first through the binary (the real process's exit code and stderr), the others in-process
    const user = await axme(dir, ['init', '--agent', 'windsurf', '--user', '--no-git-hooks', '--no-scan', '--mcp-url', URL], { env: { HOME: dir } });
    assert.equal(user.code, 2);
    assert.match(user.stderr, /--mcp-url and --user/);
    assert.equal(existsSync(join(dir, '.codeium')), false);
    assert.equal(existsSync(join(dir, '.windsurfrules')), false);
    const bad = await axmeIn(dir, ['init', '--agent', 'cursor', '--mcp-url', 'ftp://x', '--no-git-hooks']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /http\(s\) URL/);
    const creds = await axmeIn(dir, ['init', '--agent', 'cursor', '--mcp-url', 'https://bob:pw@x/mcp', '--no-git-hooks']);
    assert.equal(creds.code, 2);
    assert.match(creds.stderr, /without credentials/);
    const env = await axmeIn(dir, ['init', '--agent', 'cursor', '--mcp-url', 'https://x/mcp', '--mcp-token-env', 'A-B', '--no-git-hooks']);
    assert.equal(env.code, 2);
    assert.match(env.stderr, /name of an environment variable/);
    const noAgent = await axmeIn(dir, ['init', '--mcp-url', 'https://x/mcp', '--no-git-hooks']);
    assert.equal(noAgent.code, 2);
    assert.match(noAgent.stderr, /goes with --agent/);
    const tokenOnly = await axmeIn(dir, ['init', '--agent', 'cursor', '--mcp-token-env', 'AXME_TOKEN', '--no-git-hooks']);
    assert.equal(tokenOnly.code, 2);
    assert.match(tokenOnly.stderr, /--mcp-token-env goes with --mcp-url/);
    assert.equal(existsSync(join(dir, '.cursor')), false, 'nothing was written');
    assert.equal(existsSync(join(dir, '.mcp.json')), false, 'nothing was written');
  } finally {
    cleanup();
  }
});
