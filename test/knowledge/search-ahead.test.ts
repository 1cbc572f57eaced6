/**
 * The search index made ahead of the next query (docs/search.md): after a write, a process that
 * answers again (the MCP server) lays the write over its index in the background and works out
 * its common terms' postings, so that the next query ranks on them at once. The background work is the knowledge base's `ahead`: it
 * starts once the work in hand is done, a newer task of a slot replaces one not yet started, and
 * closing the knowledge base waits for what runs.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { derivedCache } from '../../src/knowledge/core/derived-cache.ts';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { findItems, promptQuery, recallForPrompt } from '../../src/knowledge/views/recall.ts';
import { loadSearchIndex, searchAhead, searchKnowledge } from '../../src/knowledge/views/search.ts';
import { diskCache } from '../../src/store/cache.ts';
import { git, openTestKb } from '../helpers.ts';
import { connectStdio } from '../mcp/stdio-client.ts';
import { seededStore } from '../seeded-store.ts';
import { until } from '../until.ts';

/** One turn of the event loop: what `ahead` started by then has begun. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('derived work ahead of a reader (DerivedCache.ahead)', () => {
  const cache = () => derivedCache(diskCache('/nonexistent-axme-test-dir', 1));

  test('starts after the work in hand, a newer task of the slot replacing one not started; drain waits for what runs', async () => {
    const c = cache();
    const ran: string[] = [];
    const record = (what: string) => void ran.push(what);
    let finish!: () => void;
    c.ahead('index', async () => record('first'));
    c.ahead('index', () => {
      record('second');
      return new Promise<void>((resolve) => (finish = resolve));
    });
    c.ahead('other', async () => record('other'));
    assert.deepEqual(ran, [], 'nothing runs before the work in hand is done');
    await turn();
    assert.deepEqual(ran, ['second', 'other']);
    let drained = false;
    const draining = c.drain().then(() => (drained = true));
    await turn();
    assert.equal(drained, false, 'drain waits for the running task');
    finish();
    await draining;
    c.ahead('index', async () => record('after the drain'));
    await turn();
    assert.deepEqual(ran, ['second', 'other'], 'nothing starts once drained');
  });

  test('a task of a slot given while another of it runs starts after that one ends; idle waits for both', async () => {
    const c = cache();
    const events: string[] = [];
    let finish!: () => void;
    c.ahead('index', () => {
      events.push('first starts');
      return new Promise<void>((resolve) => (finish = resolve)).then(() => void events.push('first ends'));
    });
    await turn();
    c.ahead('index', async () => void events.push('second starts'));
    await turn();
    await turn();
    assert.deepEqual(events, ['first starts'], 'the second waits for the first');
    const idle = c.idle();
    finish();
    await idle;
    assert.deepEqual(events, ['first starts', 'first ends', 'second starts']);
  });

  test('a task that fails costs only its own work', async () => {
    const c = cache();
    c.ahead('index', async () => {
      throw new Error('broken');
    });
    await turn();
    await c.drain();
  });

  test('drain drops the tasks not started', async () => {
    const c = cache();
    let ran = false;
    c.ahead('index', async () => void (ran = true));
    await c.drain();
    await turn();
    assert.equal(ran, false);
  });
});

describe('the search index made ahead of the next query', () => {
  let dir: string;
  let kb: KnowledgeBase;
  before(async () => {
    dir = seededStore(
      240,
      (i) => ({ slug: `decision-${i}`, title: `Decision ${i} about component ${i % 11}`, decision: `Component ${i % 11} takes approach ${i}.` }),
      {
        prefix: 'axme-search-ahead-',
      },
    );
    kb = await openTestKb(dir);
    await searchKnowledge(kb, { query: 'component approach' });
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    rmSync(dir, { recursive: true, force: true });
  });

  test('after a write, the index is laid over in the background and its file written; the query after it ranks as a fresh process', async () => {
    await addDecision(kb, { title: 'Written before the next query', decision: 'Component 5 takes a newer approach.' });
    searchAhead(kb);
    await kb.cache.idle();
    await turn(); // the file, left for after the work in hand
    // no query made this index: it is in memory, laid over the previous one, its postings laid out flat when its file was written
    const loaded = await loadSearchIndex(kb);
    assert.equal(loaded.source, 'memory');
    assert.equal(loaded.index.patched, true, 'the write laid over the previous index, not a build');
    assert.equal(loaded.index.delta?.exact, true, 'its postings read as the file has them: what a warm query reads');
    const got = await searchKnowledge(kb, { query: 'component newer approach' });
    const other = await openTestKb(dir);
    try {
      assert.deepEqual((await searchKnowledge(other, { query: 'component newer approach' })).hits, got.hits);
    } finally {
      await closeKnowledgeBase(other);
    }
  });

  test('a view of the knowledge base bound to a session (as the MCP server hands each call) lays a write over the index another view made', async () => {
    const view = (session: string): KnowledgeBase => ({ ...kb, session });
    await searchKnowledge(view('one'), { query: 'component approach' });
    await addDecision(view('two'), { title: 'Written through another view', decision: 'Component 9 again.' });
    const loaded = await loadSearchIndex(view('three'));
    assert.equal(loaded.source, 'incremental');
    assert.equal(loaded.index.patched, true, 'laid over the index of the view before, not built again');
  });

  test('closing the knowledge base waits for the work ahead that runs', async () => {
    const own = await openTestKb(dir);
    let release!: () => void;
    const events: string[] = [];
    own.cache.ahead('search-index', async () => {
      events.push('work starts');
      await new Promise<void>((resolve) => (release = resolve));
      events.push('work ends');
    });
    await turn();
    const closed = closeKnowledgeBase(own).then(() => void events.push('closed'));
    await turn();
    assert.deepEqual(events, ['work starts'], 'the close waits');
    release();
    await closed;
    assert.deepEqual(events, ['work starts', 'work ends', 'closed']);
  });
});

describe('the MCP server after a write tool', () => {
  test("makes the new tip's index before any query asks for it (its file is written)", { timeout: 60_000 }, async () => {
    const dir = seededStore(30, (i) => ({ slug: `decision-${i}`, title: `Decision ${i}`, decision: `Text ${i}.` }), { prefix: 'axme-search-ahead-mcp-' });
    const { client, stderr } = await connectStdio(dir, { session: 'search-ahead' });
    try {
      // the server's index of the tip before the write: what the write is laid over
      await client.callTool({ name: 'axme_search_kb', arguments: { query: 'decision' } });
      await client.callTool({ name: 'axme_save_decision', arguments: { title: 'Written through the tool', decision: 'No query follows.' } });
      const tree = git(dir, ['rev-parse', 'refs/memory/main^{tree}']).trim();
      const file = join(dir, '.git', 'axme', 'search', `${tree}-none.idx`);
      // no query is made: the file appears only if the server made the index ahead (waited for; the bound only ends a failure)
      await until('the server writes the index of the new tip', () => existsSync(file), { detail: stderr });
    } finally {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a prompt with terminal output pasted in (colour codes, a bidirectional mark)', () => {
  test('recalls by its words: the characters a query refuses are spaces in the prompt query', async () => {
    const dir = seededStore(
      12,
      (i) =>
        i === 3
          ? { slug: 'ledger-in-postgres', title: 'The ledger lives in Postgres', decision: 'Every ledger build reads it.' }
          : { slug: `decision-${i}`, title: `Decision ${i} about caching`, decision: `Cache text ${i}.` },
      {
        prefix: 'axme-prompt-controls-',
      },
    );
    const kb = await openTestKb(dir);
    try {
      const prompt = 'why does the \u001b[31mledger\u001b[0m build fail\u202e here';
      // the search behind recall refuses such characters in a query: the prompt's are spaces, and it recalls what its words do
      assert.deepEqual(await recallForPrompt(kb, prompt, new Set()), await recallForPrompt(kb, 'why does the [31mledger [0m build fail here', new Set()));
      assert.equal(promptQuery(prompt), 'why does the [31mledger [0m build fail here');
      assert.equal((await findItems(kb, promptQuery(prompt), 5)).hits[0]?.title, 'The ledger lives in Postgres');
    } finally {
      await closeKnowledgeBase(kb);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
