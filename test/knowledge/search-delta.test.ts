/**
 * After a process's own write, its search index is the previous one with the write's changes laid
 * over it (search/after-write.ts, search/live-index.ts), not a layout of every posting: random
 * runs of writes (fast-check) — adds, edits, revocations, archivings and supersessions of
 * decisions, memories and backlog items, several commits between two reads at times, the file
 * written between two writes at times — and after each read the laid-over index ranks every query
 * (words, prefixes, near spellings, phrases) exactly as an index built from scratch of the same
 * tip; once written, its file reads back the same in another process and at the tip.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { initStore } from '../../src/knowledge/admin/init-store.ts';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { readMergedState } from '../../src/knowledge/core/merged-state.ts';
import { addBacklogItem } from '../../src/knowledge/items/backlog/add-backlog-item.ts';
import { updateBacklogItem } from '../../src/knowledge/items/backlog/update-backlog-item.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { amendDecision } from '../../src/knowledge/items/decision/amend-decision.ts';
import { revokeDecision } from '../../src/knowledge/items/decision/revoke-decision.ts';
import { supersedeDecision } from '../../src/knowledge/items/decision/supersede-decision.ts';
import { addMemory } from '../../src/knowledge/items/memory/add-memory.ts';
import { archiveMemory } from '../../src/knowledge/items/memory/archive-memory.ts';
import { updateMemory } from '../../src/knowledge/items/memory/update-memory.ts';
import { buildIndex, type Index } from '../../src/knowledge/views/search/build-index.ts';
import { queryOf } from '../../src/knowledge/views/search/hits.ts';
import { diffLists } from '../../src/knowledge/views/search/list-diff.ts';
import { movesOf } from '../../src/knowledge/views/search/patch-postings.ts';
import { rank, scoreQuery } from '../../src/knowledge/views/search/rank.ts';
import { glossaryOf, sourcesOf } from '../../src/knowledge/views/search/sources.ts';
import { searchAtTip } from '../../src/knowledge/views/search/tip-search.ts';
import { loadSearchIndex, searchKnowledge } from '../../src/knowledge/views/search.ts';
import { locateRepo } from '../../src/store/locate.ts';
import { cleanEnv, openTestKb, tempRepo } from '../helpers.ts';

const WORDS = ['postgres', 'billing', 'redis', 'cache', 'kafka', 'queue', 'retry', 'upload', 'session', 'token', 'deploy', 'schema', 'latency', 'budget'];
/** words few items hold: a write that drops one leaves a term no document holds, which a query must not see */
const RARE = ['xylophone', 'quokkas', 'zeppelin', 'marimba', 'marimbo', 'kestrel', 'tamarind', 'obsidian', 'halibut', 'halibat', 'juniper', 'nebulae'];
/** words, prefixes (`postg`, `quok`), near spellings (`billin`, `kafak`, `sesion`, `xylophon`), words no item holds, phrases */
const QUERIES = [
  'postgres billing',
  'redis cache session',
  'kafka queue retry',
  'upload token',
  'postg',
  'billin kafak',
  'sesion tokens',
  'nothing',
  'latency budget deploy schema',
  'cache',
  'xylophon quok',
  'zeppeln marimb kestrl',
  'tamarind obsidian gondola',
  'halibu junipers nebula',
  // a word of the store, or one edit from one: a term no document holds any more must leave its neighbours to the query
  'marimba',
  'halibut',
];

/** Every query's total and ranked items with their scores: what two indexes must agree on. */
function rankings(index: Index, queries = QUERIES): string[] {
  return queries.map((q) => {
    const { said, groups } = queryOf(index, q);
    if (said.length === 0) return `${q}: -`;
    const { ranked, total } = rank(index, scoreQuery(index, groups), said, 50, () => false);
    return `${q} (${total}): ${ranked.map((r) => `${r.doc.slug}${r.via ? `<${r.via}` : ''}=${r.score.toFixed(12)}`).join(' ')}`;
  });
}

type Op = {
  kind: 'add-decision' | 'add-memory' | 'add-backlog' | 'amend' | 'update-memory' | 'revoke' | 'archive' | 'supersede' | 'backlog-done';
  words: string[];
  pick: number;
};
type Step = { op: Op; read: boolean; write: boolean };

const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('add-decision', 'add-memory', 'add-backlog', 'amend', 'update-memory', 'revoke', 'archive', 'supersede', 'backlog-done'),
  words: fc
    .tuple(fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 9 }), fc.option(fc.constantFrom(...RARE), { nil: undefined }))
    .map(([words, rare]) => (rare ? [...words, rare] : words)),
  pick: fc.nat(),
});
/** a write, then (or not) a read of the index, then (or not) the file written */
const step: fc.Arbitrary<Step> = fc.record({ op, read: fc.boolean(), write: fc.boolean() });

