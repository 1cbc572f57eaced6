import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { BACKOFF_FIRST_MS, BACKOFF_MAX_MS, backoffDelayMs } from '../../src/knowledge/views/search/endpoint-backoff.ts';
import { searchKnowledge } from '../../src/knowledge/views/search.ts';
import { type Behaviour, configureEndpoint, endpointServer } from './endpoint-server.ts';
import { endpointStore } from './endpoint-store.ts';

/**
 * A dead or failing embeddings endpoint is backed off from: after a failure no new run (and no
 * query's own request) until a growing, capped delay has passed on the knowledge base's clock
 * (injected here: nothing waits on the wall clock), the delay kept beside the search index so a
 * new process honours it; reset by a run that succeeds or by other settings (URL, model); forced
 * by `retryEndpoint`. Real HTTP servers on 127.0.0.1, opened and closed by each test.
 */
const ITEMS: Array<[string, string]> = [
  ['Invoices go through Stripe', 'Every invoice is sent and settled by Stripe.'],
  ['Queue jobs with Kafka', 'Background jobs go through Kafka topics.'],
  ['Sessions expire after a day', 'Login sessions last 24 hours.'],
  ['Use Postgres for persistence', 'Data is kept in Postgres.'],
];

/** A store of ITEMS and an endpoint behaving as `behave` says, configured with `extra`. */
const storeWith = (behave: (n: number, texts: string[]) => Behaviour, extra: Parameters<typeof endpointStore>[2] = {}) =>
  endpointStore(ITEMS, behave, { query_timeout_ms: 600000, ...extra });

describe('the delay grows with each failure, capped', () => {
  test('each failure doubles it from the first delay; it never passes the cap', () => {
    assert.equal(backoffDelayMs(1), BACKOFF_FIRST_MS);
    for (let n = 1; n < 40; n++) {
      assert.ok(backoffDelayMs(n + 1) >= backoffDelayMs(n), `grows at ${n}`);
      assert.ok(backoffDelayMs(n) <= BACKOFF_MAX_MS, `capped at ${n}`);
    }
    assert.equal(backoffDelayMs(2), 2 * BACKOFF_FIRST_MS);
    assert.equal(backoffDelayMs(1000), BACKOFF_MAX_MS);
  });
});

describe('a failing endpoint is not asked again until its delay has passed', () => {
  test('500 on every request: one run, then none (in this process or a new one) until the delay, then one more and a doubled delay', async () => {
    const s = await storeWith(() => ({ status: 500 }));
    try {
      const first = s.mark();
      const r = await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.equal(r.hits[0]?.slug, 'queue-jobs-with-kafka', 'answered by words');
      assert.equal(r.meaning?.fused, false);
      assert.ok(first.sent() > 0, 'the endpoint was asked');
      // at once, in this process (as the MCP server or the page asks again), then in a new one
      for (const again of [false, true]) {
        if (again) await s.reopen();
        const m = s.mark();
        const r2 = await searchKnowledge(s.kb, { query: 'kafka topics' });
        assert.equal(m.sent(), 0, `no request${again ? ' from a new process' : ''} during the delay`);
        assert.equal(r2.hits[0]?.slug, 'queue-jobs-with-kafka');
        assert.equal(r2.meaning?.fused, false);
        assert.match(r2.meaning?.reason ?? '', /failed 1 time.*next try after/);
      }
      const doctor = s.doctor();
      assert.equal(doctor.status, 'problem');
      assert.match(doctor.detail, /the embeddings endpoint failed 1 time, last: .*500.*; next try after 2026-11-01T10:01:00/);
      assert.match(doctor.fix ?? '', /axme search --retry-endpoint/);
      // the delay passed: asked again, failing again: the delay doubles
      s.advance(BACKOFF_FIRST_MS);
      const second = s.mark();
      await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.ok(second.sent() > 0, 'asked once the delay passed');
      s.advance(BACKOFF_FIRST_MS);
      const m = s.mark();
      const r3 = await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.equal(m.sent(), 0, 'the second delay is longer than the first');
      assert.match(r3.meaning?.reason ?? '', /failed 2 times/);
      s.advance(BACKOFF_FIRST_MS);
      const third = s.mark();
      await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.ok(third.sent() > 0, 'asked after twice the first delay');
    } finally {
      await s.done();
    }
  });

  test('a closed port: refused once, then not tried again until the delay has passed; doctor says why', async () => {
    const s = await storeWith(() => 'ok');
    await s.server.close();
    try {
      const r = await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.equal(r.meaning?.fused, false);
      const r2 = await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.match(r2.meaning?.reason ?? '', /failed 1 time, last: .*cannot be reached.*next try after/);
      assert.match(s.doctor().detail, /the embeddings endpoint failed 1 time, last: .*cannot be reached/);
    } finally {
      await s.done();
    }
  });

  test("a query whose own request fails (every item's vector made) backs off too: the next query sends nothing", async () => {
    let failQueries = false;
    const s = await storeWith((_n, texts) => (failQueries && !texts[0]!.includes('\n') ? { status: 503 } : 'ok'));
    try {
      assert.equal((await searchKnowledge(s.kb, { query: 'money handling' })).meaning?.fused, true);
      failQueries = true;
      const r = await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.equal(r.meaning?.fused, false);
      assert.match(r.meaning?.reason ?? '', /query has no vector/);
      const m = s.mark();
      const r2 = await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.equal(m.sent(), 0);
      assert.equal(r2.hits[0]?.slug, 'queue-jobs-with-kafka');
      assert.match(r2.meaning?.reason ?? '', /next try after/);
    } finally {
      await s.done();
    }
  });
});

