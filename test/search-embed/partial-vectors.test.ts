import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { searchKnowledge } from '../../src/knowledge/views/search.ts';
import { type Behaviour, configureEndpoint } from './endpoint-server.ts';
import { endpointStore } from './endpoint-store.ts';

/**
 * Some items have a vector and some not (a run still making them, a batch that failed): the
 * answer ranks by meaning over those that have one, fused with the words, each item lacking a
 * vector at its place in the word ranking, and says so (`meaning.partial`: "K of N items"). A
 * query whose own request fails answers by words within the query's bound.
 */
const ITEMS: Array<[string, string]> = [
  ['Invoices go through Stripe', 'Every invoice is sent and settled by Stripe.'],
  ['Queue jobs with Kafka', 'Background jobs go through Kafka topics.'],
  ['Sessions expire after a day', 'Login sessions last 24 hours and the password is asked again.'],
  ['Use Postgres for persistence', 'Data is kept in Postgres, jobs too.'],
  ['Log every request', 'Each request and its jobs are written with an id.'],
  ['Refunds within thirty days', 'Customers get back what they spent, within 30 days.'],
];
const QUERIES = ['money handling', 'kafka jobs', 'jobs request', 'postgres data', 'login password', 'refunds customers jobs'];

/** The texts the endpoint gave a vector for (the items', the queries' left out). */
const answered = (seen: Array<{ texts: string[] }>, failed: Set<number>) =>
  new Set(seen.flatMap((s, n) => (failed.has(n) ? [] : s.texts)).filter((t) => t.includes('\n')));

/** A store of ITEMS and an endpoint behaving as `behave` says, configured with `extra`. */
const storeWith = (behave: (n: number, texts: string[]) => Behaviour, extra: Parameters<typeof endpointStore>[2] = {}) => endpointStore(ITEMS, behave, extra);

describe('partial vectors: ranked by meaning over the items that have one', () => {
  test('a batch that failed: fused over the rest, "K of N items", each item lacking a vector at its word rank', async () => {
    const failed = new Set<number>();
    // from the third request on, the items' requests fail: the items of the two batches before have vectors; the queries' are answered
    const s = await storeWith(
      (n, texts) => {
        if (n >= 2 && texts.some((t) => t.includes('\n'))) {
          failed.add(n);
          return { status: 500 };
        }
        return 'ok';
      },
      { batch: 2, query_timeout_ms: 600000 },
    );
    try {
      await searchKnowledge(s.kb, { query: 'warm up' });
      const have = answered(s.server.seen, failed);
      assert.equal(have.size, 4, 'two batches of two answered');
      const titleHas = (title: string) => [...have].some((t) => t.startsWith(`${title}\n`));
      const lacking = new Set(ITEMS.filter(([t]) => !titleHas(t)).map(([t]) => t));
      assert.equal(lacking.size, 2);
      // each query asks the endpoint again at once: the items' run fails again, the query's own vector is made
      for (const query of QUERIES) {
        const words = await searchKnowledge(s.kb, { query, byMeaning: false, k: 6 });
        const r = await searchKnowledge(s.kb, { query, k: 6, retryEndpoint: true });
        assert.equal(r.meaning?.fused, true, `${query}: fused`);
        assert.equal(r.meaning?.partial, '4 of 6 items', query);
        assert.equal(r.meaning?.lacking, 2, query);
        // every item lacking a vector that the words found is where the words put it
        words.hits.forEach((h, i) => {
          if (lacking.has(h.title)) assert.equal(r.hits[i]?.slug, h.slug, `${query}: ${h.slug} kept at word rank ${i + 1}`);
        });
        // scores still fall down the list
        for (let i = 1; i < r.hits.length; i++) assert.ok(r.hits[i - 1]!.score >= r.hits[i]!.score, `${query}: scores fall`);
      }
      // no word of the query is in the item: only the meaning finds it, and it has a vector
      if (titleHas('Invoices go through Stripe')) {
        const m = await searchKnowledge(s.kb, { query: 'money handling', retryEndpoint: true });
        assert.equal(m.hits[0]?.slug, 'invoices-go-through-stripe');
      }
    } finally {
      await s.done();
    }
  });

  test("a run still making the rest: the answer, within the query's bound, ranks by meaning over the vectors saved before", async () => {
    let hold = false;
    const s = await storeWith(
      (n, texts) => (n === 1 ? { status: 500 } : hold && texts.some((t) => t.includes('\n')) ? 'hold' : n === 2 ? { status: 500 } : 'ok'),
      { batch: 3, query_timeout_ms: 600000 },
    );
    try {
      // the first batch saved, the second failed
      await searchKnowledge(s.kb, { query: 'warm up' });
      // a new process, the items' requests held (a run in progress), the query's own answered
      const kb = await s.reopen();
      configureEndpoint(kb.repo.commonDir, s.server.url, { batch: 3, query_timeout_ms: 200 });
      hold = true;
      const r = await searchKnowledge(kb, { query: 'kafka jobs', retryEndpoint: true });
      assert.equal(r.meaning?.fused, true);
      assert.equal(r.meaning?.partial, '3 of 6 items');
      assert.equal(r.meaning?.lacking, 3);
      s.server.release();
    } finally {
      await s.done();
    }
  });

  test("the query's own request answered 503 with a Retry-After: answered by words within the query's bound, the retry not waited for", async () => {
    let failQueries = false;
    const s = await storeWith((_n, texts) => (failQueries && !texts[0]!.includes('\n') ? { status: 503, headers: { 'retry-after': '3' } } : 'ok'), {
      query_timeout_ms: 600000,
    });
    try {
      assert.equal((await searchKnowledge(s.kb, { query: 'money handling' })).meaning?.fused, true);
      configureEndpoint(s.kb.repo.commonDir, s.server.url, { query_timeout_ms: 50 });
      failQueries = true;
      const before = s.server.seen.length;
      const r = await searchKnowledge(s.kb, { query: 'kafka topics' });
      const queries = s.server.seen.slice(before).filter((x) => !x.texts[0]!.includes('\n')).length;
      assert.equal(r.hits[0]?.slug, 'queue-jobs-with-kafka');
      assert.equal(r.meaning?.fused, false);
      assert.match(r.meaning?.reason ?? '', /query has no vector/);
      assert.equal(queries, 1, 'answered before the retry the endpoint asked for');
    } finally {
      await s.done();
    }
  });
});
