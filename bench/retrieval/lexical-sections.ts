// Issue 33, a third pass: does what the store's own text says about its words and its sections
// lift axme's ranking on text it has never seen? Each idea re-ranks axme's best 50 (or, for the
// fused scores, every item) with a score computed here from the corpus alone; nothing is fitted to
// a query, and the decision records, the unseen text and the held-out text (`--set`) are each
// scored by query halves (odd and even positions: the half not read is the check).
//
// Ideas (`--idea`):
// - `none`: axme as it is;
// - `lsi`: latent semantic indexing, the truncated SVD (rank `--k`) of the tf-idf term × item
//   matrix by orthogonal iteration on the item × item Gram matrix; the query folded in, its cosine
//   with each item times `--lambda` added to BM25F's score over the best one (every item, or with
//   `--within` only axme's best 50);
// - `pmi`: each query word expanded by the `--m` words that co-occur with it in the most items
//   above chance (normalized PMI ≥ `--min`, in at least 3 items), through the related-words table
//   at its half weight;
// - `spec`: a section's specificity among its page's sections: for each query term it holds, the
//   share of the page's occurrences that are in it, less an even spread's, times the term's IDF,
//   over the query's IDF mass; `--beta` of it added to the score over the best. A page of one
//   section gets 0 (the decision records are each their own page);
// - `page`: doc-to-passage smoothing: the page's BM25 (all its sections as one text) over the best
//   page's, `--beta` of it added;
// - `len`: a length prior, the score times (length / mean length)^-`--beta`.
// `--show` prints each query answered below rank 2: what it wanted and the best 3, with their lengths.
//
//   node --import tsx bench/retrieval/lexical-sections.ts --set adr|docs|heldout --idea none|lsi|pmi|spec|page|len [...]
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { closeKnowledgeBase, openKnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { stem, tokenize, words } from '../../src/knowledge/views/search/analyze.ts';
import { measuresOf } from '../../src/knowledge/views/search/evaluate.ts';
import { idfOf } from '../../src/knowledge/views/search/rank.ts';
import { relatedTable } from '../../src/knowledge/views/search/synonyms.ts';
import { searchKnowledge } from '../../src/knowledge/views/search.ts';
import { argOf, benchEnv, cosine } from '../lib.ts';
import type { CorpusFile } from './build-corpus.ts';
import { type BenchDoc, decisionDocsOf, loadCorpus, type Qrels, type Query, seedCorpusRepo } from './corpus.ts';
import { DOCS_SOURCES, HELDOUT_SOURCES, loadDocsCorpus } from './docs-corpus.ts';
import { experimentCorpus } from './experiment-corpus.ts';

const argv = process.argv.slice(2);
const arg = (name: string, d: string) => argOf(argv, name, d);
const set = arg('set', 'adr');
const idea = arg('idea', 'none');
const num = (name: string, d: string) => Number(arg(name, d));

const { files, docs, qrels } = experimentCorpus(set);
const N = docs.length;
/** Each item's terms with their counts, as the index's analyser makes them. */
const tf = docs.map((d) => {
  const m = new Map<string, number>();
  for (const t of tokenize(`${d.title}\n${d.body}`)) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
});
const lengths = tf.map((m) => [...m.values()].reduce((a, b) => a + b, 0));
const meanLength = lengths.reduce((a, b) => a + b, 0) / N;
const df = new Map<string, number>();
for (const m of tf) for (const t of m.keys()) df.set(t, (df.get(t) ?? 0) + 1);
const idf = (t: string) => idfOf(N, df.get(t) ?? 0);
/** The page of an item: its id less the last part for the docs corpora (a man page, a README), the item itself for the decision records. */
const pageOf = (id: string) => (set === 'adr' ? id : id.slice(0, id.lastIndexOf('/')));
const pages = new Map<string, number[]>();
docs.forEach((d, i) => {
  const p = pageOf(d.id);
  pages.set(p, [...(pages.get(p) ?? []), i]);
});
const at = new Map(docs.map((d, i) => [d.slug, i]));

/** LSI: each item's latent vector (Σ V row) and the term → latent map (U = X V Σ⁻¹ by column), rank k. */
function lsiOf(k: number): { itemVec: Float64Array[]; fold: (terms: string[]) => Float64Array } {
  // tf-idf with log tf, each item's vector unit length
  const rows = tf.map((m) => {
    const v = new Map<string, number>();
    let n = 0;
    for (const [t, c] of m) {
      const w = (1 + Math.log(c)) * idf(t);
      v.set(t, w);
      n += w * w;
    }
    n = Math.sqrt(n) || 1;
    for (const [t, w] of v) v.set(t, w / n);
    return v;
  });
  const G = Array.from({ length: N }, () => new Float64Array(N));
  for (let i = 0; i < N; i++)
    for (let j = i; j < N; j++) {
      const [a, b] = rows[i]!.size < rows[j]!.size ? [rows[i]!, rows[j]!] : [rows[j]!, rows[i]!];
      let s = 0;
      for (const [t, w] of a) s += w * (b.get(t) ?? 0);
      G[i]![j] = s;
      G[j]![i] = s;
    }
  k = Math.min(k, N - 1);
  // orthogonal iteration: Q (N × k, by column) ← orth(G Q)
  // a fixed start (the fractional part of a sine hash), so that a run repeats exactly
  const start = (r: number, c: number) => {
    const x = Math.sin(1 + r * 12.9898 + c * 78.233) * 43758.5453;
    return x - Math.floor(x) - 0.5;
  };
  let Q: Float64Array[] = Array.from({ length: k }, (_, c) => Float64Array.from({ length: N }, (_, r) => start(r, c)));
  const orth = (cols: Float64Array[]) => {
    for (let c = 0; c < cols.length; c++) {
      const v = cols[c]!;
      for (let p = 0; p < c; p++) {
        const u = cols[p]!;
        let d = 0;
        for (let r = 0; r < N; r++) d += u[r]! * v[r]!;
        for (let r = 0; r < N; r++) v[r]! -= d * u[r]!;
      }
      let n = 0;
      for (let r = 0; r < N; r++) n += v[r]! * v[r]!;
      n = Math.sqrt(n) || 1;
      for (let r = 0; r < N; r++) v[r]! /= n;
    }
    return cols;
  };
  const times = (q: Float64Array) => {
    const out = new Float64Array(N);
    for (let r = 0; r < N; r++) {
      const g = G[r]!;
      let s = 0;
      for (let j = 0; j < N; j++) s += g[j]! * q[j]!;
      out[r] = s;
    }
    return out;
  };
  Q = orth(Q);
  for (let it = 0; it < 40; it++) Q = orth(Q.map(times));
  const eig = Q.map((q) => {
    const g = times(q);
    let s = 0;
    for (let r = 0; r < N; r++) s += q[r]! * g[r]!;
    return Math.max(s, 1e-12);
  });
  const sigma = eig.map(Math.sqrt);
  // item i's latent vector: σ_c V[i][c]
  const itemVec = Array.from({ length: N }, (_, i) => Float64Array.from({ length: k }, (_, c) => sigma[c]! * Q[c]![i]!));
  // the query folded in: Uᵀ q = Σ⁻¹ Vᵀ (Xᵀ q), Xᵀ q its dot product with each item
  const fold = (terms: string[]) => {
    const q = new Map<string, number>();
    for (const t of terms) if (df.has(t)) q.set(t, (q.get(t) ?? 0) + idf(t));
    const xq = rows.map((v) => {
      let s = 0;
      for (const [t, w] of q) s += w * (v.get(t) ?? 0);
      return s;
    });
    return Float64Array.from({ length: k }, (_, c) => {
      let s = 0;
      for (let i = 0; i < N; i++) s += Q[c]![i]! * xq[i]!;
      return s / sigma[c]!;
    });
  };
  return { itemVec, fold };
}

/** PMI expansion: a query word's stem to the `m` stems co-occurring with it most above chance (NPMI ≥ min, in ≥ 3 items). */
function pmiNeighbours(m: number, min: number): (t: string) => string[] {
  const holders = new Map<string, number[]>();
  tf.forEach((mm, i) => {
    for (const t of mm.keys()) if (/^[a-z]+$/.test(t)) holders.set(t, [...(holders.get(t) ?? []), i]);
  });
  return (t) => {
    const mine = holders.get(t);
    if (!mine || mine.length < 2) return [];
    const together = new Map<string, number>();
    for (const i of mine) for (const u of tf[i]!.keys()) if (u !== t && holders.has(u)) together.set(u, (together.get(u) ?? 0) + 1);
    const scored: Array<[string, number]> = [];
    for (const [u, c] of together) {
      if (c < 3) continue;
      const p = c / N;
      const npmi = Math.log(p / ((mine.length / N) * (holders.get(u)!.length / N))) / -Math.log(p);
      if (npmi >= min) scored.push([u, npmi]);
    }
    return scored
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, m)
      .map(([u]) => u);
  };
}

