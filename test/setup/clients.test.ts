import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseAgents } from '../../src/setup/clients/index.ts';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { initCore } from '../core.ts';
import { axme, CLI, cleanEnv, tempRepo } from '../helpers.ts';

const INIT = ['init', '--no-git-hooks', '--no-scan', '--no-fetch-config'];

/** Each JSON client: its file, the object of servers, a foreign file to merge into. */
const JSON_CLIENTS = [
  {
    id: 'cursor',
    file: '.cursor/mcp.json',
    key: 'mcpServers',
    foreign: { mcpServers: { github: { command: 'gh-mcp', args: [] } } },
    shape: { env: {} },
    instructions: '.cursor/rules/axme.mdc',
    hooks: '.cursor/hooks.json',
  },
  {
    id: 'vscode',
    file: '.vscode/mcp.json',
    key: 'servers',
    foreign: { inputs: [{ id: 'tok', type: 'promptString' }], servers: { fetch: { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] } } },
    shape: { type: 'stdio' },
    instructions: '.github/copilot-instructions.md',
    hooks: null,
  },
  // Gemini CLI's hooks go into the same file as its server
  {
    id: 'gemini',
    file: '.gemini/settings.json',
    key: 'mcpServers',
    foreign: { theme: 'GitHub', mcpServers: { other: { command: 'x' } } },
    shape: {},
    instructions: 'GEMINI.md',
    hooks: '.gemini/settings.json',
  },
] as const;

const CODEX_BEFORE = `# my Codex settings
model = "o3"   # the model, aligned on purpose

[mcp_servers.github]
command = "gh-mcp"
args = [
  "serve",   # keep
]

# trailing comment
`;

function read(dir: string, file: string): string {
  return readFileSync(join(dir, file), 'utf8');
}

/** Starts the server as the client would (`command` with `args`, in `dir`) and lists its tools through the MCP SDK. */
async function listTools(dir: string, entry: { command: string; args: string[] }): Promise<string[]> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'clients-test', version: '1' });
  await client.connect(
    new StdioClientTransport({ command: entry.command, args: entry.args, cwd: dir, env: cleanEnv() as Record<string, string>, stderr: 'pipe' }),
  );
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

/** The `args` of the `[mcp_servers.axme]` table, read back as TOML basic strings (JSON's escapes are the same here). */
function codexEntry(text: string): { command: string; args: string[] } {
  const table = text.slice(text.indexOf('[mcp_servers.axme]'));
  const command = JSON.parse(/^command = (".*")$/m.exec(table)![1]!) as string;
  const args = JSON.parse(/^args = (\[.*\])$/m.exec(table)![1]!) as string[];
  return { command, args };
}

