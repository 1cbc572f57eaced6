/**
 * The index file read in part, and written from the previous one (docs/search.md, "How the index
 * is stored"): a query at the tip reads the postings of its own terms and the records of its best
 * documents, a small share of a large store's file, and answers what the full path answers; after
 * a write the new tip's file copies the unchanged documents' records and encodes only the new
 * ones, and ranks exactly as an index built from scratch.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { closeKnowledgeBase, type KnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { locateRepo } from '../../src/knowledge/core/location.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { INDEX_VERSION } from '../../src/knowledge/views/search/persist.ts';
import { searchAnswerOf, searchAtTip } from '../../src/knowledge/views/search/tip-search.ts';
import { loadSearchIndex, searchKnowledge } from '../../src/knowledge/views/search.ts';
import { cleanEnv } from '../helpers.ts';
import { seededStore } from '../seeded-store.ts';

const N = 1500;
const TOPICS = ['billing', 'invoices', 'sessions', 'caching', 'queues', 'logging', 'retries', 'search', 'uploads', 'emails', 'payments', 'tenants'];
const QUERIES = [
  'billing invoices',
  'how are sessions cached',
  'retry uploads with backoff',
  'component 42',
  'logging of payments for tenants',
  'emails queue 7',
  'qeues',
  'approach 1234',
  'zzzq nothing',
];

/** A store of `n` decisions of varied words, written in one fast-import commit. */
const seeded = (n: number): string =>
  seededStore(
    n,
    (i) => {
      const [a, b] = [TOPICS[i % TOPICS.length]!, TOPICS[(i * 7) % TOPICS.length]!];
      return {
        slug: `decision-${i}`,
        title: `Decision ${i} on ${a} and ${b} for component ${i % 97}`,
        decision: `Component ${i % 97} handles ${a} with approach ${i}; ${b} word${i} goes through step ${i % 13}.`,
        reasoning: `Measured on ${a} load, term${i} unique.`,
      };
    },
    { prefix: 'axme-index-file-', codeCommit: true },
  );

describe('the index file, read in part and written from the previous one', () => {
  let dir: string;
  const env = cleanEnv();
  const open = () => openKnowledgeBase({ cwd: dir, env, actor: 'agent' });
  const inFresh = async <T>(run: (kb: KnowledgeBase) => Promise<T>): Promise<T> => {
    const kb = await open();
    try {
      return await run(kb);
    } finally {
      await closeKnowledgeBase(kb);
    }
  };
  before(() => {
    dir = seeded(N);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a query at the tip reads a small share of the file and answers what the full path answers', { timeout: 300_000 }, async () => {
    await inFresh((kb) => searchKnowledge(kb, { query: 'billing' }));
    for (const query of QUERIES) {
      const expected = await inFresh((kb) => searchKnowledge(kb, { query, k: 10 }));
      const reads = { read: 0, size: 0 };
      const got = searchAtTip({ loc: locateRepo(dir, env)!, cwd: dir, env, query, k: 10, type: 'all', reads });
      assert.deepEqual(got && searchAnswerOf(got), expected, query);
      assert.ok(reads.size > 0, query);
      // a query that matches a tenth of the store still reads no more than a fifth of its file
      assert.ok(reads.read < reads.size / 5, `${query}: read ${reads.read} of ${reads.size} bytes`);
    }
  });

  test('a file whose term table or format version is not this one is not read: the tip declines, the full path lays it out again and answers as before', {
    timeout: 300_000,
  }, async () => {
    const query = 'billing invoices';
    const expected = await inFresh((kb) => searchKnowledge(kb, { query, k: 10 }));
    const searchDir = join(dir, '.git', 'axme', 'search');
    const [key] = readFileSync(join(searchDir, 'last'), 'utf8').split('\n');
    const file = join(searchDir, `${key}.idx`);
    const good = readFileSync(file);
    const headerLength = good.readUInt32LE(8);
    const header = JSON.parse(good.subarray(12, 12 + headerLength).toString('utf8'));
    const damaged: Array<[string, Buffer]> = [];
    // the sorted term table names a term that does not exist
    const badOrder = Buffer.from(good);
    badOrder.writeInt32LE(header.terms + 5, header.sections.head[0] + header.head.order + 4 * Math.floor(header.terms / 2));
    damaged.push(['term order', badOrder]);
    // the previous format's number, the layout otherwise this one's (same length: the sections stay where they are)
    const old = Buffer.from(good);
    const at = old.indexOf(`"version":${INDEX_VERSION}`, 12);
    old.write(`"version":${INDEX_VERSION - 1}`, at);
    damaged.push(['format version', old]);
    for (const [what, bytes] of damaged) {
      writeFileSync(file, bytes);
      assert.equal(searchAtTip({ loc: locateRepo(dir, env)!, cwd: dir, env, query, k: 10, type: 'all' }), undefined, what);
      const loaded = await inFresh((kb) => loadSearchIndex(kb));
      // (its records may still serve an incremental build: each is checked as it is read)
      assert.notEqual(loaded.source, 'disk', what);
      assert.deepEqual(await inFresh((kb) => searchKnowledge(kb, { query, k: 10 })), expected, what);
      const atTip = searchAtTip({ loc: locateRepo(dir, env)!, cwd: dir, env, query, k: 10, type: 'all' });
      assert.deepEqual(atTip && searchAnswerOf(atTip), expected, what);
    }
  });

  test('after a write, the new tip is indexed from the previous file: one record encoded, the rest copied; it ranks as a build from scratch', {
    timeout: 300_000,
  }, async () => {
    await inFresh((kb) => loadSearchIndex(kb));
    await inFresh((kb) => addDecision(kb, { title: 'Invoices are rounded to cents', decision: 'Billing rounds every invoice line to whole cents.' }));
    const next = await inFresh((kb) => loadSearchIndex(kb));
    assert.equal(next.source, 'incremental');
    assert.equal(next.index.docs.length, N + 1);
    assert.equal(next.reused, N);
    assert.equal(next.encoded, 1, 'only the new decision is encoded');
    // the same process writes again: its index is made from the one in memory, the new item alone encoded
    const inProcess = await inFresh(async (kb) => {
      await searchKnowledge(kb, { query: 'billing' });
      await addDecision(kb, { title: 'Sessions expire after a day', decision: 'Session tokens expire after 24 hours.' });
      return loadSearchIndex(kb);
    });
    assert.equal(inProcess.source, 'incremental');
    assert.equal(inProcess.encoded, 1);
    const incremental = await Promise.all(QUERIES.map((query) => inFresh((kb) => searchKnowledge(kb, { query, k: 10 }))));
    const searchDir = join(dir, '.git', 'axme', 'search');
    for (const name of readdirSync(searchDir)) rmSync(join(searchDir, name));
    const scratch = await inFresh((kb) => loadSearchIndex(kb));
    assert.equal(scratch.source, 'built');
    assert.equal(scratch.encoded, N + 2);
    for (const [i, query] of QUERIES.entries()) assert.deepEqual(await inFresh((kb) => searchKnowledge(kb, { query, k: 10 })), incremental[i], query);
  });
});