/** Plain BM25 (k1 1.2, b 0.75) of `terms` over one bag of counts. */
function bm25(terms: string[], bag: Map<string, number>, length: number, mean: number, idfOf: (t: string) => number): number {
  let s = 0;
  for (const t of new Set(terms)) {
    const c = bag.get(t) ?? 0;
    if (c) s += (idfOf(t) * c * 2.2) / (c + 1.2 * (0.25 + (0.75 * length) / mean));
  }
  return s;
}

// the pages as items of their own: their sections' counts added
const pageBags = new Map<string, { bag: Map<string, number>; length: number }>();
for (const [p, members] of pages) {
  const bag = new Map<string, number>();
  for (const i of members) for (const [t, c] of tf[i]!) bag.set(t, (bag.get(t) ?? 0) + c);
  pageBags.set(p, { bag, length: members.reduce((a, i) => a + lengths[i]!, 0) });
}
const pageDf = new Map<string, number>();
for (const { bag } of pageBags.values()) for (const t of bag.keys()) pageDf.set(t, (pageDf.get(t) ?? 0) + 1);
const meanPage = [...pageBags.values()].reduce((a, b) => a + b.length, 0) / pageBags.size;

/** `spec`: how much more of the query's IDF mass sits in item i than an even spread over its page's sections would put there. */
function specificity(i: number, terms: string[]): number {
  const members = pages.get(pageOf(docs[i]!.id))!;
  if (members.length < 2) return 0;
  let mass = 0;
  let s = 0;
  for (const t of new Set(terms)) {
    if (!df.has(t)) continue;
    mass += idf(t);
    const mine = tf[i]!.get(t) ?? 0;
    if (!mine) continue;
    const all = members.reduce((a, j) => a + (tf[j]!.get(t) ?? 0), 0);
    s += idf(t) * (mine / all - 1 / members.length);
  }
  return mass ? s / mass : 0;
}

