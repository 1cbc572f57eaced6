import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addBacklogItem } from '../../src/knowledge/items/backlog/add-backlog-item.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { amendDecision } from '../../src/knowledge/items/decision/amend-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { checkManifest } from '../../src/knowledge/models/catalog.ts';
import { pullModel } from '../../src/knowledge/models/pull-model.ts';
import { embeddedText } from '../../src/knowledge/views/search/dense.ts';
import { compareRankings, readEvalFile } from '../../src/knowledge/views/search/evaluate.ts';
import { vectorTable } from '../../src/knowledge/views/search/vector-table.ts';
import { readVectors } from '../../src/knowledge/views/search/vectors.ts';
import { loadSearchIndex, searchStore } from '../../src/knowledge/views/search.ts';
import { rejectsWith } from '../core.ts';
import { openTestKb, tempRepo } from '../helpers.ts';
import { seededStore } from '../seeded-store.ts';
import { manifestOf, modelServer, routesFor, TOPICS, tinyModelFiles } from './tiny-model.ts';

/** The vector files beside the search index, and the content hashes each holds. */
function vectorFiles(kb: KnowledgeBase): Array<{ name: string; hashes: string[] }> {
  const dir = join(kb.repo.axmeDir, 'search');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.startsWith('vectors-'))
    .map((name) => ({ name, hashes: [...readVectors(dir, name.slice('vectors-'.length, -'.bin'.length)).keys()] }));
}

const QUERIES = ['postgres', 'request logging', 'kafka jobs', 'invoices stripe', 'telemetry', 'sign in', 'data'];

/** Every query's hits (slug, kind, score) through the one search path. */
const rankings = async (kb: KnowledgeBase) =>
  Promise.all(QUERIES.map(async (q) => (await searchStore(kb, q)).hits.map((h) => `${h.kind}:${h.slug}:${h.score}`)));

