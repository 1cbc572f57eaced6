/**
 * Search on input nobody here wrote (issue 33): one store of awkward items (accents in NFC and NFD,
 * CJK, right-to-left text, identifiers, paths, URLs, numbers, Markdown tables and fences, a
 * superseded decision, a file of front matter only, an empty body, a large body, a file too large
 * to read) and a table of awkward queries, each asked of every surface — the core operation, the
 * CLI in-process (its exit code, stdout and stderr), the CLI's query at the tip, the real MCP
 * client over stdio and the page (`axme ui`) — which must give the same ranking; a query that is
 * not one gets the same clear error everywhere (exit 2 on the CLI), never a stack trace.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { tipSearch } from '../../src/cli/tip-search-main.ts';
import { SEARCH_KINDS } from '../../src/model/search.ts';
import { search } from '../../src/operations/search.ts';
import { axmeIn } from '../cli-in-process.ts';
import { coreAt, exitCodeOf, runOp } from '../core.ts';
import { axme, cleanEnv, git, importCommit, tempRepo } from '../helpers.ts';
import { connectStdio, resultText, type ToolResult } from '../mcp/stdio-client.ts';
import { startUi, type UiProcess } from '../ui/fixture.ts';

type Hit = { kind: string; slug: string; id?: string | null; via?: string };
const keyOf = (h: Hit) => `${h.kind}/${h.slug}`;

const NFC = (s: string) => s.normalize('NFC');
const NFD = (s: string) => s.normalize('NFD');

/** Front matter of a decision written by hand (no axme wrote it): `extra` lines before its end. */
const handWritten = (id: string, title: string, body: string) =>
  `---\nid: ${id}\ntitle: ${title}\nstatus: active\nenforce: advisory\nsource: human\ncreated: 2026-01-01T00:00:00.000Z\nupdated: 2026-01-01T00:00:00.000Z\n---\n${body}`;

const S = {
  postgres: 'decision/use-postgres-17-for-orders',
  cafe: 'decision/cafe-menus-are-cached',
  creme: 'decision/creme-brulee-for-dessert',
  verify: 'decision/never-run-git-commit-no-verify',
  zod: 'decision/validate-with-z-infer-types',
  cjk: 'decision/東京-servers-handle-日本語-text',
  retry: 'decision/retry-uploads-three-times',
  unspaced: 'decision/japanese-without-spaces',
  marked: 'decision/thai-and-hindi-text',
  istanbul: 'decision/servers-in-istanbul',
  table: 'memory/tables-and-fences',
  logging: 'backlog/add-request-logging',
  refunds: 'question',
  frontOnly: 'decision/front-only',
  emptyBody: 'decision/empty-body',
  large: 'decision/large-body',
} as const;

/**
 * One query of the battery: the first hit it must give (a kind/slug, or a kind alone), none (`noWords`: the query holds no word
 * search looks for, and the answer says so), a usage error, or (none of these) any answer the surfaces agree on.
 */
type Case = { query: string; first?: string; none?: true; noWords?: true; error?: RegExp; type?: string; todo?: string };