describe('what resets the delay', () => {
  test('a run that succeeds: the next failure starts again from the first delay', async () => {
    let failing = true;
    const s = await storeWith(() => (failing ? { status: 500 } : 'ok'));
    try {
      await searchKnowledge(s.kb, { query: 'kafka topics' });
      s.advance(BACKOFF_FIRST_MS);
      await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.match(s.doctor().detail, /failed 2 times/);
      // mended: once the delay passed, the run makes every vector and the answer is fused
      failing = false;
      s.advance(backoffDelayMs(2));
      const ok = await searchKnowledge(s.kb, { query: 'money handling' });
      assert.equal(ok.meaning?.fused, true);
      assert.doesNotMatch(s.doctor().detail, /failed/);
      assert.equal(s.doctor().status, 'ok');
      // a write, then failing again: one failure, the first delay
      failing = true;
      await addDecision(s.kb, { title: 'Refunds within thirty days', decision: 'Customers get back what they spent.' });
      await searchKnowledge(s.kb, { query: 'refunds' });
      assert.match(s.doctor().detail, /failed 1 time,/);
    } finally {
      await s.done();
    }
  });

  test('other settings (another URL or model) are tried at once', async () => {
    const s = await storeWith(() => ({ status: 500 }));
    const other = await endpointServer(() => 'ok');
    try {
      await searchKnowledge(s.kb, { query: 'kafka topics' });
      const backedOff = await searchKnowledge(s.kb, { query: 'kafka topics' });
      assert.match(backedOff.meaning?.reason ?? '', /next try after/);
      configureEndpoint(s.kb.repo.commonDir, other.url, { query_timeout_ms: 600000 });
      const r = await searchKnowledge(s.kb, { query: 'money handling' });
      assert.equal(r.meaning?.fused, true, 'the new URL is asked at once');
      assert.ok(other.seen.length > 0);
    } finally {
      await other.close();
      await s.done();
    }
  });

  test('retryEndpoint (axme search --retry-endpoint) asks at once, whatever the delay', async () => {
    let failing = true;
    const s = await storeWith(() => (failing ? { status: 500 } : 'ok'));
    try {
      await searchKnowledge(s.kb, { query: 'kafka topics' });
      failing = false;
      const m = s.mark();
      const r = await searchKnowledge(s.kb, { query: 'money handling', retryEndpoint: true });
      assert.ok(m.sent() > 0);
      assert.equal(r.meaning?.fused, true);
      assert.equal(r.hits[0]?.slug, 'invoices-go-through-stripe');
      assert.doesNotMatch(s.doctor().detail, /failed/);
    } finally {
      await s.done();
    }
  });
});
