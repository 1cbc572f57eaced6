import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createServerContext } from '../../src/mcp/context.ts';
import { registerResources } from '../../src/mcp/resources.ts';
import { ANCHORED_KINDS } from '../../src/model/anchor.ts';
import { idLineOf, parseId } from '../../src/model/ids.ts';
import { type KindFacts, type KindTables, kindTables } from '../../src/model/kind-facts.ts';
import { ID_KINDS, KIND_ORDER, KIND_TABLES, KINDS, type KindName, kindOfPrefix } from '../../src/model/kinds.ts';
import { isLive, LIVE_STATUSES } from '../../src/model/liveness.ts';
import { SPECS } from '../../src/model/paths.ts';
import { SEARCH_KINDS } from '../../src/model/search-kinds.ts';
import { noMatches } from '../../src/operations/search-text.ts';
import { navTabs } from '../../src/ui/html.ts';
import { route } from '../../src/ui/routes.ts';
import { kindListView } from '../../src/ui/views/kind-list.ts';
import { coreAt, initCore, withCore } from '../core.ts';
import { cleanEnv, tempRepo } from '../helpers.ts';

/** A kind no build of axme has: every fact set, so every table must name it. */
const ticket: KindFacts<'ticket'> = {
  kind: 'ticket',
  dir: 'tickets',
  idPrefix: 'T',
  live: ['open'],
  anchored: true,
  searchable: true,
  noun: 'ticket',
  plural: 'tickets',
  heading: 'Tickets',
  order: 4.5,
  listCommand: 'axme ticket list',
  resource: true,
  page: '/tickets',
};

/** Whether one derived table names the kind (a list, a map, a record by kind, a pattern of its IDs). */
function names(table: KindTables<string>[keyof KindTables<string>], facts: KindFacts): boolean {
  if (table instanceof RegExp) return facts.idPrefix !== undefined && table.test(`${facts.idPrefix}-001`);
  if (table instanceof Map) return [...table.values()].includes(facts.kind);
  if (Array.isArray(table)) return table.includes(facts.kind) || table.includes(facts.page);
  return Object.hasOwn(table, facts.kind) || Object.hasOwn(table, facts.page);
}