describe('search with a local model: the tiny model through the real loading code, fused with the word ranking', () => {
  let repo: { dir: string; cleanup: () => void };
  let cache: string;
  let server: Awaited<ReturnType<typeof modelServer>>;
  const { files } = tinyModelFiles();
  before(async () => {
    repo = tempRepo();
    cache = mkdtempSync(join(tmpdir(), 'axme-cache-'));
    server = await modelServer(routesFor(files));
    const kb = await openTestKb(repo.dir);
    await initStore(kb);
    await addBacklogItem(kb, { title: 'Add request logging', description: 'Every request is written with its id.' });
    await addDecision(kb, { title: 'Use Postgres for persistence', decision: 'Data is kept in Postgres.' });
    await addDecision(kb, { title: 'Queue jobs with Kafka', decision: 'Background jobs go through Kafka.' });
    await addMemory(kb, { type: 'pattern', title: 'Invoices go through Stripe', description: 'Billing is done by Stripe.' });
    await closeKnowledgeBase(kb);
  });
  after(async () => {
    await server.close();
    repo.cleanup();
    rmSync(cache, { recursive: true, force: true });
  });
  /** The store opened with this machine's cache; `model` as AXME_SEARCH_MODEL ('' = the one pulled). */
  const open = (model: string) => openTestKb(repo.dir, { env: { XDG_CACHE_HOME: cache, AXME_MODELS_URL: server.url, AXME_SEARCH_MODEL: model } });

  test('without a model: words only, and the rankings are the same whether no model is installed, none is chosen, or the one chosen does not load', async () => {
    let kb = await open('');
    const none = await rankings(kb);
    assert.deepEqual(vectorFiles(kb), [], 'no model, no vectors');
    assert.deepEqual((await searchStore(kb, 'telemetry')).hits, [], 'no item has the word');
    await closeKnowledgeBase(kb);
    // a model folder that is broken (a table that is not safetensors) is the same as none
    const broken = join(cache, 'axme', 'models', 'broken');
    await pullModel({ env: { XDG_CACHE_HOME: cache, AXME_MODELS_URL: server.url }, manifest: checkManifest(manifestOf('tiny', files), 't') });
    cpSync(join(cache, 'axme', 'models', 'tiny'), broken, { recursive: true });
    writeFileSync(join(broken, 'model.safetensors'), 'damaged');
    writeFileSync(join(broken, 'manifest.json'), JSON.stringify(manifestOf('broken', files)));
    kb = await open('broken');
    assert.deepEqual(await rankings(kb), none);
    await closeKnowledgeBase(kb);
    kb = await open('off');
    assert.deepEqual(await rankings(kb), none);
    assert.deepEqual(vectorFiles(kb), []);
    await closeKnowledgeBase(kb);
  });

  test('with the model pulled: a query that shares no word with an item finds it by meaning; words still rank what they match', async () => {
    await pullModel({ env: { XDG_CACHE_HOME: cache, AXME_MODELS_URL: server.url }, manifest: checkManifest(manifestOf('tiny', files), 't') });
    const kb = await open('');
    try {
      const telemetry = await searchStore(kb, 'telemetry');
      assert.equal(telemetry.hits[0]?.slug, 'add-request-logging');
      assert.equal(telemetry.hits[0]?.kind, 'backlog');
      const money = await searchStore(kb, 'payment');
      assert.equal(money.hits[0]?.slug, 'invoices-go-through-stripe');
      // a word match stays first: fused, not replaced
      assert.equal((await searchStore(kb, 'kafka')).hits[0]?.slug, 'queue-jobs-with-kafka');
      assert.equal((await searchStore(kb, 'database', { type: 'decision' })).hits[0]?.slug, 'use-postgres-for-persistence');
      assert.deepEqual(
        (await searchStore(kb, 'database', { type: 'memory' })).hits.map((h) => h.kind).filter((k) => k !== 'memory'),
        [],
        '--type still narrows',
      );
      const [file] = vectorFiles(kb);
      assert.equal(file?.hashes.length, 4, 'one vector an item, beside the index');
    } finally {
      await closeKnowledgeBase(kb);
    }
  });

  test('after a write only the new item is embedded; a new process reads the vectors from disk', async () => {
    let kb = await open('');
    const before = vectorFiles(kb)[0]!;
    const file = join(kb.repo.axmeDir, 'search', before.name);
    const bytesBefore = readFileSync(file);
    await addDecision(kb, { title: 'Trace every job', decision: 'Jobs carry a trace id.' });
    assert.equal(
      (await searchStore(kb, 'observability')).hits.some((h) => h.slug === 'trace-every-job'),
      true,
    );
    const afterWrite = vectorFiles(kb)[0]!.hashes;
    assert.equal(afterWrite.length, before.hashes.length + 1);
    assert.deepEqual(afterWrite.slice(0, before.hashes.length), before.hashes, 'the others kept as they were');
    // the new item's entry appended (its hash and six floats), the file not written again
    const bytesAfter = readFileSync(file);
    assert.equal(bytesAfter.length, bytesBefore.length + 32 + 4 * 6);
    assert.ok(bytesAfter.subarray(0, bytesBefore.length).equals(bytesBefore));
    await closeKnowledgeBase(kb);
    // a new process: every item's vector comes from the file, only the query is embedded
    kb = await open('');
    const hits = (await searchStore(kb, 'telemetry')).hits.map((h) => h.slug);
    assert.deepEqual(hits.slice(0, 2).sort(), ['add-request-logging', 'trace-every-job']);
    assert.equal(vectorFiles(kb)[0]!.hashes.length, afterWrite.length, 'nothing embedded again');
    await closeKnowledgeBase(kb);
  });

  test('after writes that add, change and reorder items, the ranking of the process that wrote is the ranking of a new process', async () => {
    let kb = await open('');
    await rankings(kb); // the vectors laid out once: the writes below lay them out again from this table
    await addDecision(kb, { title: 'Audit every sign in', decision: 'Each login is written to the audit log.' });
    await rankings(kb);
    await amendDecision(kb, { id: 'use-postgres-for-persistence', decision: 'Data is kept in Postgres, invoices too.' });
    await addMemory(kb, { type: 'pattern', title: 'Billing jobs run at night', description: 'The invoice queue runs at 2am.' });
    const written = await rankings(kb);
    await closeKnowledgeBase(kb);
    kb = await open('');
    assert.deepEqual(await rankings(kb), written);
    await closeKnowledgeBase(kb);
  });

  test("models eval: the user's own questions, by words and with the model, side by side", async () => {
    const file = join(cache, 'questions.jsonl');
    writeFileSync(
      file,
      [
        '{"query": "telemetry", "expect": ["add-request-logging", "trace-every-job"]}',
        '{"query": "kafka", "expect": "queue-jobs-with-kafka"}',
        '{"query": "payment", "expect": ["invoices-go-through-stripe"]}',
      ].join('\n'),
    );
    let kb = await open('');
    const r = await compareRankings(kb, readEvalFile(file));
    await closeKnowledgeBase(kb);
    assert.equal(r.queries, 3);
    assert.deepEqual(
      r.rows.map((x) => x.ranking),
      ['words', 'words + model tiny'],
    );
    const [words, model] = r.rows;
    assert.deepEqual(words!.missed, ['telemetry', 'payment']);
    assert.equal(words!.r1, 0.333);
    assert.deepEqual(model!.missed, []);
    assert.equal(model!.r1, 1);
    assert.equal(model!.mrr, 1);
    // no model: one row, the same as the words row
    kb = await open('off');
    assert.deepEqual((await compareRankings(kb, readEvalFile(file))).rows, [words]);
    await closeKnowledgeBase(kb);
    writeFileSync(file, '[{"query": "x"}]');
    await rejectsWith(
      Promise.resolve().then(() => readEvalFile(file)),
      'INVALID_INPUT',
      /case 1: "expected" names no item/,
    );
  });
});

