/**
 * The documentation against the code it describes: the repository explains itself (no citation of
 * a document it does not contain, every page and section the code points to exists), and
 * docs/architecture.md says what is — its tables of folders and hand commands, and the four
 * recipes of "Extending axme", each checked here against the registry it relies on.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { run } from '../src/cli/main.ts';
import { ERROR_CODES, USAGE_CODES } from '../src/model/errors.ts';
import { FAMILIES } from '../src/model/families.ts';
import { SPECS } from '../src/model/paths.ts';
import { OPERATIONS } from '../src/operations/index.ts';
import { ADAPTERS } from '../src/setup/clients/adapters.ts';
import { CLI, cleanEnv } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** Every file under `dir` (repository-relative), node_modules and dot-folders left out. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const e of readdirSync(join(ROOT, at), { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = join(at, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** The headings of a Markdown text, code fences skipped. */
function headings(text: string): Array<{ level: number; title: string }> {
  const out: Array<{ level: number; title: string }> = [];
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const m = !fence && /^(#{1,6}) (.+)$/.exec(line);
    if (m) out.push({ level: m[1]!.length, title: m[2]!.trim() });
  }
  return out;
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens; repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { title } of headings(text)) {
    const base = title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** The text under a heading, up to the next heading of the same or a higher level. */
function section(text: string, title: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^#{1,6} /.test(l) && l.replace(/^#+ /, '').trim() === title);
  assert.ok(start >= 0, `a heading "${title}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  let end = start + 1;
  let fence = false;
  for (; end < lines.length; end++) {
    if (/^\s*(```|~~~)/.test(lines[end]!)) fence = !fence;
    const m = !fence && /^(#{1,6}) /.exec(lines[end]!);
    if (m && m[1]!.length <= level) break;
  }
  return lines.slice(start + 1, end).join('\n');
}

/** The first cell of each row of the Markdown tables in `text`, header and rule left out. */
function firstCells(text: string): string[] {
  const rows = text.split('\n').filter((l) => l.startsWith('|'));
  return rows
    .filter((r) => !/^\|\s*-/.test(r))
    .slice(1)
    .map((r) => r.split('|')[1]!.trim());
}

/** The code spans of a text. */
const codeSpans = (text: string): string[] => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

/** The commands a `--help` lists (`axme decision add` gives "decision add"), arguments left out. */
const helpCommands = (help: string): string[] => [...help.matchAll(/^ {2}axme ((?:[a-z][a-z-]*)(?: [a-z][a-z-]*)*)/gm)].map((m) => m[1]!);

/** What `axme <words> --help` prints, from the CLI's entry in-process (the same parser the binary runs). */
async function helpOf(words: string[]): Promise<string> {
  let out = '';
  const stdout = new PassThrough().on('data', (d) => (out += d));
  const io = { cwd: tmpdir(), env: cleanEnv(), stdin: Readable.from([]), stdout, stderr: new PassThrough(), self: { execPath: process.execPath, script: CLI } };
  assert.equal(await run([...words, '--help'], io), 0, `axme ${words.join(' ')} --help`);
  return out;
}

/** The top-level commands `axme --help` lists. */
async function cliCommands(): Promise<string[]> {
  const top = helpCommands(await helpOf([]));
  assert.ok(top.length > 10, 'axme --help lists the commands');
  return top;
}