const WORDS_999 = `${'quux '.repeat(190)}walrus`.padEnd(999, ' ');
const CASES: Case[] = [
  // plain words, each kind
  { query: 'orders postgres', first: S.postgres },
  { query: 'request logging', first: S.logging },
  { query: 'refunds approval', first: S.refunds },
  { query: 'walrus', first: S.table },
  { query: 'kappa', first: S.table },
  // a word only the superseded decision holds: its live successor, `via` the old one
  { query: 'sharding', first: S.postgres },
  // nothing to look for, or nothing that matches: no hits, exit 0, never an error
  { query: 'the of and', none: true, noWords: true },
  { query: 'xylophone', none: true },
  { query: '???', none: true, noWords: true },
  { query: '--', none: true, noWords: true },
  { query: '-', none: true, noWords: true },
  { query: '...', none: true, noWords: true },
  // regex and glob characters are text
  { query: 'a.*b', none: true, noWords: true },
  { query: '[x]', none: true, noWords: true },
  { query: '(', none: true, noWords: true },
  { query: '\\', none: true, noWords: true },
  { query: '*.ts' },
  { query: '*.xyz', none: true },
  { query: '$(rm -rf /)', none: true },
  { query: '%s %d', none: true, noWords: true },
  { query: '<script>alert(1)</script>' },
  { query: 'walrus [x] (', first: S.table },
  // accents, both normal forms, any case
  { query: NFC('café'), first: S.cafe },
  { query: NFD('café'), first: S.cafe },
  { query: 'CAFÉ', first: S.cafe },
  { query: 'cafe', first: S.cafe },
  { query: NFC('résumé'), first: S.cafe },
  { query: NFC('crème brûlée'), first: S.creme },
  { query: NFD('crème brûlée'), first: S.creme },
  { query: 'creme brulee', first: S.creme },
  // other scripts
  // held by two items: one in its title, one inside a sentence written without spaces (which of
  // the two is first is the ranking's call: a store's one very long body makes every short body count more)
  { query: '東京 servers', first: S.cjk },
  { query: '日本語 text', first: S.cjk },
  { query: '東京のサーバー', first: S.unspaced },
  { query: '日本語を扱う', first: S.unspaced },
  { query: 'עברית', first: S.cjk },
  { query: 'مرحبا', first: S.cjk },
  { query: '🚀', first: S.cjk },
  { query: 'rockets 🚀', first: S.cjk },
  { query: 'İstanbul', first: S.istanbul },
  { query: 'ISTANBUL', first: S.istanbul },
  { query: 'istanbul', first: S.istanbul },
  { query: 'ｐｏｓｔｇｒｅｓ', first: S.postgres },
  { query: 'Straße', first: S.istanbul },
  { query: 'strasse', first: S.istanbul },
  { query: 'サーバー', first: S.unspaced },
  // a word inside Thai written without spaces (a dictionary cuts it), a Hindi word with its vowel
  // signs, Arabic with its vowel marks finding the text written without them
  { query: 'ข้อมูล', first: S.marked },
  { query: 'ฐานข้อมูล', first: S.marked },
  { query: 'खोज', first: S.marked },
  { query: 'हिन्दी', first: S.marked },
  { query: 'مَرْحَبًا', first: S.cjk },
  { query: '\u200b\u200b', none: true, noWords: true },
  // control and bidirectional characters, refused as in an item's text (a query is echoed back to a terminal)
  { query: 'zebra\u001b]0;title\u0007', error: /control character 0x1b/ },
  { query: 'admin\u202e', error: /bidirectional control character/ },
  // words no item holds, which the search looks for all the same: nothing matched (not "no word")
  { query: 'ガス', none: true },
  { query: '水', none: true },
  { query: '\u0301\u0301', none: true, noWords: true },
  // identifiers, paths, URLs
  { query: '--no-verify', first: S.verify },
  { query: 'no-verify', first: S.verify },
  { query: 'NO_VERIFY', first: S.verify },
  { query: 'z.infer', first: S.zod },
  { query: 'src/model/search.ts', first: S.zod },
  { query: 'https://zod.dev/api', first: S.zod },
  { query: 'snake_case_names', first: S.zod },
  { query: 'kebab-case-names', first: S.zod },
  { query: 'hooksPath', first: S.zod },
  { query: 'HOOKSPATH', first: S.zod },
  // numbers, IDs and slugs
  { query: '250', first: S.retry },
  { query: '250ms', first: S.retry },
  { query: 'use-postgres-17-for-orders', first: S.postgres },
  { query: 'D-002', first: S.postgres },
  { query: 'd-002', first: S.postgres },
  { query: 'B-001', first: S.logging },
  // items written by hand
  { query: 'frontmatter only', first: S.frontOnly },
  { query: 'empty body', first: S.emptyBody },
  { query: 'quokka', first: S.large },
  // --type narrows to one kind
  { query: 'orders', type: 'decision', first: S.postgres },
  { query: 'orders', type: 'memory', none: true },
  { query: 'logging', type: 'backlog', first: S.logging },
  // long queries: up to 1000 characters searched, longer refused with what to do
  { query: WORDS_999, first: S.table },
  { query: `${WORDS_999}xx`, error: /at most 1000 characters/ },
  { query: 'walrus '.repeat(1500), error: /at most 1000 characters/ },
  { query: Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' '), error: /at most 1000 characters/ },
  // no words at all
  { query: '', error: /say what to look for/ },
  { query: '   ', error: /say what to look for/ },
  { query: '\t\n', error: /say what to look for/ },
];