const beta = num('beta', '0.3');
const lambda = num('lambda', '0.3');
if (idea === 'pmi') {
  const near = pmiNeighbours(num('m', '2'), num('min', '0.5'));
  const table = relatedTable();
  let added = 0;
  for (const w of new Set(qrels.queries.flatMap((q) => words(q.q)))) {
    const others = near(stem(w)).map((u) => [u]);
    if (!others.length) continue;
    table.set(stem(w), [...(table.get(stem(w)) ?? []), ...others]);
    added += others.length;
    if (argv.includes('--show')) process.stderr.write(`${w}: ${others.join(', ')}\n`);
  }
  process.stderr.write(`${added} expansions\n`);
}
const lsi = idea === 'lsi' ? lsiOf(num('k', '150')) : undefined;

const dir = seedCorpusRepo(files, qrels);
const kb = await openKnowledgeBase({ cwd: dir, env: benchEnv(), actor: 'agent' });
const slugOfId = new Map(docs.map((d) => [d.id, d.slug]));
const per: Array<{ kind: string; r5: number; rr: number }> = [];
try {
  for (const q of qrels.queries) {
    const hits = (await searchKnowledge(kb, { query: q.q, k: 50 })).hits;
    const best = Math.max(1e-9, ...hits.map((h) => h.score));
    let top = hits.map((h) => ({ slug: h.slug, score: h.score / best }));
    const terms = tokenize(q.q);
    if (lsi) {
      const qv = lsi.fold(terms);
      const lexical = new Map(top.map((h) => [h.slug, h.score]));
      const pool = argv.includes('--within') ? top.map((h) => at.get(h.slug)!) : docs.map((_, i) => i);
      top = pool.map((i) => ({ slug: docs[i]!.slug, score: (lexical.get(docs[i]!.slug) ?? 0) + lambda * cosine(qv, lsi.itemVec[i]!) }));
    } else if (idea === 'spec') top = top.map((h) => ({ slug: h.slug, score: h.score + beta * specificity(at.get(h.slug)!, terms) }));
    else if (idea === 'page') {
      const pageIdf = (t: string) => idfOf(pageBags.size, pageDf.get(t) ?? 0);
      const pageScore = new Map([...pageBags].map(([p, { bag, length }]) => [p, bm25(terms, bag, length, meanPage, pageIdf)]));
      const bestPage = Math.max(1e-9, ...pageScore.values());
      top = top.map((h) => ({ slug: h.slug, score: h.score + (beta * pageScore.get(pageOf(docs[at.get(h.slug)!]!.id))!) / bestPage }));
    } else if (idea === 'len') top = top.map((h) => ({ slug: h.slug, score: h.score * (lengths[at.get(h.slug)!]! / meanLength) ** -beta }));
    else if (idea !== 'none' && idea !== 'pmi') throw new Error(`--idea takes none, lsi, pmi, spec, page or len; got ${idea}`);
    const slugs = top
      .sort((a, b) => b.score - a.score || (a.slug < b.slug ? -1 : 1))
      .slice(0, 10)
      .map((h) => h.slug);
    const m = measuresOf(slugs, new Set(q.relevant.map((id) => slugOfId.get(id)!)));
    per.push({ kind: q.kind, r5: m.recall_at_5, rr: m.reciprocal_rank });
    if (argv.includes('--show') && m.reciprocal_rank < 0.5) {
      const lengthOf = (slug: string) => lengths[at.get(slug)!];
      const wanted = q.relevant.map((id) => `${id} (${lengthOf(slugOfId.get(id)!)})`).join(', ');
      process.stderr.write(
        `${q.q}\n  want ${wanted}\n  got ${slugs
          .slice(0, 3)
          .map((s) => `${s} (${lengthOf(s)})`)
          .join(', ')}\n`,
      );
    }
  }
} finally {
  await closeKnowledgeBase(kb);
  rmSync(dir, { recursive: true, force: true });
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const row = (rows: typeof per) => `${mean(rows.map((r) => r.r5)).toFixed(3)} / ${mean(rows.map((r) => r.rr)).toFixed(3)}`;
const params = argv.filter((a) => !['--set', set, '--idea', idea].includes(a)).join(' ');
console.log(
  `${set} ${idea} ${params}: R@5 / MRR all ${row(per)}; odd ${row(per.filter((_, i) => i % 2 === 0))}; even ${row(per.filter((_, i) => i % 2 === 1))}`,
);
