import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { parse as parseToml } from 'smol-toml';
import { AxmeError } from '../../src/model/errors.ts';
import { type CodexEntry, mergeCodexServer, removeCodexServer } from '../../src/setup/clients/codex-toml.ts';
import { axmeOk, tempRepo } from '../helpers.ts';

const ENTRY: CodexEntry = { command: 'node', args: ['/opt/axme/axme.cjs', 'serve'], env_vars: ['AXME_BIN', 'AXME_NODE'] };
const PATH = '/p/.codex/config.toml';

/** Parsed TOML as plain data (the parser's objects have no prototype). */
function data(text: string): unknown {
  return JSON.parse(JSON.stringify(parseToml(text)));
}

/** The original's data with axme's table set. */
function plusTable(text: string): unknown {
  const d = data(text) as Record<string, Record<string, unknown>>;
  return { ...d, mcp_servers: { ...d.mcp_servers, axme: { ...ENTRY } } };
}

function isConfig(err: unknown): boolean {
  return err instanceof AxmeError && err.code === 'CONFIG';
}

/** Init then uninstall: init keeps every setting and adds exactly the table, uninstall gives back every byte. */
function roundTrip(original: string): void {
  const added = mergeCodexServer(original, ENTRY, PATH);
  assert.deepEqual(data(added), plusTable(original));
  assert.equal(removeCodexServer(added, PATH), original.trim() === '' ? null : original);
}

test('security: a literal string holding """ cannot hide an existing [mcp_servers.axme] table (init would add a second one)', () => {
  const original = `a = 'say """'\n[mcp_servers.axme]\ncommand = "old"\n`;
  const out = mergeCodexServer(original, ENTRY, PATH);
  assert.deepEqual(data(out), plusTable(original));
  assert.equal(removeCodexServer(out, PATH), `a = 'say """'\n`);
});

test('security: """ and \'\'\' on one line cannot hide an existing table', () => {
  const original = `a = """x'''"""\nb = '''y"""'''\n[mcp_servers.axme]\ncommand = "old"\n`;
  assert.deepEqual(data(mergeCodexServer(original, ENTRY, PATH)), plusTable(original));
});

test('security: a [mcp_servers.axme] line inside a multi-line string (after an escaped quote) is not taken for the table', () => {
  const original = `doc = """ a \\"""\n[mcp_servers.axme]\ncommand = "not a table"\n"""\nlit = '''\n[mcp_servers.axme]\n'''\n`;
  roundTrip(original);
});

test('security: a config.toml that does not parse is refused, naming the file, not edited', () => {
  for (const broken of ['a = """never closed\n', 'a = 1\na = 2\n', '[t]\n[t]\n']) {
    assert.throws(
      () => mergeCodexServer(broken, ENTRY, PATH),
      (e) => isConfig(e) && /config\.toml is not valid TOML.*fix it or move it away/.test((e as Error).message),
    );
    assert.throws(() => removeCodexServer(broken, PATH), isConfig);
  }
});

// the pieces of generated TOML documents: content full of what fools a line scanner
const TRICKY = fc.string({
  unit: fc.constantFrom('a', ' ', '[', ']', '"', "'", '#', '=', '\\', '\n', '"""', "'''", '[mcp_servers.axme]', 'mcp_servers.axme = 1', '{', '}', '.'),
  maxLength: 12,
});
const oneLine = (s: string) => s.replace(/\n/g, ' ');
const VALUE = fc.oneof(
  TRICKY.map((s) => JSON.stringify(s)),
  TRICKY.map((s) => `'${oneLine(s).replace(/'/g, '"')}'`),
  TRICKY.map((s) => `"""${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"""`),
  TRICKY.map((s) => `'''${s.replace(/'/g, '"')}'''`),
  fc.integer().map(String),
  fc
    .array(
      TRICKY.map((s) => JSON.stringify(s)),
      { maxLength: 3 },
    )
    .map((xs) => `[\n  ${xs.join(',\n  ')}\n]`),
);
const COMMENT = TRICKY.map((s) => ` # ${oneLine(s)}`);
const KEYS = fc.uniqueArray(fc.constantFrom('k', 'k2', '"q k"', "'lit.key'", 'mcp_servers', 'axme', 'command'), { maxLength: 4 });
const BODY = KEYS.chain((keys) => fc.tuple(...keys.map((k) => fc.tuple(VALUE, fc.option(COMMENT)).map(([v, c]) => `${k} = ${v}${c ?? ''}`))));
const TABLES = fc.uniqueArray(fc.constantFrom('a', 'mcp_servers', 'mcp_servers.github', 'b."x y"', 'profiles.fast', 'mcp_servers.axm'), { maxLength: 3 });
const DOCUMENT = fc
  .tuple(
    BODY,
    TABLES.chain((names) => fc.tuple(...names.map((n) => fc.tuple(fc.option(COMMENT), BODY).map(([c, b]) => [`[${n}]${c ?? ''}`, ...b])))),
    fc.constantFrom('', '\n', '\n\n', '\n# end\n', '\n  '),
  )
  .map(([top, tables, end]) => [...top, ...tables.flatMap((t) => ['', ...t])].join('\n') + end);