describe('the repository explains itself', () => {
  test('nothing cites a design document the repository does not contain', () => {
    const cited = new RegExp(`${'DESIGN'}(\\.md| §)|shared/${'reference'}/`);
    const files = ['src', 'test', 'docs', 'scripts', 'bench', '.ci']
      .filter((d) => existsSync(join(ROOT, d)))
      .flatMap(filesUnder)
      .concat(['README.md', '.dependency-cruiser.cjs', 'package.json']);
    const hits: string[] = [];
    for (const f of files) {
      const text = read(f);
      if (text.includes('\0')) continue;
      text.split('\n').forEach((line, i) => cited.test(line) && hits.push(`${f}:${i + 1}`));
    }
    assert.deepEqual(hits, [], 'write what the code relies on into docs/ and point there');
  });

  test('every page the code and the tests point to exists, with the section it names', () => {
    const problems: string[] = [];
    let count = 0;
    const sources = filesUnder('src').filter((p) => p.endsWith('.ts'));
    // in the tests, comments only: their data names made-up pages (anchors of items)
    const tests = filesUnder('test').filter((p) => p.endsWith('.ts'));
    const comments = (text: string) =>
      text
        .split('\n')
        .filter((l) => /^\s*(\*|\/\/|\/\*\*)/.test(l))
        .join('\n');
    for (const f of [...sources, ...tests]) {
      const text = sources.includes(f) ? read(f) : comments(read(f));
      for (const m of text.matchAll(/docs\/([\w-]+\.md)(?:#([\w-]+)|, "([^"]+)")?/g)) {
        count++;
        const page = join('docs', m[1]!);
        if (!existsSync(join(ROOT, page))) {
          problems.push(`${f}: ${page} does not exist`);
          continue;
        }
        const doc = read(page);
        const title = m[3]?.replace(/\s*\n\s*\*?\s*/g, ' ');
        if (m[2] && !anchorsOf(doc).has(m[2])) problems.push(`${f}: ${page} has no section #${m[2]}`);
        if (title && !headings(doc).some((h) => h.title.toLowerCase().includes(title.toLowerCase()))) problems.push(`${f}: ${page} has no section "${title}"`);
      }
    }
    assert.ok(count > 50, `the source points to docs/ (${count} times)`);
    assert.deepEqual(problems, []);
  });

  test('the links between the pages lead to a file and a section that exist', () => {
    const problems: string[] = [];
    for (const f of [...filesUnder('docs').filter((p) => p.endsWith('.md')), 'README.md']) {
      // links in code (an example of another tool's file) are not the page's own
      const text = read(f)
        .replace(/```[^]*?```/g, '')
        .replace(/`[^`\n]*`/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path ? relative(ROOT, resolve(ROOT, dirname(f), path)) : f;
        if (!existsSync(join(ROOT, file))) {
          problems.push(`${f}: ${target}: no file ${file}`);
          continue;
        }
        if (anchor && file.endsWith('.md') && !anchorsOf(read(file)).has(anchor)) problems.push(`${f}: ${target}: no section #${anchor} in ${file}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  test("README.md's Documentation list names every page of docs/", () => {
    const listed = section(read('README.md'), 'Documentation');
    const pages = readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md'));
    assert.deepEqual(
      pages.filter((p) => !listed.includes(`(docs/${p})`)),
      [],
    );
  });
});

describe('docs/architecture.md describes the code as it is', () => {
  const arch = read('docs/architecture.md');
  const folders = (dir: string) => readdirSync(join(ROOT, dir)).filter((n) => statSync(join(ROOT, dir, n)).isDirectory());
  const named = (cells: string[]) => new Set(cells.flatMap(codeSpans).map((s) => s.split('/')[0]!));

  test('every folder of src/ has a row in the layers table', () => {
    const rows = named(firstCells(section(arch, 'The layers')));
    assert.deepEqual(
      folders('src').filter((f) => !rows.has(f)),
      [],
    );
  });

  test('every folder of src/knowledge/ has a row in the table of knowledge/', () => {
    const rows = named(firstCells(section(arch, 'Inside `knowledge/`')));
    assert.deepEqual(
      folders('src/knowledge').filter((f) => !rows.has(f)),
      [],
    );
  });

  test('the commands by hand are the CLI commands no operation declares', async () => {
    const top = await cliCommands();
    const declared = new Set(OPERATIONS.flatMap((op) => (op.cli ? [op.cli.command[0]!] : [])));
    const byHand = top.filter((w) => !declared.has(w)).sort();
    const table = firstCells(section(arch, 'Commands by hand')).flatMap(codeSpans).sort();
    assert.ok(byHand.length > 0);
    assert.deepEqual(table, byHand);
  });
});

describe('the recipes of "Extending axme" hold', () => {
  const arch = read('docs/architecture.md');
  const recipes = section(arch, 'Extending axme');

  test('every file a recipe names exists', () => {
    const paths = codeSpans(recipes).filter((s) => /^(src|test|docs)\/[\w./-]+$/.test(s));
    assert.ok(paths.length > 15, `${paths.length} paths`);
    assert.deepEqual(
      paths.filter((p) => !existsSync(join(ROOT, p))),
      [],
    );
  });

  // a new operation: the MCP server's tool list equals the operations that declare mcp (test/mcp.test.ts),
  // and each operation with command words is in its parent's help (test/cli/command-tree.test.ts)

  test('a new kind: every kind in SPECS has its file format under "Item kinds" in docs/storage.md', () => {
    const titles = section(read('docs/storage.md'), 'Item kinds')
      .split('\n')
      .filter((l) => l.startsWith('### '));
    const specs = Object.values(SPECS);
    assert.ok(specs.length >= 8);
    assert.deepEqual(
      specs.filter((s) => !titles.some((t) => t.includes(`\`${s.dir}/`))).map((s) => s.kind),
      [],
    );
  });

  test('a new safety family: every family in FAMILIES has its row in docs/safety.md, with its default and promise', () => {
    const rows = section(read('docs/safety.md'), 'Rule families past the lists')
      .split('\n')
      .filter((l) => l.startsWith('| `'));
    assert.deepEqual(
      FAMILIES.filter((f) => !rows.some((r) => r.startsWith(`| \`${f.name}\` (${f.action}) | ${f.promise} |`))).map((f) => f.name),
      [],
    );
  });

  test('a new client: every adapter has its two files and is named in docs/clients.md', () => {
    const listed = section(read('docs/clients.md'), 'One adapter per client');
    for (const a of ADAPTERS) {
      assert.ok(existsSync(join(ROOT, 'src/setup/clients', `${a.id}.ts`)), `${a.id}.ts`);
      assert.ok(existsSync(join(ROOT, 'src/setup/clients', `${a.id}.hook.ts`)), `${a.id}.hook.ts`);
      assert.ok(listed.includes(`\`${a.id}\``), `docs/clients.md names ${a.id}`);
    }
  });
});

// docs/cli.md's exit-code table named no NOT_ALLOWED or UNAVAILABLE: every error code is in the
// row of the exit it gives (USAGE_CODES: 2, the rest: 1), so a new code cannot go unsaid.
describe("docs/cli.md's exit codes are the program's", () => {
  test('every error code is in the row of its exit code', () => {
    const text = readFileSync(resolve(import.meta.dirname, '../docs/cli.md'), 'utf8');
    const row = (exit: number) => text.split('\n').find((l) => l.startsWith(`| ${exit} |`)) ?? '';
    for (const code of ERROR_CODES) {
      const exit = USAGE_CODES.has(code) ? 2 : 1;
      assert.ok(row(exit).includes(`\`${code}\``), `${code} (exit ${exit}) is not in docs/cli.md's row for exit ${exit}`);
      assert.ok(!row(3 - exit).includes(`\`${code}\``), `${code} is in the row of the other exit`);
    }
  });
});
