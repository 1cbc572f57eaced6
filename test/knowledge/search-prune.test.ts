/**
 * The pruned ranking of the query at the tip (rank.ts `rankTop`): documents that cannot be among
 * the best hundred are never scored, yet the answer is exactly the exhaustive one. Random
 * corpora (a few rare words among common ones, ties, superseded decisions, revoked, stale and
 * old items, two kinds) and random queries: the tip's index file read in part, the query parsed
 * as the tip parses it and ranked with pruning, against the same index in memory ranked by
 * scoring every posting.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { closeKnowledgeBase, type KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { buildIndex, type Doc, type Index, type Source } from '../../src/knowledge/views/search/build-index.ts';
import { queryOf } from '../../src/knowledge/views/search/hits.ts';
import { readTipIndex, writeIndex } from '../../src/knowledge/views/search/persist.ts';
import { rankTop } from '../../src/knowledge/views/search/prune.ts';
import { rank, scoreQuery } from '../../src/knowledge/views/search/rank.ts';
import type { KindName } from '../../src/model/kind.ts';
import { openTestKb, tempRepo } from '../helpers.ts';

// common words (in most documents), middling ones, and rare ones
const COMMON = ['component', 'approach', 'service', 'use'];
const MIDDLE = ['cache', 'queue', 'billing', 'retry', 'postgres', 'session', 'token'];
// ("pager" starts "pagerduty": a query's word that finds longer terms)
const RARE = ['kafka', 'redis', 'grpc', 'webhook', 'ledger', 'sharding', 'pager', 'pagerduty'];
const WORDS = [...COMMON, ...MIDDLE, ...RARE];

interface DocSpec {
  memory: boolean;
  title: number[];
  body: number[];
  tags: number[];
  status: 'active' | 'revoked' | 'superseded';
  stale: boolean;
  successor: number;
}

const wordIndex = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: COMMON.length - 1 }) },
  { weight: 3, arbitrary: fc.integer({ min: COMMON.length, max: COMMON.length + MIDDLE.length - 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: COMMON.length + MIDDLE.length, max: WORDS.length - 1 }) },
);
const ALL_COMMON = COMMON.map((_, i) => i);
const docSpec: fc.Arbitrary<DocSpec> = fc.record({
  memory: fc.boolean(),
  title: fc.array(wordIndex, { minLength: 1, maxLength: 4 }),
  // most documents hold every common word (their IDF is then near 0: what pruning leaves out)
  body: fc
    .tuple(fc.boolean(), fc.boolean(), fc.array(wordIndex, { minLength: 0, maxLength: 10 }))
    .map(([common, first, more]) => (common || first ? (first ? [...ALL_COMMON, ...more] : [...more, ...ALL_COMMON]) : more)),
  tags: fc.array(wordIndex, { maxLength: 2 }),
  status: fc.constantFrom('active', 'active', 'active', 'active', 'revoked', 'superseded'),
  stale: fc.integer({ min: 0, max: 7 }).map((i) => i === 0),
  successor: fc.nat(),
});
const words = (ix: number[]) => ix.map((i) => WORDS[i]!).join(' ');

/** The items of a corpus as search reads them; a superseded decision names another decision of the corpus. */
function sourcesOf(specs: DocSpec[]): Source[] {
  const decisions = specs.map((s, i) => (s.memory ? -1 : i)).filter((i) => i >= 0);
  return specs.map((s, i): Source => {
    const slug = `item-${i}`;
    const kind: KindName = s.memory ? 'memory' : 'decision';
    const superseded = !s.memory && s.status === 'superseded' && decisions.length > 1;
    const successor = superseded ? decisions.filter((d) => d !== i)[s.successor % (decisions.length - 1)] : undefined;
    const status = s.status === 'superseded' && !superseded ? 'active' : s.status;
    return {
      kind,
      item: { id: null as unknown as undefined, slug, status, created: '2026-01-01T00:00:00.000Z' },
      title: words(s.title),
      path: `${kind === 'memory' ? 'memories' : 'decisions'}/${slug}.md`,
      parts: { title: [words(s.title)], keys: s.tags.map((t) => WORDS[t]!), anchors: [], body: [words(s.body)] },
      current: status === 'active',
      supersededBy: successor === undefined ? undefined : `item-${successor}`,
    };
  });
}

const summary = (r: ReturnType<typeof rank>) => ({ total: r.total, ranked: r.ranked.map((x) => [x.doc.slug, x.score, x.via ?? '']) });

describe('the pruned ranking at the tip', () => {
  let dir: string;
  let cleanup: () => void;
  let kb: KnowledgeBase;
  let files: string;
  let corpus = 0;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    kb = await openTestKb(dir);
    files = mkdtempSync(join(tmpdir(), 'axme-prune-'));
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    cleanup();
  });

  /** The corpus's index in memory, and the same index as the tip reads it from its file. */
  function indexes(specs: DocSpec[]): { memory: Index; tip: NonNullable<ReturnType<typeof readTipIndex>> } {
    const memory = buildIndex(kb, sourcesOf(specs), []);
    const key = `prune${corpus++}-none`;
    assert.ok(writeIndex(files, key, memory, { anchored: true, embeddings: false }));
    const tip = readTipIndex(files, key);
    assert.ok(tip);
    return { memory, tip };
  }

  test('returns exactly what scoring every posting returns: hits, scores, order, via and total', () => {
    fc.assert(
      fc.property(
        fc.array(docSpec, { minLength: 1, maxLength: 500, size: 'max' }),
        fc.array(fc.array(wordIndex, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom<undefined | KindName>(undefined, undefined, 'decision', 'memory'),
        (specs, queries, k, kind) => {
          const { memory, tip } = indexes(specs);
          try {
            const staleIn = (d: Doc) => specs[Number(d.slug.slice('item-'.length))]!.stale;
            const kinds = kind ? new Set<KindName>([kind]) : undefined;
            for (const q of queries) {
              const text = words(q);
              const full = queryOf(memory, text);
              const exhaustive = rank(memory, scoreQuery(memory, full.groups), full.said, k, staleIn, kinds);
              const atTip = queryOf(tip.index, text, { once: true });
              const pruned = rankTop(tip.index, atTip.groups, atTip.said, k, staleIn, kinds);
              assert.deepEqual(summary(pruned), summary(exhaustive), `query "${text}", k ${k}, kind ${kind ?? 'all'}`);
            }
          } finally {
            tip.close();
          }
        },
      ),
      { numRuns: 60, seed: 20261129 },
    );
  });

  test('a rare word among common ones: only the documents that can still make the best hundred are scored', () => {
    // every document holds the common words; "kafka" is in 150 of 600 (more than the hundred a ranking looks at closer)
    const specs: DocSpec[] = Array.from({ length: 600 }, (_, i) => ({
      memory: false,
      title: i % 4 === 0 ? [0, 1, WORDS.indexOf('kafka')] : [0, 1],
      body: [2, 3, 0],
      tags: [],
      status: 'active',
      stale: false,
      successor: 0,
    }));
    const { memory, tip } = indexes(specs);
    try {
      const text = 'which approach does component kafka use';
      const { groups, said } = queryOf(tip.index, text);
      const top = rankTop(tip.index, groups, said, 10);
      assert.ok(top.scored <= 150, `scored ${top.scored} of ${specs.length} documents`);
      const full = queryOf(memory, text);
      assert.deepEqual(summary(top), summary(rank(memory, scoreQuery(memory, full.groups), full.said, 10)));
      assert.equal(top.total, specs.length);
    } finally {
      tip.close();
    }
  });
});
