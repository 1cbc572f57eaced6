import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lastFillRunning, VECTORS_AHEAD_ENV } from '../../src/knowledge/views/search/vector-fill.ts';
import { vectorsAheadAgain } from '../../src/knowledge/views/search/vectors-worker.ts';
import { searchKnowledge } from '../../src/knowledge/views/search.ts';
import { type Behaviour, configureEndpoint } from './endpoint-server.ts';
import { endpointStore } from './endpoint-store.ts';

/**
 * Search by meaning through a slow or flaky embeddings endpoint (a real HTTP server on
 * 127.0.0.1): the items' vectors saved batch by batch as they arrive, a query that never waits
 * for the whole store (its own bound, then words, said in `meaning`), the rest made in the
 * background and by the worker, and `axme doctor` saying how the endpoint fares.
 */
const ITEMS: Array<[string, string]> = [
  ['Invoices go through Stripe', 'Every invoice is sent and settled by Stripe.'],
  ['Queue jobs with Kafka', 'Background jobs go through Kafka topics.'],
  ['Sessions expire after a day', 'Login sessions last 24 hours.'],
  ['Use Postgres for persistence', 'Data is kept in Postgres.'],
  ['Log every request', 'Each request is written with its id.'],
  ['Refunds within thirty days', 'Customers get back what they spent, within 30 days.'],
];

/** A store of ITEMS and an endpoint behaving as `behave` says, configured with `extra`. */
const storeWith = (behave: (n: number, texts: string[]) => Behaviour, extra: Parameters<typeof endpointStore>[2] = {}) => endpointStore(ITEMS, behave, extra);

/** The texts of the items the server was sent (the queries left out). */
const itemTexts = (seen: Array<{ texts: string[] }>) => seen.flatMap((s) => s.texts).filter((t) => t.includes('\n'));

describe("the items' vectors are saved as each batch arrives, never all or nothing", () => {
  test('batches 1-2 answered, batch 3 failing twice: their 4 vectors are kept, the answer is by words and says so; the next search sends only the 2 left', async () => {
    let failing = true;
    // a bound longer than the test: this row is about what is kept, not about the query's wait
    const s = await storeWith((n) => (failing && n >= 2 ? { status: 500 } : 'ok'), { batch: 2, query_timeout_ms: 600000 });
    try {
      const r = await searchKnowledge(s.kb, { query: 'money handling' });
      assert.equal(r.meaning?.fused, false, 'by words');
      assert.equal(r.meaning?.lacking, 2);
      assert.match(r.meaning?.reason ?? '', /2 of 6 items have no vector: .*500/);
      assert.equal(s.vectorsSaved(), 4, 'the batches before the failure are on disk');
      const doctor = s.doctor();
      assert.equal(doctor.status, 'problem');
      assert.match(doctor.detail, /failing: .*500.*2 of 6 items still lack a vector.*failed 1 time/);
      assert.match(doctor.fix ?? '', /search\.embeddings\.url.*--retry-endpoint/);
      // a new process, the endpoint mended and asked at once (it is backed off from: endpoint-backoff.test.ts): only the two left are sent
      failing = false;
      const kb = await s.reopen();
      const before = s.server.seen.length;
      const again = await searchKnowledge(kb, { query: 'money handling', retryEndpoint: true });
      assert.equal(again.meaning?.fused, true);
      assert.equal(again.hits[0]?.slug, 'invoices-go-through-stripe');
      assert.equal(itemTexts(s.server.seen.slice(before)).length, 2);
      assert.equal(s.vectorsSaved(), 6);
      const ok = s.doctor();
      assert.equal(ok.status, 'ok');
      assert.match(ok.detail, /all 6 items have a vector/);
    } finally {
      await s.done();
    }
  });
});

