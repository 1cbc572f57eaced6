/**
 * `axme search --eval <file>`: the ranking measured on the user's own store (R@1, R@5, MRR,
 * nDCG@10), through the built CLI and the same search every surface runs.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { measuresOf, parseEvalCases } from '../../src/knowledge/views/search/evaluate.ts';
import { axmeIn } from '../cli-in-process.ts';
import { coreAt } from '../core.ts';
import { axme, tempRepo } from '../helpers.ts';

describe('measuresOf', () => {
  test('R@1, R@5, reciprocal rank and nDCG@10 of a ranked list', () => {
    const m = measuresOf(['x', 'a', 'y', 'b'], new Set(['a', 'b']));
    assert.equal(m.recall_at_1, 0);
    assert.equal(m.recall_at_5, 1);
    assert.equal(m.reciprocal_rank, 0.5);
    const ideal = 1 + 1 / Math.log2(3);
    assert.ok(Math.abs(m.ndcg_at_10 - (1 / Math.log2(3) + 1 / Math.log2(5)) / ideal) < 1e-12);
    assert.deepEqual(measuresOf(['a'], new Set(['a'])), { recall_at_1: 1, recall_at_5: 1, reciprocal_rank: 1, ndcg_at_10: 1 });
  });

  test('parseEvalCases reads JSON Lines and JSON arrays, and says which line is wrong', () => {
    assert.deepEqual(parseEvalCases('{"query":"a b","expected":"D-001"}\n\n{"query":"c","expected":["x","y"]}\n'), [
      { query: 'a b', expected: ['D-001'] },
      { query: 'c', expected: ['x', 'y'] },
    ]);
    assert.deepEqual(parseEvalCases('[{"query":"a","expected":["s"]}]'), [{ query: 'a', expected: ['s'] }]);
    assert.throws(() => parseEvalCases('{"query":"a","expected":["s"]}\n{oops', 'q.jsonl'), /q\.jsonl:2: not JSON/);
    assert.throws(() => parseEvalCases('{"query":"a"}', 'q.jsonl'), /q\.jsonl:1: "expected" names no item/);
  });
});

describe('axme search --eval', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    const c = coreAt(dir);
    await c.init();
    await c.addDecision({ title: 'Use Postgres for orders', decision: 'Orders live in Postgres.' });
    await c.addDecision({ title: 'Cache sessions in Redis', decision: 'Session tokens are cached in Redis.' });
    await c.addBacklog({ title: 'Add request logging', description: 'Every HTTP request gets one structured line.' });
  });
  after(() => cleanup());

  test('reports R@1, R@5, MRR and nDCG@10 over the cases, the misses, and names no item holds', async () => {
    const file = join(dir, 'eval.jsonl');
    // one answered first (by ID), one by slug, one that nothing answers, one naming no item
    const search = await axme(dir, ['search', 'redis sessions', '--json']);
    const redisId = (JSON.parse(search.stdout) as { hits: Array<{ id: string }> }).hits[0]!.id;
    writeFileSync(
      file,
      [
        { query: 'where do orders live', expected: ['use-postgres-for-orders'] },
        { query: 'redis sessions', expected: [redisId] },
        { query: 'kafka topics', expected: ['add-request-logging'] },
        { query: 'logging', expected: ['no-such-item'] },
      ]
        .map((c) => JSON.stringify(c))
        .join('\n'),
    );
    const r = await axme(dir, ['search', '--eval', 'eval.jsonl', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const e = JSON.parse(r.stdout) as {
      cases: number;
      recall_at_1: number;
      recall_at_5: number;
      mrr: number;
      ndcg_at_10: number;
      unknown: string[];
      rows: Array<{ rank: number | null }>;
    };
    assert.equal(e.cases, 4);
    assert.deepEqual(
      e.rows.map((x) => x.rank),
      [1, 1, null, null],
    );
    assert.equal(e.recall_at_1, 0.5);
    assert.equal(e.mrr, 0.5);
    assert.deepEqual(e.unknown, ['no-such-item']);
    const text = await axme(dir, ['search', '--eval', 'eval.jsonl']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^4 queries from eval\.jsonl: R@1 0\.500 {2}R@5 0\.500 {2}MRR 0\.500 {2}nDCG@10 0\.500/);
    assert.match(text.stdout, /no item is named no-such-item/);
  });

  test('a file that cannot be read or parsed is refused with what to write', async () => {
    const missing = await axme(dir, ['search', '--eval', 'nope.jsonl']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /cannot read nope\.jsonl/);
    writeFileSync(join(dir, 'bad.jsonl'), '{"query": "x"}\n');
    const bad = await axme(dir, ['search', '--eval', 'bad.jsonl']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /bad\.jsonl:1: "expected" names no item/);
    assert.equal(bad.stdout, '');
    // neither words nor --eval: a usage error that names both
    const none = await axme(dir, ['search']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /say what to look for.*--eval <file>/);
  });

  // each file: exit 2 and what its message says, nothing on stdout
  const REFUSED: Array<[name: string, text: string | null, message: RegExp]> = [
    ['missing.jsonl', null, /cannot read missing\.jsonl \(ENOENT\)/],
    ['empty.jsonl', '', /empty\.jsonl: it is empty/],
    ['blank.jsonl', '\n  \n', /blank\.jsonl: it is empty/],
    ['bad.json', '{"query": "orders", ', /bad\.json:1: not JSON/],
    ['array-empty.json', '[]', /array-empty\.json: it holds no questions/],
    ['queries-empty.json', '{"queries": []}', /queries-empty\.json: it holds no questions/],
    ['numbers.json', '[1, 2]', /numbers\.json case 1: "query" is missing/],
    ['string.json', '"orders"', /string\.json:1: "query" is missing/],
    ['no-expected.jsonl', '{"query": "orders", "expected": []}', /no-expected\.jsonl:1: "expected" names no item/],
    ['query-number.jsonl', '{"query": 12, "expected": ["D-001"]}', /query-number\.jsonl:1: "query" is missing/],
  ];
  for (const [name, text, message] of REFUSED)
    test(`--eval ${name}: exit 2, saying what is wrong and what to write`, async () => {
      if (text !== null) writeFileSync(join(dir, name), text);
      const r = await axmeIn(dir, ['search', '--eval', name]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, message);
      assert.match(r.stderr, /"query"/);
      assert.doesNotMatch(r.stderr, /^\s+at /m);
    });

  test('--eval reads a JSON array, a BOM and CRLF line ends; one question is "1 query"', async () => {
    writeFileSync(join(dir, 'array.json'), '[{"query": "orders postgres", "expected": ["use-postgres-for-orders"]}]');
    const array = await axmeIn(dir, ['search', '--eval', 'array.json']);
    assert.equal(array.code, 0, array.stderr);
    assert.match(array.stdout, /^1 query from array\.json: R@1 1\.000/);
    writeFileSync(join(dir, 'crlf.jsonl'), '\ufeff{"query": "orders", "expected": ["D-001"]}\r\n{"query": "redis", "expected": ["D-002"]}\r\n');
    const crlf = await axmeIn(dir, ['search', '--eval', 'crlf.jsonl', '--json']);
    assert.equal(crlf.code, 0, crlf.stderr);
    assert.equal(JSON.parse(crlf.stdout).cases, 2);
  });

  test('words and --eval together: exit 2, one or the other', async () => {
    writeFileSync(join(dir, 'one.jsonl'), '{"query": "orders", "expected": ["D-001"]}\n');
    const r = await axmeIn(dir, ['search', 'orders', '--eval', 'one.jsonl']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /either words to search or --eval <file>/);
  });
});
