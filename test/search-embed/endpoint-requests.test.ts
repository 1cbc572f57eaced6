import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type EmbeddingsConfig, embed } from '../../src/knowledge/views/search/embeddings.ts';
import { type Behaviour, endpointServer, vectorOf } from './endpoint-server.ts';

/**
 * `embed` against a real HTTP server on 127.0.0.1 that misbehaves as endpoints do: what is
 * retried (a connection closed, a 5xx, a 429 within its Retry-After bound), what is not (a 4xx,
 * an answer of the wrong shape), a batch that times out split before the endpoint is given up
 * on, and each batch handed over as it arrives. Timeouts are the settings' (small here), never
 * a sleep the assertions depend on: a held request is answered only if the test releases it.
 */
const TEXTS = ['pay the invoice', 'sign in with a password', 'kafka topics', 'stripe billing', 'login session', 'queue jobs'];

const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const near = (got: Float32Array[], texts: readonly string[]) =>
  assert.deepEqual(
    got.map((v) => [...v].map((x) => Math.round(x * 1e5))),
    texts.map((t) => unit(vectorOf(t)).map((x) => Math.round(x * 1e5))),
  );

async function withServer(
  behave: (n: number, texts: string[]) => Behaviour,
  run: (s: Awaited<ReturnType<typeof endpointServer>>, c: EmbeddingsConfig) => Promise<void>,
  extra: Partial<EmbeddingsConfig> = {},
) {
  const s = await endpointServer(behave);
  try {
    await run(s, { url: s.url, model: 'stand-in', ...extra });
  } finally {
    await s.close();
  }
}

describe('embed: a failed request is retried once when a second try can succeed', () => {
  const retried: Array<[string, Behaviour]> = [
    ['a keep-alive connection the server closed (no answer, socket dropped)', 'close'],
    ['a 500', { status: 500 }],
    ['a 503', { status: 503 }],
    ['a 429 with Retry-After: 0', { status: 429, headers: { 'retry-after': '0' } }],
    ['a 429 with Retry-After as an HTTP date already past', { status: 429, headers: { 'retry-after': new Date(0).toUTCString() } }],
    ['a 429 without Retry-After', { status: 429 }],
  ];
  for (const [what, fault] of retried)
    test(`${what}, then an answer: every vector, two requests for the faulty batch`, () =>
      withServer(
        // the second batch's first try fails; the first batch went through on the same connection
        (n) => (n === 1 ? fault : 'ok'),
        async (s, c) => {
          const counts = { retries: 0, timeouts: 0 };
          near(await embed(c, TEXTS, {}, { counts }), TEXTS);
          assert.deepEqual(s.sizes(), [3, 3, 3]);
          assert.equal(counts.retries, 1);
        },
        { batch: 3 },
      ));

  test('a fault that comes again after the retry gives the endpoint up as failing, after exactly two tries', () =>
    withServer(
      () => ({ status: 502 }),
      async (s, c) => {
        await assert.rejects(embed(c, TEXTS, {}), (e: Error & { code?: string }) => e.code === 'failing' && /502/.test(e.message));
        assert.deepEqual(s.sizes(), [6, 6]);
      },
    ));

  test('a 429 asking for longer than the bound is not waited for: one request, failing, the wait said', () =>
    withServer(
      () => ({ status: 429, headers: { 'retry-after': '3600' } }),
      async (s, c) => {
        await assert.rejects(embed(c, TEXTS, {}), (e: Error & { code?: string }) => e.code === 'failing' && /3600 s/.test(e.message));
        assert.equal(s.seen.length, 1);
      },
    ));
});

describe('embed: what a retry cannot mend is not retried', () => {
  const once: Array<[string, Behaviour, string]> = [
    ['a 400', { status: 400 }, 'refused'],
    ['a 401 (a wrong key)', { status: 401 }, 'refused'],
    ['a 404 (a wrong URL)', { status: 404 }, 'refused'],
    ['one vector too few', 'short', 'shape'],
    ['vectors of strings', 'strings', 'shape'],
    ['a body that is not JSON', 'text', 'shape'],
  ];
  for (const [what, fault, code] of once)
    test(`${what}: one request, ${code}`, () =>
      withServer(
        () => fault,
        async (s, c) => {
          await assert.rejects(embed(c, TEXTS, {}), (e: Error & { code?: string }) => e.code === code);
          assert.equal(s.seen.length, 1);
        },
      ));
});

describe('embed: a batch that times out is split before the endpoint is given up on', () => {
  test('requests of more than two texts are held: 8 → 4 → 2, then the rest at 2; every vector, in order', () => {
    const texts = [...TEXTS, 'postgres persistence', 'request logging'];
    return withServer(
      (_n, input) => (input.length > 2 ? 'hold' : 'ok'),
      async (s, c) => {
        const counts = { retries: 0, timeouts: 0 };
        near(await embed(c, texts, {}, { counts }), texts);
        assert.deepEqual(s.sizes(), [8, 4, 2, 2, 2, 2]);
        assert.equal(counts.timeouts, 2);
      },
      { batch: 8, timeout_ms: 200 },
    );
  });

  test('an endpoint that answers nothing is given up on as slow after three timeouts (8, 4, 2), not one per text; each half given twice the time', () =>
    withServer(
      () => 'hold',
      async (s, c) => {
        // a server answering one request at a time is still on the one given up: the halves wait 400, then 800 ms
        await assert.rejects(
          embed(c, [...TEXTS, 'a', 'b'], {}),
          (e: Error & { code?: string }) => e.code === 'slow' && /2 texts within 800 ms/.test(e.message),
        );
        assert.deepEqual(s.sizes(), [8, 4, 2]);
      },
      { batch: 8, timeout_ms: 200 },
    ));

  test('one text that times out is given up on at once (a query)', () =>
    withServer(
      () => 'hold',
      async (s, c) => {
        await assert.rejects(embed(c, ['telemetry'], {}), (e: Error & { code?: string }) => e.code === 'slow');
        assert.equal(s.seen.length, 1);
      },
      { timeout_ms: 200 },
    ));
});

describe('embed: each batch is handed over as it arrives', () => {
  test('the third batch refused: the first two were handed over, in their places', () =>
    withServer(
      (n) => (n === 2 ? { status: 400 } : 'ok'),
      async (_s, c) => {
        const got: Array<[number, number]> = [];
        await assert.rejects(embed(c, TEXTS, {}, { onBatch: (from, v) => got.push([from, v.length]) }));
        assert.deepEqual(got, [
          [0, 2],
          [2, 2],
        ]);
      },
      { batch: 2 },
    ));
});
