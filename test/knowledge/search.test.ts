import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addBacklogItem } from '../../src/knowledge/items/backlog/add-backlog-item.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { revokeDecision } from '../../src/knowledge/items/decision/revoke-decision.ts';
import { supersedeDecision } from '../../src/knowledge/items/decision/supersede-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { askQuestion } from '../../src/knowledge/items/question/ask-question.ts';
import { searchKnowledge, tokenize } from '../../src/knowledge/views/search.ts';
import { rejectsWith } from '../core.ts';
import { git, openTestKb, tempRepo } from '../helpers.ts';

/** searchKnowledge called directly: one seeded store shared by these read-only tests. */
describe('searchKnowledge (BM25 over the store)', () => {
  let dir: string;
  let cleanup: () => void;
  let kb: KnowledgeBase;
  let first: string;
  const tip = () => git(dir, ['rev-parse', 'refs/memory/main']).trim();
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    kb = await openTestKb(dir);
    await initStore(kb);
    await addDecision(kb, { title: 'Use Postgres for billing', decision: 'Billing data lives in Postgres.', reasoning: 'Transactions and mature tooling.' });
    first = tip();
    await addDecision(kb, { title: 'Cache sessions in Redis', decision: 'Session tokens are cached in Redis with a TTL.', tags: ['cache'] });
    await addDecision(kb, { title: 'Queue jobs with Kafka', decision: 'Background jobs go through Kafka topics.' });
    // superseded: the old one mentions "monolith", its successor does not
    await addDecision(kb, { title: 'Deploy a monolith', decision: 'One deployable monolith for now.' });
    await supersedeDecision(kb, { id: 'deploy-a-monolith', title: 'Deploy services separately', decision: 'Each service is deployed on its own.' });
    // revoked, with the same words as an active memory
    await addDecision(kb, { title: 'Retry uploads forever', decision: 'Uploads are retried without limit.' });
    await revokeDecision(kb, { id: 'retry-uploads-forever', reason: 'it hid outages' });
    await addMemory(kb, { type: 'pattern', title: 'Retry uploads with backoff', description: 'Uploads are retried with exponential backoff.' });
    await addMemory(kb, { type: 'feedback', title: 'Service svc-5 logs in JSON', description: 'svc-5 writes structured logs.' });
    await addMemory(kb, { type: 'feedback', title: 'Service svc-6 logs in text', description: 'svc-6 writes plain text logs.' });
    await addBacklogItem(kb, { title: 'Move billing reports to Postgres views' });
    await askQuestion(kb, { question: 'Which Postgres version for billing?' });
    await addDecision(kb, { title: 'Long rationale', decision: `${'Filler words about nothing in particular. '.repeat(20)}The zebra clause is here. ${'More filler words follow after it. '.repeat(20)}` });
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    cleanup();
  });

  test('ranks by relevance, cites the commit and path, and counts every match', async () => {
    const r = await searchKnowledge(kb, { query: 'postgres billing' });
    assert.equal(r.commit, tip());
    assert.equal(r.hits[0]!.slug, 'use-postgres-for-billing');
    assert.equal(r.hits[0]!.kind, 'decision');
    assert.equal(r.hits[0]!.id, 'D-001');
    assert.equal(r.hits[0]!.path, 'decisions/use-postgres-for-billing.md');
    assert.equal(r.hits[0]!.citation, `git:${tip()}:decisions/use-postgres-for-billing.md`);
    assert.match(r.hits[0]!.snippet, /Postgres/);
    // by default decisions and memories only: the backlog item and the question are not searched
    assert.ok(r.hits.every((h) => h.kind === 'decision' || h.kind === 'memory'), JSON.stringify(r.hits));
    assert.equal(r.total, r.hits.length);
    for (let i = 1; i < r.hits.length; i++) assert.ok(r.hits[i - 1]!.score >= r.hits[i]!.score, 'sorted by score');
  });

  test('type picks the kinds searched: one kind, or all', async () => {
    const backlog = await searchKnowledge(kb, { query: 'postgres billing', type: 'backlog' });
    assert.deepEqual(backlog.hits.map((h) => [h.kind, h.id]), [['backlog', 'B-001']]);
    const question = await searchKnowledge(kb, { query: 'postgres billing', type: 'question' });
    assert.deepEqual(question.hits.map((h) => [h.kind, h.id, h.title]), [['question', 'Q-001', 'Which Postgres version for billing?']]);
    const all = await searchKnowledge(kb, { query: 'postgres billing', type: 'all' });
    assert.deepEqual([...new Set(all.hits.map((h) => h.kind))].sort(), ['backlog', 'decision', 'question']);
    const memory = await searchKnowledge(kb, { query: 'postgres billing', type: 'memory' });
    assert.deepEqual(memory.hits, []);
  });

  test('k bounds the hits; total still counts every match', async () => {
    const r = await searchKnowledge(kb, { query: 'uploads retried logs service', k: 2 });
    assert.equal(r.hits.length, 2);
    assert.ok(r.total > 2, `total ${r.total}`);
  });

  test('a superseded decision never outranks its successor, which is brought in when only the old one matched', async () => {
    const r = await searchKnowledge(kb, { query: 'monolith' });
    assert.deepEqual(r.hits.map((h) => [h.slug, h.status]), [['deploy-services-separately', 'active'], ['deploy-a-monolith', 'superseded']]);
    assert.equal(r.hits[0]!.via, 'deploy-a-monolith');
    assert.ok(r.hits[0]!.score >= r.hits[1]!.score, 'lifted to at least the old one\'s score');
  });

  test('items no longer current rank below current ones with the same words', async () => {
    const r = await searchKnowledge(kb, { query: 'retry uploads' });
    const slugs = r.hits.map((h) => h.slug);
    assert.ok(slugs.indexOf('retry-uploads-with-backoff') < slugs.indexOf('retry-uploads-forever'), slugs.join(', '));
    assert.equal(r.hits.find((h) => h.slug === 'retry-uploads-forever')!.status, 'revoked');
  });

  test('a lone digit tells identifiers apart', async () => {
    const r = await searchKnowledge(kb, { query: 'svc-6' });
    assert.equal(r.hits[0]!.slug, 'service-svc-6-logs-in-text');
  });

  test('the snippet is the best line, cut around the term when long', async () => {
    const r = await searchKnowledge(kb, { query: 'zebra' });
    assert.equal(r.hits[0]!.slug, 'long-rationale');
    const s = r.hits[0]!.snippet;
    assert.match(s, /^….*zebra clause.*…$/);
    assert.ok(s.length <= 202, `${s.length} characters`);
  });

  test('at a revision: what the store held then', async () => {
    const r = await searchKnowledge(kb, { query: 'redis sessions', at: first });
    assert.equal(r.commit, first);
    assert.deepEqual(r.hits, []);
    const now = await searchKnowledge(kb, { query: 'redis sessions' });
    assert.equal(now.hits[0]!.slug, 'cache-sessions-in-redis');
  });

  test('stop words alone find nothing; bad input is INVALID_INPUT naming the field', async () => {
    assert.deepEqual(await searchKnowledge(kb, { query: 'the and of' }), { hits: [], commit: tip(), total: 0 });
    await rejectsWith(searchKnowledge(kb, { query: '   ' }), 'INVALID_INPUT', /query/);
    await rejectsWith(searchKnowledge(kb, { query: 'x', k: 0 }), 'INVALID_INPUT', /\bk\b/);
    await rejectsWith(searchKnowledge(kb, { query: 'x', type: 'everything' as never }), 'INVALID_INPUT', /type/);
  });

  test('before init: NOT_INITIALIZED', async () => {
    const empty = tempRepo();
    const k2 = await openTestKb(empty.dir);
    try {
      await rejectsWith(searchKnowledge(k2, { query: 'anything' }), 'NOT_INITIALIZED');
    } finally {
      await closeKnowledgeBase(k2);
      empty.cleanup();
    }
  });
});

describe('tokenize', () => {
  test('lowercase words, accents folded, stop words dropped, plurals trimmed, lone digits kept', () => {
    assert.deepEqual(tokenize('The Cafés of Zürich'), ['cafe', 'zurich']);
    assert.deepEqual(tokenize('Policies and queries'), ['policy', 'query']);
    assert.deepEqual(tokenize('class access'), ['class', 'access']);
    assert.deepEqual(tokenize('svc-5 a b 7'), ['svc', '5', '7']);
    assert.deepEqual(tokenize('use the cache'), ['cache']);
  });
});