describe('axme init --agent: the MCP server of other clients', () => {
  let dir: string;
  let cleanup: () => void;
  before(() => ({ dir, cleanup } = tempRepo({ commit: true })));
  after(() => cleanup());

  for (const c of JSON_CLIENTS) {
    test(`${c.id}: merged into ${c.file}, foreign entries kept, idempotent, started for real, uninstalled exactly`, async () => {
      mkdirSync(join(dir, c.file, '..'), { recursive: true });
      const before = `${JSON.stringify(c.foreign, null, 4)}\n`;
      writeFileSync(join(dir, c.file), before);
      // the user's own instructions, which the axme section joins (and leaves again on uninstall)
      mkdirSync(join(dir, c.instructions, '..'), { recursive: true });
      const mine = `# ${c.id} notes of the team\n\nTabs, not spaces.\n`;
      writeFileSync(join(dir, c.instructions), mine);
      const r = await axmeInOk(dir, [...INIT, '--agent', c.id, '--json']);
      const ownHooksFile = c.hooks !== null && c.hooks !== c.file;
      assert.deepEqual(
        r.clients.map((x: { client: string; path: string; action: string; reason: string }) => [x.client, x.path.slice(dir.length + 1), x.action, x.reason]),
        [[c.id, c.file, 'updated', 'named'], [c.id, c.instructions, 'updated', 'named'], ...(ownHooksFile ? [[c.id, c.hooks, 'created', 'named']] : [])],
      );
      assert.equal(c.hooks === null, !r.clients.some((x: { hooks?: string[] }) => x.hooks), 'hooks only for the clients whose hook protocol axme speaks');
      const instructions = read(dir, c.instructions);
      assert.ok(instructions.startsWith(mine.trimEnd()), "the user's text stays first");
      assert.match(
        instructions,
        /<!-- axme:start -->\n## Project knowledge \(axme\)[\s\S]*#!axme pr=<N\|none> repo=<owner>\/<name>[\s\S]*<!-- axme:end -->\n$/,
      );
      assert.deepEqual(r.agentFiles, [], 'claude-code was not asked for');
      assert.ok(!existsSync(join(dir, '.mcp.json')));
      const text = read(dir, c.file);
      assert.match(text, /^\{\n {4}"/, 'the indentation stays');
      assert.ok(!text.includes(CLI) && !text.includes(process.execPath) && !text.includes(dir), 'no path of this machine');
      const config = JSON.parse(text);
      for (const [k, v] of Object.entries(c.foreign)) {
        if (k === c.key) for (const [name, server] of Object.entries(v)) assert.deepEqual(config[k][name], server);
        else assert.deepEqual(config[k], v);
      }
      const entry = config[c.key].axme;
      assert.equal(entry.command, 'sh');
      assert.equal(entry.args[0], '-c');
      assert.match(entry.args[1], /exec \$AXME_NODE "\$a" serve$/);
      for (const [k, v] of Object.entries(c.shape)) assert.deepEqual(entry[k], v);
      assert.ok((await listTools(dir, entry)).includes('axme_context'));

      // the second run in-process: idempotence is the core's (the binary's JSON of the first run is checked above)
      const again = await initCore(dir, { agents: parseAgents(c.id), fetchConfig: false });
      assert.deepEqual(
        again.clients?.changes.map((x) => x.action),
        ['unchanged', 'unchanged', ...(ownHooksFile ? ['unchanged'] : [])],
      );
      assert.equal(read(dir, c.file), text, 'a second run changes no byte');
      assert.equal(read(dir, c.instructions), instructions);

      const un = await axmeInOk(dir, ['uninstall', '--agent', c.id, '--json']);
      assert.deepEqual(
        un.clients.map((x: { action: string }) => x.action),
        ['updated', 'updated', ...(ownHooksFile ? ['removed'] : [])],
      );
      if (ownHooksFile) assert.ok(!existsSync(join(dir, c.hooks)), 'the hooks file axme created goes');
      assert.equal(read(dir, c.file), before, 'uninstall removes exactly what init added');
      assert.equal(read(dir, c.instructions), mine, "and the section, leaving the user's text as it was");
    });
  }

  test('codex: the table is appended, comments and formatting kept byte for byte, escaping right, started for real, uninstalled exactly', async () => {
    mkdirSync(join(dir, '.codex'), { recursive: true });
    writeFileSync(join(dir, '.codex', 'config.toml'), CODEX_BEFORE);
    // through the binary: what the real process prints on stdout and stderr
    const r = await axme(dir, [...INIT, '--agent', 'codex']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /codex: Updated \.codex\/config\.toml/);
    assert.match(r.stderr, /trust_level = "trusted"/);
    const text = read(dir, '.codex/config.toml');
    assert.ok(text.startsWith(CODEX_BEFORE), 'every byte before the table is kept');
    assert.match(text.slice(CODEX_BEFORE.length), /^\n\[mcp_servers\.axme\]\ncommand = "sh"\nargs = \["-c", ".*"\]\nenv_vars = \["AXME_BIN", "AXME_NODE"\]\n$/);
    const entry = codexEntry(text);
    assert.equal(entry.args[1]!.includes('"$a"'), true, 'the double quotes survive the TOML escaping');
    assert.ok((await listTools(dir, entry)).includes('axme_context'));

    await initCore(dir, { agents: parseAgents('codex'), fetchConfig: false });
    assert.equal(read(dir, '.codex/config.toml'), text, 'a second run changes no byte');

    // a table in the middle of the file: only its lines are replaced
    const middle = `${CODEX_BEFORE.replace('# trailing comment\n', '')}[mcp_servers.axme]\ncommand = "old"\n\n# about the next table\n[profiles.fast]\nmodel = "o4-mini"\n`;
    writeFileSync(join(dir, '.codex', 'config.toml'), middle);
    await axmeInOk(dir, [...INIT, '--agent', 'codex']);
    const replaced = read(dir, '.codex/config.toml');
    assert.equal(
      replaced.replace(/\[mcp_servers\.axme\]\ncommand = "sh"\nargs = \[.*\]\nenv_vars = \[.*\]\n/, ''),
      middle.replace('[mcp_servers.axme]\ncommand = "old"\n', ''),
    );

    assert.match(read(dir, 'AGENTS.md'), /^<!-- axme:start -->\n## Project knowledge \(axme\)/, 'Codex reads AGENTS.md');
    writeFileSync(join(dir, '.codex', 'config.toml'), text);
    const un = await axmeInOk(dir, ['uninstall', '--agent', 'codex', '--json']);
    assert.deepEqual(
      un.clients.map((x: { path: string; action: string }) => `${x.path.slice(dir.length + 1)}:${x.action}`),
      ['.codex/config.toml:updated', 'AGENTS.md:removed', '.codex/hooks.json:removed'],
    );
    assert.ok(!existsSync(join(dir, 'AGENTS.md')), 'AGENTS.md held only the axme section');
    assert.equal(read(dir, '.codex/config.toml'), CODEX_BEFORE, 'uninstall removes exactly the table');
  });

  test('codex: a [mcp_servers.axme.env] sub-table of the user survives re-init, and uninstall takes it with the table, comments kept', async () => {
    const { dir: d, cleanup: done } = tempRepo({ commit: true });
    try {
      mkdirSync(join(d, '.codex'));
      const mine =
        '# top comment\nmodel = "o3"\n\n[mcp_servers.axme]\ncommand = "old"   # mine\n\n# the env of the server\n[mcp_servers.axme.env]\nAXME_ACTOR = "agent"\n\n# after\n[profiles.fast]\nmodel = "o4-mini"\n';
      writeFileSync(join(d, '.codex', 'config.toml'), mine);
      await axmeInOk(d, [...INIT, '--agent', 'codex']);
      const text = read(d, '.codex/config.toml');
      assert.match(
        text,
        /^# top comment\nmodel = "o3"\n\n\[mcp_servers\.axme\]\ncommand = "sh"\nargs = \["-c", ".*"\]\nenv_vars = \["AXME_BIN", "AXME_NODE"\]\n\n# the env of the server\n\[mcp_servers\.axme\.env\]\nAXME_ACTOR = "agent"\n\n# after\n\[profiles\.fast\]\nmodel = "o4-mini"\n$/,
      );
      await initCore(d, { agents: parseAgents('codex'), fetchConfig: false });
      assert.equal(read(d, '.codex/config.toml'), text, 'a second run changes no byte');
      await axmeInOk(d, ['uninstall', '--agent', 'codex']);
      assert.equal(
        read(d, '.codex/config.toml'),
        '# top comment\nmodel = "o3"\n\n# after\n[profiles.fast]\nmodel = "o4-mini"\n',
        'the table and its sub-table go, the comments around them stay',
      );
    } finally {
      done();
    }
  });

  test('uninstall --agent claude-code removes exactly the .mcp.json server, the hooks and the CLAUDE.md section', async () => {
    const { dir: d, cleanup: done } = tempRepo({ commit: true });
    try {
      writeFileSync(join(d, '.mcp.json'), '{\n  "mcpServers": {\n    "github": {\n      "command": "gh-mcp"\n    }\n  }\n}\n');
      await axmeInOk(d, [...INIT]);
      assert.ok('axme' in JSON.parse(read(d, '.mcp.json')).mcpServers);
      const dry = await axmeInOk(d, ['uninstall', '--agent', 'claude-code', '--dry-run', '--json']);
      assert.deepEqual(
        dry.clients.map((x: { client: string; action: string; path: string }) => `${x.client}:${x.action}:${relative(d, x.path)}`),
        ['claude-code:updated:.mcp.json', 'claude-code:removed:CLAUDE.md', 'claude-code:removed:.claude/settings.json'],
      );
      assert.ok('axme' in JSON.parse(read(d, '.mcp.json')).mcpServers, 'a dry run writes nothing');
      const un = await axmeIn(d, ['uninstall', '--agent', 'claude-code']);
      assert.equal(un.code, 0, un.stderr);
      assert.match(un.stdout, /claude-code: Removed the axme server from \.mcp\.json/);
      assert.equal(read(d, '.mcp.json'), '{\n  "mcpServers": {\n    "github": {\n      "command": "gh-mcp"\n    }\n  }\n}\n', 'exactly the server goes');
      assert.ok(!existsSync(join(d, '.claude', 'settings.json')), "a settings file of axme's hooks only goes");
      assert.ok(!existsSync(join(d, 'CLAUDE.md')));
      assert.ok(existsSync(join(d, '.git', 'hooks', 'commit-msg')) === false, 'init was run without git hooks');
    } finally {
      done();
    }
  });

  test('a file axme created that holds nothing else is removed by uninstall', async () => {
    const r = await axmeInOk(dir, [...INIT, '--agent', 'vscode,codex', '--json']);
    assert.deepEqual([...new Set(r.clients.map((x: { client: string }) => x.client))], ['vscode', 'codex']);
    writeFileSync(join(dir, '.vscode', 'mcp.json'), '');
    await initCore(dir, { agents: parseAgents('vscode'), fetchConfig: false });
    await axmeInOk(dir, ['uninstall', '--agent', 'vscode']);
    assert.ok(!existsSync(join(dir, '.vscode', 'mcp.json')));
    assert.ok(existsSync(join(dir, '.vscode')), 'the folder stays');
    writeFileSync(join(dir, '.codex', 'config.toml'), '');
    await initCore(dir, { agents: parseAgents('codex'), fetchConfig: false });
    const un = await axmeInOk(dir, ['uninstall', '--agent', 'codex', '--json']);
    assert.deepEqual(
      un.clients.filter((x: { path: string }) => x.path.endsWith('config.toml')).map((x: { action: string }) => x.action),
      ['removed'],
    );
    assert.ok(!existsSync(join(dir, '.codex', 'config.toml')));
  });

  test('settings with comments (JSONC: VS Code, Gemini CLI) are edited in place: the comments stay, a second run changes no byte, uninstall takes only axme out', async () => {
    const { dir: d, cleanup: done } = tempRepo({ commit: true });
    try {
      mkdirSync(join(d, '.vscode'));
      mkdirSync(join(d, '.gemini'));
      const vscode = '{\n  // my servers\n  "servers": {\n    /* the docs server */\n    "docs": { "type": "http", "url": "https://x/mcp" },\n  },\n}\n';
      writeFileSync(join(d, '.vscode', 'mcp.json'), vscode);
      writeFileSync(join(d, '.gemini', 'settings.json'), '{\n  // the theme I like\n  "theme": "GitHub"\n}\n');
      await axmeInOk(d, ['init', '--agent', 'vscode,gemini', '--no-git-hooks', '--no-scan']);
      const v1 = readFileSync(join(d, '.vscode', 'mcp.json'), 'utf8');
      const g1 = readFileSync(join(d, '.gemini', 'settings.json'), 'utf8');
      assert.match(v1, /\/\/ my servers/);
      assert.match(v1, /\/\* the docs server \*\//);
      assert.match(g1, /\/\/ the theme I like/);
      const { parse } = await import('jsonc-parser');
      assert.equal(parse(v1).servers.axme.type, 'stdio');
      assert.equal(parse(v1).servers.docs.url, 'https://x/mcp');
      assert.ok(parse(g1).mcpServers.axme && parse(g1).hooks.BeforeTool, 'server and hooks');
      await axmeInOk(d, ['init', '--agent', 'vscode,gemini', '--no-git-hooks', '--no-scan']);
      assert.equal(readFileSync(join(d, '.vscode', 'mcp.json'), 'utf8'), v1);
      assert.equal(readFileSync(join(d, '.gemini', 'settings.json'), 'utf8'), g1);
      await axmeInOk(d, ['uninstall', '--agent', 'vscode,gemini']);
      const v2 = readFileSync(join(d, '.vscode', 'mcp.json'), 'utf8');
      assert.match(v2, /\/\/ my servers/);
      assert.deepEqual(Object.keys(parse(v2).servers), ['docs']);
      assert.equal(readFileSync(join(d, '.gemini', 'settings.json'), 'utf8'), '{\n  // the theme I like\n  "theme": "GitHub"\n}\n');
    } finally {
      done();
    }
  });

  test('invalid JSON and a TOML form axme does not edit are refused (exit 2), nothing written', async () => {
    const { dir: d, cleanup: done } = tempRepo({ commit: true });
    try {
      mkdirSync(join(d, '.gemini'));
      writeFileSync(join(d, '.gemini', 'settings.json'), '{ "theme": ');
      // through the binary: the real process's exit code; the forms below in-process
      const r = await axme(d, ['init', '--agent', 'all']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /\.gemini\/settings\.json is not valid JSON/);
      assert.ok(!existsSync(join(d, '.mcp.json')) && !existsSync(join(d, 'CLAUDE.md')), 'no other file written');
      assert.equal((await axmeIn(d, ['log'])).code, 2, 'no store created');
      // one repository for the forms: each is refused before anything is written (checked after each)
      const { dir: t, cleanup: gone } = tempRepo({ commit: true });
      try {
        mkdirSync(join(t, '.codex'));
        for (const form of [
          'mcp_servers = { axme = { command = "x" } }\n',
          'mcp_servers.axme.command = "x"\n',
          '[mcp_servers]\naxme = { command = "x" }\n',
          '[mcp_servers]\naxme.command = "x"\n',
        ]) {
          const before = `# mine\n${form}`;
          writeFileSync(join(t, '.codex', 'config.toml'), before);
          const x = await axmeIn(t, ['init', '--agent', 'codex,cursor']);
          assert.equal(x.code, 2, form);
          assert.match(
            x.stderr,
            /config\.toml:\d+: mcp_servers\.axme.* is set outside a \[mcp_servers\.axme\] table|config\.toml:\d+: mcp_servers is set outside/,
            form,
          );
          assert.equal(read(t, '.codex/config.toml'), before);
          assert.ok(!existsSync(join(t, '.cursor')), 'nothing written');
        }
      } finally {
        gone();
      }
    } finally {
      done();
    }
  });

  test('--dry-run prints each file and its change and writes nothing; all connects what is detected and says what it skipped', async () => {
    const { dir: d, cleanup: done } = tempRepo({ commit: true });
    try {
      mkdirSync(join(d, '.cursor'));
      mkdirSync(join(d, '.codex'));
      const dry = await axmeIn(d, ['init', '--agent', 'all', '--dry-run']);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /nothing is written/);
      assert.match(dry.stdout, /claude-code: Would create \.mcp\.json/);
      assert.match(dry.stdout, /cursor: Would create \.cursor\/mcp\.json \(detected\)\n {2}axme entry: \{"command":"sh","args":\["-c",/);
      assert.match(
        dry.stdout,
        /vscode: skipped, not detected \(no \.vscode\/ here; all connects the clients whose folder is here\): axme init --agent vscode connects it anyway/,
      );
      assert.match(
        dry.stdout,
        /cursor: Would create \.cursor\/hooks\.json \(detected\)\n {2}axme hooks: beforeShellExecution, beforeReadFile, beforeMCPExecution, afterFileEdit, sessionStart, sessionEnd\n/,
      );
      assert.match(
        dry.stdout,
        /codex: Would create \.codex\/hooks\.json \(detected\)\n {2}axme hooks: PreToolUse, SessionStart, SessionEnd, UserPromptSubmit, PreCompact\n/,
      );
      assert.deepEqual(
        [
          '.mcp.json',
          'CLAUDE.md',
          '.claude',
          '.cursor/mcp.json',
          '.cursor/rules',
          '.cursor/hooks.json',
          '.codex/config.toml',
          '.codex/hooks.json',
          'AGENTS.md',
        ].filter((f) => existsSync(join(d, f))),
        [],
      );
      assert.equal((await axmeIn(d, ['log'])).code, 2, 'no store created');
      assert.equal(existsSync(join(d, '.git', 'hooks', 'commit-msg')), false, 'no git hook');

      const r = await axmeInOk(d, [...INIT, '--agent', 'all', '--json']);
      assert.deepEqual(
        r.clients.map((x: { client: string; path: string; action: string }) => `${x.client}:${x.path.slice(d.length + 1)}:${x.action}`),
        [
          'claude-code:.mcp.json:created',
          'cursor:.cursor/mcp.json:created',
          'cursor:.cursor/rules/axme.mdc:created',
          'cursor:.cursor/hooks.json:created',
          'codex:.codex/config.toml:created',
          'codex:AGENTS.md:created',
          'codex:.codex/hooks.json:created',
        ],
      );
      assert.match(
        read(d, '.cursor/rules/axme.mdc'),
        /^---\ndescription: .*\nalwaysApply: true\n---\n\n<!-- axme:start -->/,
        'a Cursor rule applied to every request',
      );
      assert.deepEqual(
        r.skipped.map((x: { client: string }) => x.client),
        ['vscode', 'gemini', 'windsurf'],
        'all stays with the project: not the user-level windsurf',
      );
      assert.ok(!existsSync(join(d, '.windsurfrules')));
      // a client named explicitly is connected although its folder is not here
      const named = await axmeInOk(d, [...INIT, '--agent', 'gemini', '--json']);
      assert.deepEqual(
        named.clients.map((x: { client: string; action: string; reason: string }) => [x.client, x.action, x.reason]),
        [
          ['gemini', 'created', 'named'],
          ['gemini', 'created', 'named'],
        ],
      );
      const dryAgain = await axmeInOk(d, ['init', '--agent', 'all', '--dry-run', '--json']);
      assert.deepEqual(
        dryAgain.clients.map((x: { client: string; action: string }) => `${x.client}:${x.action}`),
        [
          'claude-code:unchanged',
          'cursor:unchanged',
          'cursor:unchanged',
          'cursor:unchanged',
          'gemini:unchanged',
          'gemini:unchanged',
          'codex:unchanged',
          'codex:unchanged',
          'codex:unchanged',
        ],
      );
      const refused = await axmeIn(d, ['init', '--agent', 'claude-desktop']);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /Claude Desktop keeps MCP servers in a file of the user.*add --user/);
      // windsurf without --user: its project rules are written, its server is not (and init says how)
      const windsurf = await axmeIn(d, [...INIT, '--agent', 'windsurf']);
      assert.equal(windsurf.code, 0, windsurf.stderr);
      assert.match(windsurf.stdout, /windsurf: Created \.windsurfrules\n/);
      assert.match(windsurf.stdout, /windsurf: skipped, its MCP server is in a file of the user: add --user/);
      assert.match(read(d, '.windsurfrules'), /^<!-- axme:start -->\n## Project knowledge \(axme\)[\s\S]*<!-- axme:end -->\n$/);
      const noUser = await axmeIn(d, [...INIT, '--agent', 'cursor', '--user']);
      assert.equal(noUser.code, 2);
      assert.match(noUser.stderr, /--user goes with a client whose MCP servers are in a file of the user/);
    } finally {
      done();
    }
  });
});