describe('search on input nobody here wrote: every surface, one answer', () => {
  let dir: string;
  let cleanup: () => void;
  let client: Client;
  let ui: UiProcess;
  const env = cleanEnv();
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    const c = coreAt(dir);
    await c.init();
    await c.addDecision({ title: 'Use Postgres for orders', decision: 'Orders live in Postgres.', reasoning: 'Sharding MySQL by hand was fragile.' });
    await c.supersede({ id: 'D-001', title: 'Use Postgres 17 for orders', decision: 'Orders live in Postgres 17.', reasoning: 'Incremental backups.' });
    await c.addDecision({ title: NFC('Café menus are cached'), decision: NFC('Le café des données: résumé of the naïve cache.') });
    await c.addDecision({ title: NFD('Crème brûlée for dessert'), decision: NFD('Every menu ends with crème brûlée.') });
    await c.addDecision({ title: 'Never run git commit --no-verify', decision: 'Hooks must run; --no-verify skips them.' });
    await c.addDecision({
      title: 'Validate with z.infer types',
      decision: 'Use z.infer<typeof Schema> in src/model/search.ts (https://zod.dev/api), snake_case_names and kebab-case-names; set core.hooksPath.',
    });
    await c.addDecision({ title: '東京 servers handle 日本語 text', decision: '絵文字 🚀 rockets, עברית right to left, مرحبا in Arabic.' });
    await c.addDecision({ title: 'Japanese without spaces', decision: '東京のサーバーは日本語を扱う。' });
    await c.addDecision({ title: 'Thai and Hindi text', decision: 'การตั้งค่าฐานข้อมูลทำงาน. हिन्दी में खोज करना.' });
    await c.addDecision({ title: 'Servers in İstanbul', decision: 'The office is on Bağdat Straße.' });
    await c.addDecision({ title: 'Retry uploads three times', decision: 'Wait 250 ms, then 250ms more, between tries.' });
    await c.addMemory({
      type: 'pattern',
      title: 'Tables and fences',
      description: 'A memory in Markdown.',
      body: '| name | value |\n| --- | --- |\n| kappa | 42 |\n\n```ts\nconst walrus = 1; // a.*b [x] (\n```\n',
    });
    await c.addBacklog({ title: 'Add request logging', description: 'Every HTTP request gets one structured line.' });
    await c.ask('Should refunds over 1000 EUR need a second approval?');
    // files no axme wrote: front matter only, an empty body, a large body, one too large to read
    importCommit(
      dir,
      [
        ['decisions/front-only.md', handWritten('D-020', 'Frontmatter only decision', '')],
        ['decisions/empty-body.md', handWritten('D-021', 'Empty body decision', '\n')],
        ['decisions/large-body.md', handWritten('D-022', 'Large body decision', `\n${'lorem ipsum dolor sit amet '.repeat(2300)}\nthe quokka is here\n`)],
        ['decisions/too-large.md', handWritten('D-023', 'Too large decision', `\n${'zebra crossing '.repeat(70_000)}\n`)],
      ],
      { from: git(dir, ['rev-parse', 'refs/memory/main']).trim() },
    );
    ({ client } = await connectStdio(dir, { session: 'search-input' }));
    ui = await startUi(dir);
  });
  after(async () => {
    await client?.close();
    await ui?.stop();
    cleanup();
  });

  const core = async (query: string, type = 'all') => runOp(dir, search, { query, k: 50, type });
  const cli = (query: string, type = 'all') => axmeIn(dir, ['search', '--json', '-k', '50', '--type', type, '--', query]);
  const mcp = async (query: string, type = 'all') =>
    (await client.callTool({ name: 'axme_search_kb', arguments: { query, k: 50, type } })) as unknown as ToolResult;
  const page = async (query: string, type = 'all') => {
    const res = await fetch(`${ui.url}/search?fragment=1&type=${type}&q=${encodeURIComponent(query)}`);
    return { status: res.status, body: await res.text() };
  };
  const pageHits = (body: string) => [...body.matchAll(/href="\/item\/([a-z]+)\/([^"]+)"/g)].map((m) => `${m[1]}/${decodeURIComponent(m[2]!)}`);
  /** `axme search` at the tip, as the launcher asks it: undefined when the tip cannot answer (the full CLI does). */
  const atTip = (query: string, type = 'all') => {
    let printed = '';
    const answered = tipSearch(['--json', '--k', '50', '--type', type, '--', query], { cwd: dir, env, write: (t) => (printed += t), note: () => {} });
    return answered ? (JSON.parse(printed) as { hits: Hit[] }).hits.map(keyOf) : undefined;
  };

  for (const c of CASES) {
    const name = `${JSON.stringify(c.query.length > 40 ? `${c.query.slice(0, 40)}…(${c.query.length})` : c.query)}${c.type ? ` --type ${c.type}` : ''}`;
    test(name, c.todo ? { todo: c.todo } : {}, async () => {
      const type = c.type ?? 'all';
      const fromCli = await cli(c.query, type);
      assert.doesNotMatch(fromCli.stderr, /^\s+at /m, 'no stack trace');
      if (c.error) {
        assert.equal(fromCli.code, 2, fromCli.stderr);
        assert.equal(fromCli.stdout, '');
        assert.match(fromCli.stderr, c.error);
        const fromCore = await core(c.query, type).then(
          () => undefined,
          (err: unknown) => err,
        );
        assert.equal(exitCodeOf(fromCore), 2, String(fromCore));
        const fromMcp = await mcp(c.query, type);
        assert.equal(fromMcp.isError, true, resultText(fromMcp));
        assert.match(resultText(fromMcp), c.error);
        const fromPage = await page(c.query, type);
        assert.ok(fromPage.status < 500, `page: ${fromPage.status}`);
        if (c.query.trim()) assert.match(fromPage.body, c.error);
        return;
      }
      assert.equal(fromCli.code, 0, fromCli.stderr);
      const hits = (JSON.parse(fromCli.stdout) as { hits: Hit[] }).hits;
      const ranking = hits.map(keyOf);
      if (c.none) assert.deepEqual(ranking, []);
      else if (c.first) {
        assert.ok(hits.length > 0, 'no hits');
        assert.ok(ranking[0] === c.first || ranking[0]!.startsWith(`${c.first}/`), `first: ${ranking[0]}, expected ${c.first}`);
      }
      assert.deepEqual((await core(c.query, type)).hits.map(keyOf), ranking, 'the core');
      const tip = atTip(c.query, type);
      if (tip) assert.deepEqual(tip, ranking, 'the query at the tip');
      const fromMcp = await mcp(c.query, type);
      assert.ok(!fromMcp.isError, resultText(fromMcp));
      assert.deepEqual((fromMcp.structuredContent.hits as Hit[]).map(keyOf), ranking, 'MCP');
      const fromPage = await page(c.query, type);
      assert.equal(fromPage.status, 200);
      assert.deepEqual(pageHits(fromPage.body), ranking, 'page');
      if (c.none) {
        // the answer in words: that nothing matched, or that the query holds no word to look for
        const said = c.noWords ? /has no word search looks for/ : /No matches for/;
        assert.match((await axmeIn(dir, ['search', '--type', type, '--', c.query])).stdout, said, 'CLI text');
        assert.match(resultText(fromMcp), said, 'MCP text');
        assert.match(fromPage.body, said, 'page');
      }
    });
  }

  test('a superseded decision that matches stands behind its successor: via names it', async () => {
    const [first] = (await core('sharding')).hits as Hit[];
    assert.equal(keyOf(first!), S.postgres);
    assert.equal(first!.via, 'use-postgres-for-orders');
  });

  test('a file too large to read is left out; the rest is searched', async () => {
    assert.deepEqual((await core('zebra crossing')).hits, []);
    assert.equal((await core('quokka')).hits.length, 1);
  });
});