describe('search index laid over after a write', () => {
  let dir: string;
  let cleanup: () => void;
  let kb: KnowledgeBase;
  const env = cleanEnv();
  const ids = { decisions: [] as string[], memories: [] as string[], backlog: [] as string[] };
  let n = 0;

  before(async () => {
    ({ dir, cleanup } = tempRepo());
    kb = await openTestKb(dir);
    await initStore(kb);
    // enough items that a write changes less than a share of them
    for (let i = 0; i < 24; i++) {
      const w = (k: number) => WORDS[(i * 7 + k) % WORDS.length]!;
      ids.decisions.push((await addDecision(kb, { title: `Seed ${i} on ${w(0)} ${w(1)}`, decision: `${w(2)} ${w(3)} ${w(4)}.`, tags: [w(5)] })).item.id);
      if (i % 2)
        ids.memories.push((await addMemory(kb, { type: 'pattern', title: `Seed memory ${i} ${w(6)}`, description: `${w(7)} ${w(8)} ${w(1)}.` })).item.slug);
    }
    assert.equal((await loadSearchIndex(kb)).source, 'built');
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    cleanup();
  });

  async function apply({ kind, words, pick }: Op): Promise<void> {
    const text = words.join(' ');
    const from = (list: string[]) => list[pick % list.length]!;
    n++;
    if (kind === 'add-decision' || (kind === 'amend' && !ids.decisions.length))
      ids.decisions.push((await addDecision(kb, { title: `Decision ${n} ${words[0]} ${words[1]}`, decision: `${text}.`, tags: [words[0]!] })).item.id);
    else if (kind === 'add-memory' || ((kind === 'update-memory' || kind === 'archive') && !ids.memories.length))
      ids.memories.push((await addMemory(kb, { type: 'pattern', title: `Memory ${n} ${words[0]}`, description: `${text}.`, keywords: [words[1]!] })).item.slug);
    else if (kind === 'add-backlog' || (kind === 'backlog-done' && !ids.backlog.length))
      ids.backlog.push((await addBacklogItem(kb, { title: `Work ${n} on ${words[0]}`, description: `${text}.` })).item.id);
    else if (kind === 'amend') await amendDecision(kb, { id: from(ids.decisions), decision: `${text}.`, title: `Amended ${n} ${words[1]}` });
    else if (kind === 'update-memory') await updateMemory(kb, { slug: from(ids.memories), description: `${text}.` });
    else if (kind === 'archive') await archiveMemory(kb, { slug: ids.memories.splice(pick % ids.memories.length, 1)[0]! });
    else if (kind === 'backlog-done') await updateBacklogItem(kb, { id: from(ids.backlog), status: 'done', notes: text });
    else if (ids.decisions.length < 2) ids.decisions.push((await addDecision(kb, { title: `Decision ${n}`, decision: `${text}.` })).item.id);
    else {
      const old = ids.decisions.splice(pick % ids.decisions.length, 1)[0]!;
      if (kind === 'revoke') await revokeDecision(kb, { id: old, reason: 'no longer holds' });
      else ids.decisions.push((await supersedeDecision(kb, { id: old, title: `Successor ${n} ${words[0]}`, decision: `${text}.` })).item.id);
    }
  }

  /** The index of the tip built from scratch, in a process that never saw an index. */
  async function fresh(queries = QUERIES): Promise<string[]> {
    const other = await openTestKb(dir);
    try {
      const state = await readMergedState(other);
      return rankings(buildIndex(other, sourcesOf(state), glossaryOf(state)), queries);
    } finally {
      await closeKnowledgeBase(other);
    }
  }

  test('after random runs of writes, the laid-over index ranks every query as a fresh build; its file reads back the same', async () => {
    let laid = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        for (const [i, { op, read, write }] of steps.entries()) {
          await apply(op);
          if (!read && i < steps.length - 1) continue;
          const loaded = await loadSearchIndex(kb);
          assert.equal(loaded.source, 'incremental');
          if (loaded.index.delta) laid++;
          assert.deepEqual(rankings(loaded.index), await fresh(), `${op.kind}: the laid-over index ranks as a fresh build`);
          if (write) kb.cache.settle();
        }
        kb.cache.settle();
        const mine = rankings((await loadSearchIndex(kb)).index);
        const other = await openTestKb(dir);
        try {
          const reread = await loadSearchIndex(other);
          assert.equal(reread.source, 'disk', 'the file written after the answer is read back');
          assert.deepEqual(rankings(reread.index), mine);
        } finally {
          await closeKnowledgeBase(other);
        }
        for (const q of ['postgres billing', 'sesion tokens']) {
          const full = await searchKnowledge(kb, { query: q, k: 10 });
          const tip = searchAtTip({ loc: locateRepo(dir, env)!, cwd: dir, env, query: q, k: 10, type: 'all' });
          assert.ok(tip, `the tip answers "${q}"`);
          assert.deepEqual(tip.hits, full.hits, `the tip ranks "${q}" as the full path`);
        }
      }),
      { numRuns: 12, seed: 33 },
    );
    assert.ok(laid > 0, 'some reads laid a write over the previous index');
  });

  test('a term the write leaves no document holding is gone from the laid-over index: a query finds its neighbours, as in a fresh build', async () => {
    const { item } = await addDecision(kb, { title: 'Tune the theremin', decision: 'The theremin plays the session cache.' });
    await addMemory(kb, { type: 'pattern', title: 'Theramin notes', description: 'The theramin keeps the upload tokens.' });
    await loadSearchIndex(kb);
    await amendDecision(kb, { id: item.id, title: 'Tune the xylophone', decision: 'The xylophone plays the session cache.' });
    const loaded = await loadSearchIndex(kb);
    assert.ok(loaded.index.delta, 'the write laid over the previous index');
    assert.equal(loaded.index.postings.ids.has('theremin'), false);
    const queries = ['theremin', 'thereminn notes'];
    const ranked = rankings(loaded.index, queries);
    assert.match(ranked[0]!, /theramin-notes=/, 'one edit away: the memory that holds "theramin"');
    assert.deepEqual(ranked, await fresh(queries));
  });

  test('until the file is written, the tip is left to the full path; closing the knowledge base writes it', async () => {
    await addMemory(kb, { type: 'pattern', title: 'Budget the kafka retries', description: 'Retries of kafka uploads keep a latency budget.' });
    const loaded = await loadSearchIndex(kb);
    assert.ok(loaded.index.delta, 'the write laid over the previous index');
    const ask = () => searchAtTip({ loc: locateRepo(dir, env)!, cwd: dir, env, query: 'kafka budget', k: 5, type: 'all' });
    assert.equal(ask(), undefined, 'no file for this tip yet: the full path answers');
    await closeKnowledgeBase(kb);
    const tip = ask();
    assert.ok(tip, 'the file written at close');
    kb = await openTestKb(dir);
    assert.deepEqual(tip.hits, (await searchKnowledge(kb, { query: 'kafka budget', k: 5 })).hits);
  });
});

