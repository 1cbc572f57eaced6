/**
 * The persisted search index (docs/search.md): one file per memory tip under
 * `<git common dir>/axme/search/`, loaded by the next process instead of a rebuild, updated from
 * the previous tip's index after a write (only the changed items tokenized again), ignored and
 * rebuilt when damaged or foreign. Every surface goes through `loadSearchIndex`: the same ranking.
 */
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { indexKey, keyOfStoreAlone } from '../../src/knowledge/views/search/persist.ts';
import { loadSearchIndex, searchKnowledge } from '../../src/knowledge/views/search.ts';
import { openTestKb, tempRepo } from '../helpers.ts';

describe('persisted search index', () => {
  let dir: string;
  let cleanup: () => void;
  let kb: KnowledgeBase;
  const files = () => readdirSync(join(kb.repo.axmeDir, 'search')).filter((n) => n.endsWith('.idx'));
  const fresh = async <T>(run: (k: KnowledgeBase) => Promise<T>): Promise<T> => {
    const k = await openTestKb(dir);
    try {
      return await run(k);
    } finally {
      await closeKnowledgeBase(k);
    }
  };
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    kb = await openTestKb(dir);
    await initStore(kb);
    await addDecision(kb, { title: 'Use Postgres for billing', decision: 'Billing data lives in Postgres.', reasoning: 'Transactions and mature tooling.' });
    await addDecision(kb, { title: 'Cache sessions in Redis', decision: 'Session tokens are cached in Redis with a TTL.', tags: ['cache'] });
    await addMemory(kb, { type: 'pattern', title: 'Retry uploads with backoff', description: 'Uploads are retried with exponential backoff.' });
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    cleanup();
  });

  test('a search writes the index of the tip; another process loads it and ranks the same', async () => {
    const built = await loadSearchIndex(kb);
    assert.ok(built.source === 'built' || built.source === 'incremental', built.source);
    const first = await searchKnowledge(kb, { query: 'postgres billing transactions' });
    assert.equal(files().length, 1);
    const loaded = await fresh(async (k) => {
      const l = await loadSearchIndex(k);
      return { source: l.source, hits: (await searchKnowledge(k, { query: 'postgres billing transactions' })).hits };
    });
    assert.equal(loaded.source, 'disk');
    assert.deepEqual(loaded.hits, first.hits);
  });

  test('after a write the next index reuses the unchanged items of the previous tip', async () => {
    await addDecision(kb, { title: 'Queue jobs with Kafka', decision: 'Background jobs go through Kafka topics.' });
    const next = await fresh((k) => loadSearchIndex(k));
    assert.equal(next.source, 'incremental');
    assert.equal(next.index.docs.length, 4);
    assert.equal(next.reused, 3);
    const hits = await fresh(async (k) => (await searchKnowledge(k, { query: 'kafka topics' })).hits);
    assert.equal(hits[0]?.slug, 'queue-jobs-with-kafka');
  });

  test('a damaged or foreign index file is ignored and rebuilt, with the same results', async () => {
    const expected = await fresh(async (k) => (await searchKnowledge(k, { query: 'redis session cache' })).hits);
    for (const name of files()) writeFileSync(join(kb.repo.axmeDir, 'search', name), 'not an index');
    const again = await fresh(async (k) => {
      const l = await loadSearchIndex(k);
      return { source: l.source, hits: (await searchKnowledge(k, { query: 'redis session cache' })).hits };
    });
    assert.notEqual(again.source, 'disk');
    assert.deepEqual(again.hits, expected);
    const reloaded = await fresh((k) => loadSearchIndex(k));
    assert.equal(reloaded.source, 'disk');
  });
});

test("an index key says whether a workspace's knowledge was merged in (the query at the tip answers only for the store alone)", () => {
  const tree = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
  assert.equal(keyOfStoreAlone(indexKey({ snapshot: { tree } as never, workspace: null })), true);
  assert.equal(keyOfStoreAlone(indexKey({ snapshot: { tree } as never, workspace: { commit: 'e83c5163316f89bfbde7d9ab23ca2e25604af290' } as never })), false);
  // a workspace whose store holds no knowledge merges nothing in
  assert.equal(keyOfStoreAlone(indexKey({ snapshot: { tree } as never, workspace: { commit: null } as never })), true);
});
