// The textbook baselines the retrieval benchmark sets axme beside, in memory over the same
// documents: plain BM25 (k1 1.2, b 0.75; lowercase words split at anything not a letter or digit,
// title and body as one text), and the same with Porter stems (the `stemmer` package) and a
// common English stop list. Nothing tuned: what a search box gets from the textbook.
import { stemmer } from 'stemmer';
import type { Engine, IndexedDoc } from './engines.ts';

/** Lucene's English stop words, and the pronouns and question words a question carries. */
const STOP = new Set(
  `a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with
   i me my we our you your he she his her what which who whom when where why how do does did can could would should`.split(/\s+/),
);

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** A BM25 engine named `name` over `docs`, with `analyze` turning text into terms. */
function bm25(name: string, docs: IndexedDoc[], analyze: (text: string) => string[]): Engine {
  const K1 = 1.2;
  const B = 0.75;
  const tfs = docs.map((d) => {
    const tf = new Map<string, number>();
    for (const t of analyze(`${d.title}\n${d.keywords}\n${d.body}`)) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  });
  const lens = tfs.map((tf) => [...tf.values()].reduce((a, b) => a + b, 0));
  const avg = lens.reduce((a, b) => a + b, 0) / (lens.length || 1);
  const df = new Map<string, number>();
  for (const tf of tfs) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  return {
    name,
    search: async (query, k) => {
      const terms = [...new Set(analyze(query))];
      const scored: Array<[number, number]> = [];
      tfs.forEach((tf, i) => {
        let s = 0;
        for (const t of terms) {
          const f = tf.get(t);
          if (!f) continue;
          const d = df.get(t)!;
          s += Math.log(1 + (n - d + 0.5) / (d + 0.5)) * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * lens[i]!) / avg)));
        }
        if (s > 0) scored.push([i, s]);
      });
      return scored
        .sort((a, b) => b[1] - a[1])
        .slice(0, k)
        .map(([i]) => docs[i]!.slug);
    },
  };
}

/** Plain BM25: lowercase words, no stemming, no stop words. */
export const plainBm25Engine = (docs: IndexedDoc[]): Engine => bm25('plain BM25', docs, words);

/** BM25 with Porter stems and a stop list. */
export const porterBm25Engine = (docs: IndexedDoc[]): Engine =>
  bm25('BM25 + Porter + stop words', docs, (text) =>
    words(text)
      .filter((w) => !STOP.has(w))
      .map((w) => stemmer(w)),
  );