describe('the ranking by meaning on a store of many items close in meaning: the int8 pass ranks as the full pass', () => {
  const { files } = tinyModelFiles();
  const words = Object.values(TOPICS).flat();
  // 600 decisions, each the five topics' first words repeated in proportions of its own: cosines
  // spread finely between 0 and 1, many closer together than int8's rounding
  const topics = Object.values(TOPICS).map((w) => w[0]!);
  const repo = seededStore(600, (i) => ({
    slug: `mix-${i}`,
    title: `Mix ${i}`,
    decision: topics.map((w, t) => `${w} `.repeat(1 + (Math.floor(i / 5 ** t) % 5) * (t + 1))).join('and '),
  }));
  let cache: string;
  let server: Awaited<ReturnType<typeof modelServer>>;
  before(async () => {
    cache = mkdtempSync(join(tmpdir(), 'axme-cache-'));
    server = await modelServer(routesFor(files));
    await pullModel({ env: { XDG_CACHE_HOME: cache, AXME_MODELS_URL: server.url }, manifest: checkManifest(manifestOf('tiny', files), 't') });
  });
  after(async () => {
    await server.close();
    rmSync(repo, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });

  test('every query gives the same hits and scores through the int8 pass as through the JavaScript pass over every vector (the order itself is held by vector-table.test.ts)', async () => {
    const kb = await openTestKb(repo, { env: { XDG_CACHE_HOME: cache, AXME_MODELS_URL: server.url, AXME_SEARCH_MODEL: '' } });
    try {
      const queries = [...words, 'request logging with stripe', 'postgres queue', 'sign in to billing', 'observability of jobs'];
      const ranked = async () => Promise.all(queries.map(async (q) => (await searchStore(kb, q, { k: 20 })).hits.map((h) => `${h.slug}:${h.score}`)));
      const twoStage = await ranked();
      const { index } = await loadSearchIndex(kb);
      const table = index.dense!.vectors;
      assert.ok(table.int8, 'the query used the int8 pass');
      assert.equal(table.count, 600);
      const plain = vectorTable(table.count, table.dims, { simd: false });
      plain.rows.set(table.rows);
      index.dense!.vectors = plain;
      assert.deepEqual(await ranked(), twoStage);
    } finally {
      await closeKnowledgeBase(kb);
    }
  });
});

describe('what of an item is embedded', () => {
  test('its title, keys and body, not its display ID (a word-ranking key): a vector kept by its text stays valid', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    try {
      const kb = await openTestKb(dir);
      try {
        await initStore(kb);
        await addDecision(kb, { title: 'Use Postgres', decision: 'Orders live in Postgres.', tags: ['storage'] });
        const { index } = await loadSearchIndex(kb);
        const doc = index.docs.find((d) => d.slug === 'use-postgres')!;
        assert.ok(doc.parts.keys.includes('D-001'), 'the ID is a key of the word ranking');
        assert.equal(embeddedText(doc), 'Use Postgres\nstorage\nOrders live in Postgres.\n'); // the reasoning, empty, last
      } finally {
        await closeKnowledgeBase(kb);
      }
    } finally {
      cleanup();
    }
  });
});
