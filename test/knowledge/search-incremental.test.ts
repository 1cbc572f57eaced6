/**
 * The search index after a write is patched, not rebuilt (docs/search.md, "How the index is kept"): a
 * seeded random run of adds, edits, revocations, archivings and supersessions through the core
 * writes, and after each one the process's own index ranks exactly as an index built from scratch
 * of the same tip, and the files it leaves on disk answer the same in another process and at the
 * tip (no store opened).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { readMergedState } from '../../src/knowledge/core/merged-state.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { amendDecision } from '../../src/knowledge/items/decision/amend-decision.ts';
import { revokeDecision } from '../../src/knowledge/items/decision/revoke-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { archiveMemory } from '../../src/knowledge/items/memory/archive-memory.ts';
import { supersedeMemory } from '../../src/knowledge/items/memory/supersede-memory.ts';
import { updateMemory } from '../../src/knowledge/items/memory/update-memory.ts';
import { buildIndex, type Index } from '../../src/knowledge/views/search/build-index.ts';
import { queryOf } from '../../src/knowledge/views/search/hits.ts';
import { rank, scoreQuery } from '../../src/knowledge/views/search/rank.ts';
import { glossaryOf, sourcesOf } from '../../src/knowledge/views/search/sources.ts';
import { searchAtTip } from '../../src/knowledge/views/search/tip-search.ts';
import { loadSearchIndex, searchKnowledge } from '../../src/knowledge/views/search.ts';
import { locateRepo } from '../../src/store/locate.ts';
import { cleanEnv, openTestKb, tempRepo } from '../helpers.ts';

const WORDS = [
  'postgres',
  'billing',
  'redis',
  'cache',
  'kafka',
  'queue',
  'retry',
  'upload',
  'session',
  'token',
  'deploy',
  'schema',
  'index',
  'latency',
  'budget',
];
const QUERIES = ['postgres billing', 'redis cache session', 'kafka queue retry', 'upload token', 'deploy schema index', 'latency budget', 'cache'];

/** A small seeded generator (mulberry32): the same run every time, a different store each step. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Every document's score and rank for each query: what two indexes must agree on. */
function rankings(index: Index): string[] {
  return QUERIES.map((q) => {
    const { said, groups } = queryOf(index, q);
    const { ranked, total } = rank(index, scoreQuery(index, groups), said, 50, () => false);
    return `${q} (${total}): ${ranked.map((r) => `${r.doc.slug}=${r.score.toFixed(12)}`).join(' ')}`;
  });
}

describe('search index after writes', () => {
  let dir: string;
  let cleanup: () => void;
  let kb: KnowledgeBase;
  const env = cleanEnv();
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    kb = await openTestKb(dir);
    await initStore(kb);
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    cleanup();
  });

  test('after each of a seeded run of writes, the patched index ranks as one built from scratch, on disk and at the tip too', async () => {
    const random = seeded(33);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const text = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
    const decisions: string[] = [];
    const memories: string[] = [];
    for (let step = 0; step < 24; step++) {
      const roll = random();
      if (roll < 0.35 || decisions.length < 2) {
        const r = await addDecision(kb, { title: `Decision ${step} on ${text(2)}`, decision: `${text(6)}.`, reasoning: `${text(3)}.`, tags: [pick(WORDS)] });
        decisions.push(r.item.id);
      } else if (roll < 0.55 || memories.length < 2) {
        const r = await addMemory(kb, { type: 'pattern', title: `Memory ${step} about ${text(2)}`, description: `${text(8)}.`, keywords: [pick(WORDS)] });
        memories.push(r.item.slug);
      } else if (roll < 0.7) {
        await amendDecision(kb, { id: pick(decisions), decision: `${text(10)}.`, title: `Amended ${step} ${text(2)}` });
      } else if (roll < 0.8) {
        await updateMemory(kb, { slug: pick(memories), description: `${text(12)}.` });
      } else if (roll < 0.87) {
        await revokeDecision(kb, { id: decisions.splice(Math.floor(random() * decisions.length), 1)[0]!, reason: 'no longer holds' });
      } else if (roll < 0.94) {
        await archiveMemory(kb, { slug: memories.splice(Math.floor(random() * memories.length), 1)[0]! });
      } else {
        const old = memories.splice(Math.floor(random() * memories.length), 1)[0]!;
        const r = await supersedeMemory(kb, { slug: old, type: 'pattern', title: `Successor ${step} of ${text(2)}`, description: `${text(8)}.` });
        memories.push(r.item.slug);
      }
      // the process's own index, patched from the one before the write
      const loaded = await loadSearchIndex(kb);
      const mine = rankings(loaded.index);
      // the file is written once the answer is out: now
      kb.cache.settle();
      // the first index of the run is built; each after it patched from the one before
      assert.equal(loaded.index.patched === true, step > 0, `step ${step}: ${step > 0 ? 'patched' : 'built'}`);
      // the same tip's index built from scratch, in a process that never saw an index
      const other = await openTestKb(dir);
      try {
        const state = await readMergedState(other);
        const scratch = buildIndex(other, sourcesOf(state), glossaryOf(state));
        assert.deepEqual(mine, rankings(scratch), `step ${step}: the patched index ranks as a fresh build`);
        const reread = await loadSearchIndex(other);
        assert.equal(reread.source, 'disk', `step ${step}: the tip's files are read back`);
        assert.deepEqual(rankings(reread.index), mine, `step ${step}: the files on disk rank the same`);
      } finally {
        await closeKnowledgeBase(other);
      }
      // and the query at the tip (the prompt hook's, `axme search`'s), after the full path wrote the stale marks
      for (const q of QUERIES) {
        const full = await searchKnowledge(kb, { query: q, k: 10 });
        const tip = searchAtTip({ loc: locateRepo(dir, env)!, cwd: dir, env, query: q, k: 10, type: 'all' });
        assert.ok(tip, `step ${step}: the tip answers "${q}"`);
        assert.deepEqual(tip.hits, full.hits, `step ${step}: the tip ranks "${q}" as the full path`);
      }
    }
  });

  test('a process that read the index from disk patches it after its own first write', async () => {
    const other = await openTestKb(dir);
    try {
      assert.equal((await loadSearchIndex(other)).source, 'disk');
      await addMemory(other, { type: 'pattern', title: 'Budget the deploy latency', description: 'Deploys keep a latency budget per schema change.' });
      const next = await loadSearchIndex(other);
      assert.equal(next.index.patched, true);
      const state = await readMergedState(other);
      assert.deepEqual(rankings(next.index), rankings(buildIndex(other, sourcesOf(state), glossaryOf(state))));
    } finally {
      await closeKnowledgeBase(other);
    }
  });
});