describe('kinds: one declaration each, every table derived', () => {
  test('a throwaway kind is in every derived table, and a table that skipped it would fail here', () => {
    const base = Object.values(KINDS) as KindFacts[];
    const tables = kindTables<string>([...base, ticket]);
    const keys = Object.keys(tables) as Array<keyof KindTables<string>>;
    assert.ok(keys.length >= 10, `the tables: ${keys.join(', ')}`);
    for (const key of keys) assert.ok(names(tables[key], ticket), `the table ${key} misses the kind ticket`);
    // and none of them holds it without the declaration
    const without = kindTables<string>(base);
    for (const key of keys) assert.equal(names(without[key], ticket), false, `the table ${key} names ticket though it is not declared`);
    // its place in listing order comes from its declaration
    assert.deepEqual(tables.names.slice(2, 5), ['question', 'backlog', 'ticket']);
    assert.deepEqual(tables.liveStatuses.ticket, ['open']);
    assert.equal(tables.kindOfPrefix.get('T'), 'ticket');
  });

  test('a kind with no display ID, no status and nothing else is left out of every table but the ones of all kinds', () => {
    const bare: KindFacts<'note'> = {
      ...ticket,
      kind: 'note',
      dir: 'notes',
      idPrefix: undefined,
      live: undefined,
      anchored: false,
      searchable: false,
      resource: false,
      page: '/notes',
    };
    delete bare.idPrefix;
    delete bare.live;
    const tables = kindTables<string>([...(Object.values(KINDS) as KindFacts[]), bare]);
    assert.ok(tables.names.includes('note'));
    assert.equal(tables.liveStatuses.note, null);
    assert.equal(tables.pageOf.note, '/notes');
    for (const key of ['idKinds', 'liveKinds', 'searchKinds', 'anchoredKinds', 'resourceKinds'] as const)
      assert.equal(tables[key].includes('note'), false, key);
  });

  test('two kinds with one folder or one display-ID letter are refused', () => {
    const base = Object.values(KINDS) as KindFacts[];
    assert.throws(() => kindTables<string>([...base, { ...ticket, idPrefix: 'D' }]), /idPrefix D/);
    assert.throws(() => kindTables<string>([...base, { ...ticket, dir: 'decisions' }]), /dir decisions/);
    assert.throws(() => kindTables<string>([...base, { ...ticket, idPrefix: 'TK' }]), /one capital letter/);
  });

  test('the file format of every kind carries its declaration unchanged', () => {
    assert.deepEqual(Object.keys(SPECS).sort(), Object.keys(KINDS).sort());
    for (const kind of Object.keys(KINDS) as KindName[]) {
      const spec = SPECS[kind] as unknown as Record<string, unknown>;
      for (const [fact, value] of Object.entries(KINDS[kind])) assert.deepEqual(spec[fact], value, `${kind}.${fact}`);
    }
  });

  test('the tables the code reads are the ones derived from KINDS', () => {
    assert.deepEqual([...KIND_ORDER].sort(), Object.keys(KINDS).sort());
    assert.deepEqual(
      ID_KINDS,
      KIND_ORDER.filter((k) => 'idPrefix' in KINDS[k]),
    );
    assert.deepEqual(
      [...SEARCH_KINDS],
      KIND_ORDER.filter((k) => KINDS[k].searchable),
    );
    assert.deepEqual(
      [...ANCHORED_KINDS],
      KIND_ORDER.filter((k) => KINDS[k].anchored),
    );
    for (const kind of ID_KINDS) {
      const prefix = SPECS[kind].idPrefix!;
      assert.deepEqual(parseId(`${prefix.toLowerCase()}-042`), { prefix, n: 42 });
      assert.equal(kindOfPrefix(prefix), kind);
      assert.equal(idLineOf(`---\nid: '${prefix}-007'\ntitle: [broken`), `${prefix}-007`, 'the number of a broken file stays taken');
    }
    assert.equal(parseId('T-001'), null, 'a letter no kind declares is no display ID');
    assert.equal(idLineOf('id: T-001'), undefined);
    for (const kind of KIND_ORDER) {
      const live = LIVE_STATUSES[kind];
      assert.equal(isLive(kind, { status: 'no-such-status' }), live === null, kind);
      for (const s of live ?? []) assert.ok(isLive(kind, { status: s }), `${kind} ${s}`);
    }
  });

  test('an empty search of one kind names the kind as its declaration does', () => {
    for (const kind of SEARCH_KINDS)
      assert.ok(noMatches('xylophone', kind, '--type all').startsWith(`No matches for "xylophone" in ${KINDS[kind].plural}.`), kind);
    assert.ok(noMatches('xylophone', 'all', '--type all').startsWith('No matches for "xylophone" in any kind.'));
  });

  test('every page that lists a kind is served by axme ui', () => {
    for (const page of KIND_TABLES.pages) assert.ok(route(page), `no route for ${page}`);
    for (const kind of KIND_ORDER) assert.ok(KIND_TABLES.pages.includes(KIND_TABLES.pageOf[kind]), kind);
  });

  test('a throwaway kind is served by the MCP server as resources and by axme ui as a page with its tab', async () => {
    const declared = [...(Object.values(KINDS) as KindFacts[]), ticket];
    const tables = kindTables<string>(declared);
    // the page: a route, and a tab labelled with its heading
    assert.ok(route('/tickets', tables), 'no route for the page of tickets');
    assert.equal(route('/tickets'), null, 'the page is served only when the kind is declared');
    assert.ok(navTabs(tables).some(([path, label]) => path === '/tickets' && label === 'Tickets'));
    assert.equal(
      navTabs().some(([path]) => path === '/tickets'),
      false,
    );
    // the MCP resources: a template per resource kind, listed through a real client
    const repo = tempRepo({ commit: true });
    const ctx = createServerContext({ cwd: repo.dir, env: cleanEnv(), log: () => {} });
    const server = new McpServer({ name: 'axme-test', version: '0' });
    const client = new Client({ name: 'test', version: '0' });
    try {
      await initCore(repo.dir);
      registerResources(server, ctx, declared);
      const [a, b] = InMemoryTransport.createLinkedPair();
      await Promise.all([server.connect(a), client.connect(b)]);
      const { resourceTemplates } = await client.listResourceTemplates();
      assert.deepEqual(
        resourceTemplates.map((t) => t.uriTemplate),
        tables.resourceKinds.map((kind) => `axme://${declared.find((k) => k.kind === kind)!.dir}/{slug}`),
      );
      const { resources } = await client.listResources();
      assert.deepEqual(resources, [], 'a new repository has no items, of the new kind either');
    } finally {
      await client.close();
      await server.close();
      await ctx.close();
      repo.cleanup();
    }
  });

  test('the page of a kind without a view of its own lists its items, each linked to its page', async () => {
    const repo = tempRepo({ commit: true });
    try {
      const c = coreAt(repo.dir);
      await c.init();
      await c.addDecision({ title: 'Keep <b>money</b> in cents', decision: 'Integers.', reasoning: 'No rounding.' });
      const view = kindListView('/ledger', 'Ledger', [
        { kind: 'decision', heading: 'Decisions' },
        { kind: 'plan', heading: 'Plans' },
      ]);
      const r = await withCore(repo.dir, (kb) =>
        view({ kb, at: undefined, cwd: repo.dir, env: cleanEnv(), actions: null }, new URL('http://127.0.0.1/ledger'), []),
      );
      assert.ok('body' in r);
      assert.equal(r.active, '/ledger');
      assert.match(r.body.text, /<a href="\/item\/decision\/keep-b-money-b-in-cents">D-001 Keep &lt;b&gt;money&lt;\/b&gt; in cents<\/a>/);
      assert.match(r.body.text, /<h2>Plans<\/h2><p class="empty">No plans yet.<\/p>/);
    } finally {
      repo.cleanup();
    }
  });
});