describe('a query never waits for the whole store to be embedded', () => {
  test("the items' batches held: the query answers by words within its own bound, the vectors are made in the background, the next query is fused", async () => {
    let hold = true;
    const s = await storeWith((_n, texts) => (hold && texts.some((t) => t.includes('\n')) ? 'hold' : 'ok'), { batch: 3, query_timeout_ms: 30 });
    try {
      const r = await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.equal(r.hits[0]?.slug, 'queue-jobs-with-kafka', 'the word ranking answers');
      assert.deepEqual({ fused: r.meaning?.fused, lacking: r.meaning?.lacking }, { fused: false, lacking: 6 });
      assert.match(r.meaning?.reason ?? '', /being made in the background/);
      assert.match(s.doctor().detail, /6 items still lack a vector|endpoint/);
      // the endpoint answers at last: the run going on in the background saves them
      hold = false;
      const fill = lastFillRunning(s.kb);
      assert.ok(fill, 'a run is making them');
      s.server.release();
      await fill.done;
      assert.equal(s.vectorsSaved(), 6);
      // a bound no query's request outlasts here: the answer below does not depend on the machine's speed
      configureEndpoint(s.kb.repo.commonDir, s.server.url, { query_timeout_ms: 600000 });
      const next = await searchKnowledge(s.kb, { query: 'money handling' });
      assert.equal(next.meaning?.fused, true);
      assert.equal(next.hits[0]?.slug, 'invoices-go-through-stripe');
    } finally {
      await s.done();
    }
  });

  test("the query's own embedding held: answered by words within the query's bound, the reason said", async () => {
    let holdQueries = false;
    const s = await storeWith((_n, texts) => (holdQueries && !texts[0]!.includes('\n') ? 'hold' : 'ok'), { query_timeout_ms: 600000 });
    try {
      assert.equal((await searchKnowledge(s.kb, { query: 'money handling' })).meaning?.fused, true, 'every item has its vector');
      // the bound made short, the query's request held: the query waits no longer than its bound
      configureEndpoint(s.kb.repo.commonDir, s.server.url, { query_timeout_ms: 30 });
      holdQueries = true;
      const r = await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.equal(r.hits[0]?.slug, 'queue-jobs-with-kafka');
      assert.equal(r.meaning?.fused, false);
      assert.equal(r.meaning?.lacking, 0);
      assert.match(r.meaning?.reason ?? '', /query has no vector: .*within 30 ms/);
    } finally {
      await s.done();
    }
  });

  test('closing the knowledge base stops the run (the held request dropped), keeping the batches saved; the worker makes the rest', async () => {
    let released = false;
    const s = await storeWith((n) => (n === 0 || released ? 'ok' : 'hold'), { batch: 3, query_timeout_ms: 30 });
    try {
      const r = await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.equal(r.meaning?.fused, false);
      // the second batch asked for: the first one's answer was saved before
      await s.server.arrived(1);
      assert.equal(s.vectorsSaved(), 3, 'the first batch');
      const dropped = s.server.aborted();
      const kb = await s.reopen();
      await dropped;
      assert.equal(s.vectorsSaved(), 3);
      // what the worker a command-line search starts does (vectors-worker.ts): its search, then the rest without the bound
      const first = await searchKnowledge(kb, { query: 'index' });
      assert.equal(first.meaning?.fused, false, 'the second batch is held again');
      const rest = vectorsAheadAgain(kb, { [VECTORS_AHEAD_ENV]: '1' });
      released = true;
      s.server.release();
      assert.equal(await rest, true);
      assert.equal(s.vectorsSaved(), 6);
      configureEndpoint(kb.repo.commonDir, s.server.url, { query_timeout_ms: 600000 });
      assert.equal((await searchKnowledge(kb, { query: 'money handling' })).meaning?.fused, true);
    } finally {
      await s.done();
    }
  });
});

describe('axme doctor says when the endpoint is slow', () => {
  test('every request held past its bound: the endpoint given up on as too slow, with what to change', async () => {
    const s = await storeWith(() => 'hold', { batch: 4, timeout_ms: 200, query_timeout_ms: 600000 });
    try {
      const r = await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.equal(r.meaning?.fused, false);
      assert.deepEqual(s.server.sizes().slice(0, 3), [4, 2, 1], 'split before it was given up on');
      const doctor = s.doctor();
      assert.equal(doctor.status, 'problem');
      assert.match(doctor.detail, /too slow: .*6 of 6 items still lack a vector.*slow: 3 requests timed out/);
      assert.match(doctor.fix ?? '', /timeout_ms/);
    } finally {
      await s.done();
    }
  });
});
