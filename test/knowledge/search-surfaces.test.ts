/**
 * Search on every surface: `axme search` (the built CLI), `axme_search_kb` (the real MCP client
 * against `axme serve`) and the page (`axme ui`'s /search): every kind searched by default, each
 * hit with its kind, `--type` to narrow, an empty result that says what to try, and the same
 * ranking for the same query everywhere.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { finalizeClose } from '../../src/knowledge/close/finalize-close.ts';
import { scanOracle } from '../../src/knowledge/items/oracle/scan-oracle.ts';
import { coreAt, withCore } from '../core.ts';
import { axme, axmeOk, CLI, commitFiles, tempRepo } from '../helpers.ts';
import { connectStdio } from '../mcp/stdio-client.ts';
import { startUi, type UiProcess } from '../ui/fixture.ts';

describe('search on every surface', () => {
  let dir: string;
  let cleanup: () => void;
  let client: Client;
  let ui: UiProcess;
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    const c = coreAt(dir);
    await c.init();
    commitFiles(dir, { 'package.json': '{"name":"shop","dependencies":{"pg":"^8.11.0","express":"^5.0.0"}}\n' }, 'code: the shop');
    await c.addBacklog({ title: 'Add request logging', description: 'Every HTTP request gets one structured line.' });
    await c.addDecision({ title: 'Use Postgres for orders', decision: 'Orders live in Postgres.', reasoning: 'Transactions across order lines.' });
    await c.addMemory({ type: 'pattern', title: 'Payment helpers', description: 'Use charge() for every amount in cents.' });
    await c.ask('Should refunds over 1000 EUR need a second approval?');
    await withCore(dir, (kb) => scanOracle(kb));
    await withCore(
      dir,
      (kb) =>
        finalizeClose(kb, {
          memories: [],
          decisions: [],
          safety_rules: [],
          stopped_at: 'Tracing spans half wired',
          summary: 'Wired the tracing exporter into the checkout flow.',
          next_steps: 'Sample the spans.',
          worklog_entry: 'Checkout tracing exporter, OpenTelemetry spans.',
        }),
      { session: 'surfaces-session-1' },
    );
    ({ client } = await connectStdio(dir, { session: 'surfaces-test' }));
    ui = await startUi(dir);
  });
  after(async () => {
    await client?.close();
    await ui?.stop();
    cleanup();
  });

  const cli = async (query: string, extra: string[] = []) =>
    (await axmeOk(dir, ['search', query, '--json', '-k', '50', ...extra])).hits as Array<{ kind: string; slug: string }>;
  const mcp = async (query: string) =>
    (
      (await client.callTool({ name: 'axme_search_kb', arguments: { query, k: 50 } })) as unknown as {
        structuredContent: { hits: Array<{ kind: string; slug: string }> };
      }
    ).structuredContent.hits;
  const page = async (query: string) => {
    const body = await (await fetch(`${ui.url}/search?fragment=1&q=${encodeURIComponent(query)}`)).text();
    return [...body.matchAll(/href="\/item\/([a-z]+)\/([^"]+)"/g)].map((m) => `${m[1]}/${decodeURIComponent(m[2]!)}`);
  };

  test('`axme search logging` finds the backlog item, showing its kind; exit 0', async () => {
    const r = await axme(dir, ['search', 'logging']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^\d\.\d{3}  backlog  B-001  Add request logging \[open\]  git:[0-9a-f]{40}:backlog\/add-request-logging\.md$/m);
  });

  test('every kind is searched by default; --type narrows to one', async () => {
    assert.deepEqual((await cli('orders postgres'))[0], { ...(await cli('orders postgres'))[0], kind: 'decision', slug: 'use-postgres-for-orders' });
    assert.equal((await cli('charge cents'))[0]!.kind, 'memory');
    assert.equal((await cli('refunds approval'))[0]!.kind, 'question');
    assert.ok(
      (await cli('tracing spans')).some((h) => h.kind === 'handoff'),
      'handoffs',
    );
    assert.ok(
      (await cli('tracing exporter opentelemetry')).some((h) => h.kind === 'session'),
      'session summaries',
    );
    assert.ok(
      (await cli('express')).some((h) => h.kind === 'oracle'),
      'oracle pages',
    );
    assert.deepEqual([...new Set((await cli('tracing', ['--type', 'session'])).map((h) => h.kind))], ['session']);
    assert.deepEqual(await cli('logging', ['--type', 'decision']), []);
  });

  test('an empty result says so and suggests what to try; exit 0', async () => {
    const none = await axme(dir, ['search', 'xylophone']);
    assert.equal(none.code, 0);
    assert.match(none.stdout, /^No matches for "xylophone" in any kind\. Try fewer or other words/m);
    const narrowed = await axme(dir, ['search', 'logging', '--type', 'decision']);
    assert.equal(narrowed.code, 0);
    assert.match(narrowed.stdout, /No matches for "logging" in decisions\. .*--type all/);
  });

  test('the CLI, the MCP tool and the page give the same ranking for the same query', async () => {
    for (const query of ['logging', 'orders postgres', 'tracing spans', 'refunds', 'payment cents express']) {
      const fromCli = (await cli(query)).map((h) => `${h.kind}/${h.slug}`);
      assert.ok(fromCli.length > 0, query);
      assert.deepEqual(
        (await mcp(query)).map((h) => `${h.kind}/${h.slug}`),
        fromCli,
        `MCP: ${query}`,
      );
      assert.deepEqual(await page(query), fromCli, `page: ${query}`);
    }
  });
});