describe('item lists compared', () => {
  type Item = { key: number };
  const byKey = (a: Item, b: Item) => a.key - b.key;
  /** lists of items sorted by key, and the lists after a change: each item kept (the same object), gone, or replaced (a new object of its key); new keys added */
  const change = fc
    .array(
      fc.tuple(
        fc.uniqueArray(fc.nat(60), { maxLength: 30 }),
        fc.array(fc.constantFrom('keep', 'keep', 'keep', 'gone', 'replace')),
        fc.uniqueArray(fc.nat(60), { maxLength: 4 }),
        fc.boolean(),
      ),
      {
        minLength: 1,
        maxLength: 4,
      },
    )
    .map((lists) =>
      lists.map(([keys, fates, extra, same]) => {
        const before = [...keys].sort((a, b) => a - b).map((key) => ({ key }));
        if (same) return { before, after: before };
        const after: Item[] = [];
        before.forEach((item, i) => {
          const fate = fates[i % Math.max(1, fates.length)] ?? 'keep';
          if (fate === 'keep') after.push(item);
          else if (fate === 'replace') after.push({ key: item.key });
        });
        for (const key of extra) if (!keys.includes(key)) after.push({ key });
        return { before, after: after.sort(byKey) };
      }),
    );

  test("where the items moved (gone, runs) is movesOf's of the positions it gives, worked out in the same pass", () => {
    fc.assert(
      fc.property(change, (lists) => {
        const diff = diffLists(
          lists.map((l) => l.before),
          lists.map((l) => l.after),
          byKey,
          Number.POSITIVE_INFINITY,
        );
        assert.ok(diff);
        const { gone, runs } = movesOf(diff.newOf);
        assert.deepEqual(diff.gone, gone);
        assert.deepEqual(diff.runs, runs);
        // each kept item at its place after, the new ones where `added` says
        const before = lists.flatMap((l) => l.before);
        const after = lists.flatMap((l) => l.after);
        before.forEach((item, j) => assert.equal(diff.newOf[j]! < 0 ? undefined : after[diff.newOf[j]!], diff.newOf[j]! < 0 ? undefined : item));
        assert.equal(diff.added.length + before.length - gone.length, after.length);
      }),
    );
  });
});