describe('search: what only one surface is asked, and its usage errors', () => {
  let dir: string;
  let empty: string;
  let cleanup: () => void;
  let cleanupEmpty: () => void;
  let client: Client;
  let ui: UiProcess;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    ({ dir: empty, cleanup: cleanupEmpty } = tempRepo({ commit: true }));
    const c = coreAt(dir);
    await c.init();
    // one item: the store nobody has filled yet
    await c.addDecision({ title: 'Never run git commit --no-verify', decision: 'Hooks must run; 1e3 retries at most.' });
    ({ client } = await connectStdio(dir, { session: 'search-input-usage' }));
    ui = await startUi(dir);
  });
  after(async () => {
    await client?.close();
    await ui?.stop();
    cleanup();
    cleanupEmpty();
  });
  const kindsListed = new RegExp(SEARCH_KINDS.join('.*'), 's');

  test('words after -- are searched as written: a query that starts with "-", a number yargs would read as one', async () => {
    const dashed = await axmeIn(dir, ['search', '--json', '--', '--no-verify']);
    assert.equal(dashed.code, 0, dashed.stderr);
    assert.equal(JSON.parse(dashed.stdout).hits[0].slug, 'never-run-git-commit-no-verify');
    const mixed = await axmeIn(dir, ['search', 'git', '--', '--no-verify']);
    assert.equal(mixed.code, 0, mixed.stderr);
    assert.match(mixed.stdout, /never-run-git-commit-no-verify/);
    const number = await axmeIn(dir, ['search', '--', '1e3']);
    assert.equal(number.code, 0, number.stderr);
    assert.match(number.stdout, /never-run-git-commit-no-verify/);
    const none = await axmeIn(dir, ['search', '--', '0x10']);
    assert.match(none.stdout, /^No matches for "0x10"/);
  });

  test('a query that starts with "-" and no --: exit 2, saying to put the words after --', async () => {
    const r = await axmeIn(dir, ['search', '--no-verify']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /axme search -- --no-verify/);
  });

  test('a lone "-" is a word to search, as after -- and as the MCP tool and the page read it: a query with no word, said so', async () => {
    const said = /^"-" has no word search looks for/;
    for (const args of [
      ['search', '-'],
      ['search', '--json', '-'],
      ['search', '-', '--type', 'decision'],
      ['search', 'x', '-', 'y'],
    ]) {
      const words = args.filter((w, i) => w !== '--json' && i > 0 && w !== '--type' && args[i - 1] !== '--type');
      const asWritten = await axmeIn(dir, [...args.filter((w) => !words.includes(w)), '--', ...words]);
      assert.equal(asWritten.code, 0, asWritten.stderr);
      const r = await axmeIn(dir, args);
      assert.deepEqual(r, asWritten, args.join(' '));
      assert.deepEqual(await axme(dir, args), r, `the binary: ${args.join(' ')}`);
    }
    assert.match((await axmeIn(dir, ['search', '-'])).stdout, said);
    assert.match((await axmeIn(dir, ['search', 'x', '-', 'y'])).stdout, /^"x - y" has no word/);
    const mcp = (await client.callTool({ name: 'axme_search_kb', arguments: { query: '-' } })) as unknown as ToolResult;
    assert.ok(!mcp.isError, resultText(mcp));
    assert.match(resultText(mcp), said);
    assert.match(await (await fetch(`${ui.url}/search?fragment=1&q=-`)).text(), /has no word search looks for/);
  });

  test('-k and --limit: how many results, 1 to 100; anything else is exit 2 with the range', async () => {
    assert.equal((await axmeIn(dir, ['search', 'git', '--json', '--limit', '1'])).code, 0);
    for (const k of ['1', '100']) assert.equal((await axmeIn(dir, ['search', 'git', '-k', k])).code, 0, k);
    for (const [flag, k] of [
      ['-k', '0'],
      ['-k', '-1'],
      ['-k', '101'],
      ['-k', '1e9'],
      ['-k', 'abc'],
      ['-k', '2.5'],
      ['--limit', '0'],
      ['--limit', 'ten'],
    ] as const) {
      const r = await axmeIn(dir, ['search', 'git', `${flag}=${k}`]);
      assert.equal(r.code, 2, `${flag} ${k}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /\bk\b.*(at least 1|at most 100|a number|a whole number)/, `${flag} ${k}`);
    }
    const mcp = (await client.callTool({ name: 'axme_search_kb', arguments: { query: 'git', k: 0 } })) as unknown as ToolResult;
    assert.equal(mcp.isError, true);
    assert.match(resultText(mcp), /\bk\b/);
  });

  test('--type: each kind narrows to it; an unknown kind is refused with the kinds listed (exit 2 on the CLI)', async () => {
    for (const kind of SEARCH_KINDS) {
      const r = await axmeIn(dir, ['search', 'git', '--json', '--type', kind]);
      assert.equal(r.code, 0, `${kind}: ${r.stderr}`);
      assert.ok(
        (JSON.parse(r.stdout).hits as Hit[]).every((h) => h.kind === kind),
        kind,
      );
    }
    for (const given of ['nope', 'decisions', 'Decision', 'DECISION', '']) {
      const r = await axmeIn(dir, ['search', 'git', '--type', given]);
      assert.equal(r.code, 2, given);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, kindsListed, given);
      const mcp = (await client.callTool({ name: 'axme_search_kb', arguments: { query: 'git', type: given } })) as unknown as ToolResult;
      assert.equal(mcp.isError, true, given);
      assert.match(resultText(mcp), kindsListed, given);
      const page = await (await fetch(`${ui.url}/search?q=git&type=${encodeURIComponent(given)}`)).text();
      assert.doesNotMatch(page, /href="\/item\//, `page, type=${given}: no results of every kind`);
      assert.match(page, kindsListed, `page, type=${given}`);
    }
  });

  test('the MCP tool without a query says what to give it, in its own words', async () => {
    const r = (await client.callTool({ name: 'axme_search_kb', arguments: {} })) as unknown as ToolResult;
    assert.equal(r.isError, true);
    assert.match(resultText(r), /say what to look for/);
    assert.match(resultText(r), /query/);
    assert.doesNotMatch(resultText(r), /axme search <words>/);
  });

  test('--json: hits, commit and total, each hit with the fields docs/search.md names', async () => {
    const r = JSON.parse((await axmeIn(dir, ['search', 'git', '--json'])).stdout) as Record<string, unknown> & { hits: Array<Record<string, unknown>> };
    assert.deepEqual(Object.keys(r).sort(), ['commit', 'hits', 'total']);
    const docs = readFileSync(join(import.meta.dirname, '../../docs/search.md'), 'utf8');
    const section = /## What a search answers[\s\S]*?(?=\n## )/.exec(docs)?.[0] ?? '';
    assert.ok(section, 'docs/search.md has a section "What a search answers"');
    for (const field of ['hits', 'commit', 'total', ...Object.keys(r.hits[0]!), 'via', 'stale', 'stale_reason', 'store'])
      assert.match(section, new RegExp(`\`${field}\``), `docs/search.md names ${field}`);
  });

  test('the binary (its query at the tip, or the full CLI) prints what the CLI in-process prints; refusals on stderr, exit 2', async () => {
    for (const args of [
      ['search', 'git'],
      ['search', 'git', '--json'],
      ['search', '--', '--no-verify'],
      ['search', 'xylophone', '--type', 'memory'],
    ]) {
      const inProcess = await axmeIn(dir, args);
      const binary = await axme(dir, args);
      assert.deepEqual(binary, inProcess, args.join(' '));
    }
    for (const args of [
      ['search', '   '],
      ['search', 'x'.repeat(1001)],
      ['search', 'git', '-k', '0'],
      ['search', 'git', '--type', 'nope'],
    ]) {
      const r = await axme(dir, args);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^axme: /, args.join(' ').slice(0, 40));
      assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
    }
  });

  test('a store not made yet, and a folder outside git: exit 2 saying what to run', async () => {
    const none = await axmeIn(empty, ['search', 'git']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /axme init/);
    const json = await axmeIn(empty, ['search', 'git', '--json']);
    assert.equal(json.code, 2);
    assert.equal(JSON.parse(json.stderr).error.code, 'NOT_INITIALIZED');
    const mcp = (await client.callTool({ name: 'axme_search_kb', arguments: { query: 'git', project_path: empty } })) as unknown as ToolResult;
    assert.equal(mcp.isError, true);
    assert.match(resultText(mcp), /axme init/);
    const outside = await axmeIn(tmpdir(), ['search', 'git']);
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /not inside a git repository/);
  });
});
