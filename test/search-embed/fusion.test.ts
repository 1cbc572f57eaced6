import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import type { Doc } from '../../src/knowledge/views/search/build-index.ts';
import { fuseRankings, WORDS_KEPT } from '../../src/knowledge/views/search/fusion.ts';
import type { Ranked } from '../../src/knowledge/views/search/rank.ts';
import { searchKnowledge } from '../../src/knowledge/views/search.ts';
import { openTestKb, tempRepo } from '../helpers.ts';

/**
 * An OpenAI-compatible embeddings endpoint whose model disagrees with the words where told: a text
 * holding one of `far` points one way, any other text the other way (so the query, and every item
 * not in `far`, are as close in meaning as can be).
 */
async function scriptedEndpoint(far: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { input } = JSON.parse(body) as { input: string[] };
      const vector = (t: string) => (far.some((f) => t.includes(f)) ? [0, 1, 0.05] : [1, 0, 0.05]);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: vector(t) })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/embeddings`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Each case: items (title, decision), a query, the items the model puts far from everything, and an item only the model finds. */
const CASES = [
  {
    name: 'the best word match is far in meaning; the next word matches are close',
    items: [
      ['Retry Kafka consumers with backoff', 'A Kafka consumer retries a failed message with exponential backoff.'],
      ['Kafka topics per service', 'Each service owns its Kafka topics.'],
      ['Kafka retention', 'Topics keep a week of messages.'],
      ['Partition keys', 'Messages are partitioned by tenant.'],
      ['Message broker choice', 'The broker is hosted and managed.'],
    ],
    query: 'kafka consumer backoff',
    far: ['Retry Kafka consumers'],
    meaningOnly: 'message-broker-choice',
  },
  {
    name: 'the two best word matches are far in meaning; many close ones match a word once',
    items: [
      ['Cache invalidation on write', 'The cache entry of a record is invalidated when the record is written.'],
      ['Cache warm-up at deploy', 'The cache is warmed at deploy from the access log.'],
      ['Session cache', 'Sessions are kept in a cache.'],
      ['Cache size limits', 'Each cache holds at most a million entries.'],
      ['Record versions', 'A record keeps its versions for a month.'],
      ['Edge caching', 'Static assets are cached at the edge.'],
      ['Read replicas', 'Reads go to a replica of the primary database.'],
    ],
    query: 'cache invalidation record written',
    far: ['Cache invalidation on write', 'Cache warm-up'],
    meaningOnly: 'read-replicas',
  },
];

describe('fusing the word ranking with a ranking by meaning', () => {
  for (const c of CASES)
    test(`what the words rank first stays first, in the words' order, and the model still adds what no word found: ${c.name}`, async () => {
      const { dir, cleanup } = tempRepo();
      const endpoint = await scriptedEndpoint(c.far);
      const kb = await openTestKb(dir);
      try {
        await initStore(kb);
        for (const [title, decision] of c.items) await addDecision(kb, { title: title!, decision: decision! });
        const words = (await searchKnowledge(kb, { query: c.query, k: 10 })).hits;
        assert.ok(words.length >= 3, `the words find at least three items: ${words.map((h) => h.slug)}`);
        assert.ok(!words.some((h) => h.slug === c.meaningOnly), 'no word of the query is in the item only the model finds');
        mkdirSync(join(kb.repo.commonDir, 'axme'), { recursive: true });
        writeFileSync(join(kb.repo.commonDir, 'axme', 'config.yaml'), `search:\n  embeddings:\n    url: ${endpoint.url}\n    model: scripted\n`);
        const fused = (await searchKnowledge(kb, { query: c.query, k: 10 })).hits;
        const kept = Math.min(3, words.length);
        assert.deepEqual(
          fused.slice(0, kept).map((h) => h.slug),
          words.slice(0, kept).map((h) => h.slug),
          'the words’ first three, in their order, whatever the model says of them',
        );
        assert.ok(
          fused.some((h) => h.slug === c.meaningOnly),
          `the item only the model finds is among the hits: ${fused.map((h) => h.slug)}`,
        );
        const scores = fused.map((h) => h.score);
        assert.deepEqual(
          scores,
          [...scores].sort((a, b) => b - a),
          'scores are higher for better hits',
        );
        assert.ok(scores.every((s) => s > 0 && s <= 1));
      } finally {
        await closeKnowledgeBase(kb);
        await endpoint.close();
        cleanup();
      }
    });
});

describe('fuseRankings: any two rankings', () => {
  /** Two rankings over `n` documents: each a list of distinct positions, best first. */
  const rankings = fc
    .integer({ min: 1, max: 40 })
    .chain((n) =>
      fc.tuple(
        fc.constant(n),
        fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }),
        fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }),
        fc.integer({ min: 1, max: 20 }),
      ),
    );
  test("the words' first three first, in order; then the rest by reciprocal rank; every hit from a list, once; scores fall and stay in (0, 1]", () => {
    fc.assert(
      fc.property(rankings, ([n, words, meaning, k]) => {
        const docs = Array.from({ length: n }, (_, i) => ({ slug: `d${String(i).padStart(2, '0')}` }) as unknown as Doc);
        const ranked = (list: number[]): Ranked[] => list.map((i, r) => ({ doc: docs[i]!, score: 100 - r }));
        const fused = fuseRankings(ranked(words), ranked(meaning), k);
        const slugs = fused.map((r) => r.doc.slug);
        const kept = Math.min(WORDS_KEPT, words.length, k);
        assert.deepEqual(
          slugs.slice(0, kept),
          words.slice(0, kept).map((i) => docs[i]!.slug),
        );
        assert.equal(new Set(slugs).size, slugs.length);
        assert.equal(fused.length, Math.min(k, new Set([...words, ...meaning]).size));
        // the rest: the reciprocal rank sum over both lists, best first
        const rrf = (i: number) => [words, meaning].reduce((s, l) => (l.includes(i) ? s + 61 / 2 / (61 + l.indexOf(i)) : s), 0);
        const rest = [...new Set([...words, ...meaning])]
          .filter((i) => !words.slice(0, WORDS_KEPT).includes(i))
          .sort((a, b) => rrf(b) - rrf(a) || (docs[a]!.slug < docs[b]!.slug ? -1 : 1));
        assert.deepEqual(
          slugs.slice(kept),
          rest.slice(0, k - kept).map((i) => docs[i]!.slug),
        );
        for (const [i, r] of fused.entries()) {
          assert.ok(r.score > 0 && r.score <= 1 + 1e-12, `score ${r.score}`);
          if (i > 0) assert.ok(r.score <= fused[i - 1]!.score, 'scores fall down the list');
        }
        if (words[0] !== undefined && words[0] === meaning[0]) assert.ok(Math.abs(fused[0]!.score - 1) < 1e-12, 'first in both scores 1');
      }),
      { numRuns: 300 },
    );
  });
});