test('security: generated TOML documents (multi-line strings, literal strings, comments, tricky content): init refuses (CONFIG; always for a file that does not parse) or adds exactly the table; uninstall gives back every byte', () => {
  fc.assert(
    fc.property(DOCUMENT, (original) => {
      let valid = true;
      try {
        data(original);
      } catch {
        valid = false;
      }
      let added: string;
      try {
        added = mergeCodexServer(original, ENTRY, PATH);
      } catch (err) {
        assert.ok(isConfig(err), String(err));
        return;
      }
      assert.ok(valid, 'a file that does not parse is refused');
      assert.deepEqual(data(added), plusTable(original));
      assert.equal(removeCodexServer(added, PATH), original.trim() === '' ? null : original);
    }),
    { numRuns: 400 },
  );
});

/** Gemini CLI's settings as a user keeps them: comments, their own hooks and keys beside and inside what axme edits. */
const GEMINI_BEFORE = `// my Gemini settings
{
  "theme": "GitHub", // the theme
  /* servers */
  "mcpServers": {
    // my server
    "mine": { "command": "my-mcp" }, // keep
  },
  "hooks": {
    // my own hook on every tool
    "BeforeTool": [
      { "hooks": [{ "type": "command", "command": "my-check" }] }, // mine
    ],
    "custom": true, // a key of my own
  },
  "tail": [1, 2], // last
}
`;

test("security: init then uninstall cannot lose a comment or a key of the user in Gemini CLI's settings (servers and hooks in one JSONC file)", async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    mkdirSync(join(dir, '.gemini'));
    writeFileSync(join(dir, '.gemini', 'settings.json'), GEMINI_BEFORE);
    await axmeOk(dir, ['init', '--no-git-hooks', '--no-scan', '--no-fetch-config', '--agent', 'gemini']);
    const added = readFileSync(join(dir, '.gemini', 'settings.json'), 'utf8');
    for (const kept of [
      '// my Gemini settings',
      '// the theme',
      '/* servers */',
      '// my server',
      '// keep',
      '// my own hook on every tool',
      '// mine',
      '"custom": true, // a key of my own',
      '// last',
    ])
      assert.ok(added.includes(kept), `init keeps ${kept}`);
    await axmeOk(dir, ['uninstall', '--agent', 'gemini']);
    assert.equal(readFileSync(join(dir, '.gemini', 'settings.json'), 'utf8'), GEMINI_BEFORE, 'uninstall gives back every byte');
  } finally {
    cleanup();
  }
});

test('security: a JSONC settings file with a UTF-8 byte order mark is accepted, and keeps its mark', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    mkdirSync(join(dir, '.vscode'));
    const before = '\uFEFF{\n  // mine\n  "servers": { "fetch": { "command": "uvx" } },\n}\n';
    writeFileSync(join(dir, '.vscode', 'mcp.json'), before);
    await axmeOk(dir, ['init', '--no-git-hooks', '--no-scan', '--no-fetch-config', '--agent', 'vscode']);
    const added = readFileSync(join(dir, '.vscode', 'mcp.json'), 'utf8');
    assert.ok(added.startsWith('\uFEFF{') && added.includes('// mine') && added.includes('"axme"'), added);
    await axmeOk(dir, ['uninstall', '--agent', 'vscode']);
    assert.equal(readFileSync(join(dir, '.vscode', 'mcp.json'), 'utf8'), before);
    // strict JSON with a mark too
    writeFileSync(join(dir, '.vscode', 'mcp.json'), '\uFEFF{"servers": {}}');
    await axmeOk(dir, ['init', '--no-git-hooks', '--no-scan', '--no-fetch-config', '--agent', 'vscode']);
    assert.ok(readFileSync(join(dir, '.vscode', 'mcp.json'), 'utf8').startsWith('\uFEFF{'));
  } finally {
    cleanup();
  }
});

