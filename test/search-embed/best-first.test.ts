import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bestFirst } from '../../src/knowledge/views/search/best-first.ts';

/** The order the ranking by meaning reads: every positive score, highest first, the lower position first on a tie. */
const sorted = (score: Float32Array) => [...score.keys()].filter((i) => score[i]! > 0).sort((a, b) => score[b]! - score[a]! || a - b);

test('best first: the positive scores in the order of a full sort, whether the reader stops within the first batch, past it, or never', () => {
  let s = 11;
  const next = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  // ties on purpose: scores of two decimals, some negative or zero
  const scores = [
    Float32Array.from({ length: 3000 }, () => Math.round((next() - 0.3) * 100) / 100),
    Float32Array.from({ length: 40 }, () => next()),
    Float32Array.of(0, -1, 0),
    new Float32Array(0),
    new Float32Array(500).fill(0.5),
  ];
  for (const score of scores)
    for (const first of [1, 7, 100, 5000]) {
      const all = sorted(score);
      assert.deepEqual([...bestFirst(score, first)], all, `${score.length} scores, first ${first}`);
      const taken: number[] = [];
      for (const i of bestFirst(score, first)) if (taken.push(i) >= first + 3) break;
      assert.deepEqual(taken, all.slice(0, first + 3));
    }
});