// generated JSONC: comments before and after items, trailing commas, objects on one line or spread
const COMMENT_JSON = fc.constantFrom('', ' // note', ' /* note */');
const LEAF = fc.oneof(fc.integer(), fc.constantFrom('x', 'a "quoted" // not a comment', true, null));
const jsoncOf = (entries: [string, unknown, string, string][], ind: string, trailing: boolean, oneLine: boolean): string => {
  if (oneLine || !entries.length) return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')} }`;
  const lines = entries.map(
    ([k, v, before, after], i) =>
      `${before ? `${ind}  //${before}\n` : ''}${ind}  ${JSON.stringify(k)}: ${typeof v === 'string' && v.startsWith('{') ? v : JSON.stringify(v)}${i < entries.length - 1 || trailing ? ',' : ''}${after}`,
  );
  return `{\n${lines.join('\n')}\n${ind}}`;
};
const ENTRIES = fc.uniqueArray(fc.tuple(fc.constantFrom('theme', 'mine', 'tail', 'custom', 'other'), LEAF, fc.constantFrom('', ' above'), COMMENT_JSON), {
  selector: (e) => e[0],
  maxLength: 3,
});
const HOOK_GROUP = fc.constantFrom('{ "hooks": [{ "type": "command", "command": "my-check" }] }', '{ "matcher": "x", "hooks": [] }');
const GEMINI_DOC = fc
  .record({
    top: ENTRIES, // a list or object of the user's left empty goes with axme's last entry: the generated ones hold one at least
    servers: fc.option(ENTRIES.filter((e) => e.length > 0)),
    events: fc.option(fc.array(HOOK_GROUP, { minLength: 1, maxLength: 2 })),
    trailing: fc.boolean(),
    oneLine: fc.boolean(),
    head: fc.constantFrom('', '// settings\n'),
  })
  .map(({ top, servers, events, trailing, oneLine, head }) => {
    const entries: [string, unknown, string, string][] = top.map(([k, v, b, a]) => [k, v, b.trim() ? b : '', a]);
    if (servers)
      entries.push([
        'mcpServers',
        jsoncOf(
          servers.map(([k, v, b, a]) => [k, { command: String(v) }, b.trim() ? b : '', a]),
          '  ',
          trailing,
          oneLine,
        ),
        '',
        ' // servers',
      ]);
    if (events)
      entries.push([
        'hooks',
        `{\n    "BeforeTool": [${events.map((e) => `\n      ${e}, // mine`).join('')}\n    ],\n    "custom": true // my key\n  }`,
        ' hooks',
        '',
      ]);
    return `${head}${jsoncOf(entries, '', trailing, false)}\n`;
  })
  // JSONC only: a strict JSON file is written back in its indentation, not edited in place
  .filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  });

test("security: generated JSONC settings (comments, trailing commas, the user's servers and hooks): Gemini CLI's init keeps every comment and key, uninstall gives back every byte", async () => {
  const { gemini } = await import('../../src/setup/clients/gemini.ts');
  const { mergeJsonServer, removeJsonServer } = await import('../../src/setup/clients/json-mcp.ts');
  const { mergeClientHooks, removeClientHooks } = await import('../../src/setup/clients/hooks.ts');
  const { parse } = await import('jsonc-parser');
  const client = { ...gemini, hooks: gemini.hooks };
  const format = { kind: 'json', key: 'mcpServers' } as const;
  fc.assert(
    fc.property(GEMINI_DOC, (original) => {
      const errors: unknown[] = [];
      const before = parse(original, errors as never, { allowTrailingComma: true });
      assert.deepEqual(errors, [], original);
      const added = mergeClientHooks(client, mergeJsonServer(original, format, { command: 'axme', args: ['serve'] }, 'settings.json'), 'settings.json');
      const after = parse(added, [], { allowTrailingComma: true });
      assert.ok(after.mcpServers.axme && after.hooks.BeforeTool.length === (before.hooks?.BeforeTool?.length ?? 0) + 1, added);
      const comments = (text: string) => text.match(/\/\/ (?:note|above|servers|mine|my key|hooks|settings)|\/\* note \*\//g)?.sort();
      assert.deepEqual(comments(added), comments(original), 'init keeps every comment');
      assert.equal(
        mergeClientHooks(client, mergeJsonServer(added, format, { command: 'axme', args: ['serve'] }, 'settings.json'), 'settings.json'),
        added,
        'a second run changes no byte',
      );
      const removed = removeJsonServer(removeClientHooks(client, added, 'settings.json')!, format, 'settings.json');
      assert.equal(removed, Object.keys(before).length ? original : null);
    }),
    { numRuns: 300 },
  );
});
