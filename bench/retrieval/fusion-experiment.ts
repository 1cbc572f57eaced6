// How the word ranking and a real model's ranking are best fused: each query's two rankings (the
// word ranking FUSE_DEPTH deep, and the ranking by meaning, both as axme's search makes them with
// the served sentence encoder: sentence-encoder.ts, set through `search.embeddings`) fused by each
// candidate rule, scored with R@1, R@5, MRR and nDCG@10 on all queries and on each half (odd /
// even positions). The product's rule (fusion.ts) is among them and must give the product's own
// answers: the run checks it against `searchKnowledge` on every query and stops when one differs.
//
// Prepare the model as real-model.ts says, then
//
//   node --import tsx bench/retrieval/fusion-experiment.ts --model-dir /tmp/use-model [--corpora records,unseen] [--cache FILE]
//
// Decide on records and unseen; check the choice once on heldout and fresh (--corpora heldout,fresh
// --check: the rows of words only, the product's rule before and the rule chosen, CHOSEN, alone).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argOf, usageError } from '../args.ts';

const argv = process.argv.slice(2);
const SCRIPT = 'fusion-experiment';
const modelDir = argOf(argv, 'model-dir', process.env.AXME_USE_MODEL_DIR ?? '');
if (!modelDir) usageError(SCRIPT, 'say where the encoder is installed: --model-dir DIR (or AXME_USE_MODEL_DIR); real-model.ts says how to install it');
const cacheFile = argOf(argv, 'cache', join(modelDir, 'axme-vectors.jsonl'));
const CORPORA = ['records', 'unseen', 'heldout', 'fresh'] as const;
type CorpusName = (typeof CORPORA)[number];
const corpora = argOf(argv, 'corpora', 'records,unseen').split(',');
for (const c of corpora) if (!(CORPORA as readonly string[]).includes(c)) usageError(SCRIPT, `--corpora takes names from ${CORPORA.join(', ')}; got ${c}`);

const { closeKnowledgeBase, openKnowledgeBase } = await import('../../src/knowledge/core/kb.ts');
const { readMergedState } = await import('../../src/knowledge/core/merged-state.ts');
const { loadSearchIndex, searchKnowledge } = await import('../../src/knowledge/views/search.ts');
const { FUSE_DEPTH, rankByMeaning } = await import('../../src/knowledge/views/search/dense.ts');
const { embedderFor } = await import('../../src/knowledge/views/search/meaning.ts');
const { measuresOf } = await import('../../src/knowledge/views/search/evaluate.ts');
const { benchEnv } = await import('../lib.ts');
const { loadCorpus, seedCorpusRepo } = await import('./corpus.ts');
const { DOCS_CORPORA, docsCorpusOf, K } = await import('./quality.ts');
const { ENCODER_MODEL, serveSentenceEncoder } = await import('./sentence-encoder.ts');
type Query = import('./corpus.ts').Query;
type Qrels = import('./corpus.ts').Qrels;
type CorpusFile = import('./build-corpus.ts').CorpusFile;

const log = (s: string) => process.stderr.write(`${s}\n`);

/** One query's two rankings, best first (slugs; a superseded decision already counted for its successor), and what is relevant. */
interface Pair {
  q: string;
  kind: string;
  words: string[];
  meaning: Array<{ slug: string; cos: number }>;
  relevant: Set<string>;
  odd: boolean;
}

/** A fusion rule: the best k slugs from the two rankings. */
type Rule = (p: Pair, k: number) => string[];

/** Reciprocal rank fusion, as the product does it: weight / (c + rank) summed, the meaning list `depth` deep; ties by slug. */
const rrf =
  (c: number, wordsWeight: number, meaningWeight: number, depth = FUSE_DEPTH, minCos = -1): Rule =>
  (p, k) => {
    const score = new Map<string, number>();
    const add = (slug: string, s: number) => score.set(slug, (score.get(slug) ?? 0) + s);
    p.words.forEach((s, i) => add(s, wordsWeight / (c + i + 1)));
    p.meaning
      .slice(0, depth)
      .filter((m) => m.cos >= minCos)
      .forEach((m, i) => add(m.slug, meaningWeight / (c + i + 1)));
    return [...score.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, k)
      .map(([s]) => s);
  };

/** The first `keep` of the word ranking as they are, then the others in the order `rest` gives them (its scores over the whole lists). */
const wordsFirst =
  (keep: number, rest: Rule): Rule =>
  (p, k) => {
    const head = p.words.slice(0, keep);
    const seen = new Set(head);
    return [...head, ...rest(p, Number.MAX_SAFE_INTEGER).filter((s) => !seen.has(s))].slice(0, k);
  };

/** The rule chosen on records and unseen (h/realmodel), the one `--check` scores beside words only and the rule before. */
const CHOSEN = 'words first 3, then RRF 60, 1:1 (the product)';
/** The rule before it: reciprocal rank fusion of the two lists, evenly. */
const BEFORE = 'RRF 60, 1:1, depth 50 (before)';

const ALL_RULES: Array<[string, Rule]> = [
  ['words only', (p, k) => p.words.slice(0, k)],
  ['meaning only', (p, k) => p.meaning.slice(0, k).map((m) => m.slug)],
  [BEFORE, rrf(60, 1, 1)],
  ['RRF 60, 1:0.75', rrf(60, 1, 0.75)],
  ['RRF 60, 1:0.5', rrf(60, 1, 0.5)],
  ['RRF 60, 1:0.25', rrf(60, 1, 0.25)],
  ['RRF 60, 1:0.1', rrf(60, 1, 0.1)],
  ['RRF 20, 1:1', rrf(20, 1, 1)],
  ['RRF 20, 1:0.5', rrf(20, 1, 0.5)],
  ['RRF 20, 1:0.25', rrf(20, 1, 0.25)],
  ['RRF 10, 1:1', rrf(10, 1, 1)],
  ['RRF 10, 1:0.5', rrf(10, 1, 0.5)],
  ['RRF 10, 1:0.25', rrf(10, 1, 0.25)],
  ['RRF 5, 1:0.5', rrf(5, 1, 0.5)],
  ['RRF 60, 1:1, meaning 10 deep', rrf(60, 1, 1, 10)],
  ['RRF 60, 1:0.5, meaning 10 deep', rrf(60, 1, 0.5, 10)],
  ['words first 1, then RRF 60, 1:1', wordsFirst(1, rrf(60, 1, 1))],
  [CHOSEN, wordsFirst(3, rrf(60, 1, 1))],
  ['words first 3, then RRF 10, 1:0.5', wordsFirst(3, rrf(10, 1, 0.5))],
];
const RULES = argv.includes('--check') ? ALL_RULES.filter(([name]) => name === 'words only' || name === BEFORE || name === CHOSEN) : ALL_RULES;
/** The rule the product implements (fusion.ts): checked against `searchKnowledge` on every query. */
const PRODUCT = ALL_RULES.find(([name]) => name === CHOSEN)![1];

/** Gathers every query's two rankings on one corpus, and checks the product's rule against the product. */
async function pairsOf(
  corpus: CorpusName,
  files: CorpusFile[],
  queries: Query[],
  qrels: Qrels,
  slugOfId: (id: string) => string,
  url: string,
): Promise<Pair[]> {
  const dir = seedCorpusRepo(files, qrels);
  const home = mkdtempSync(join(tmpdir(), 'axme-fusion-home-'));
  mkdirSync(join(dir, '.git', 'axme'), { recursive: true });
  writeFileSync(join(dir, '.git', 'axme', 'config.yaml'), `search:\n  embeddings:\n    url: ${url}\n    model: ${ENCODER_MODEL}\n`);
  const env = benchEnv({ XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), AXME_SEARCH_MODEL: 'off' });
  const kb = await openKnowledgeBase({ cwd: dir, env, actor: 'agent' });
  try {
    const state = await readMergedState(kb);
    const embedder = await embedderFor(kb, state.config);
    if (!embedder) throw new Error('no embedder: the endpoint setting was not read');
    const pairs: Pair[] = [];
    let differ = 0;
    for (const [i, q] of queries.entries()) {
      const words = (await searchKnowledge(kb, { query: q.q, k: FUSE_DEPTH, byMeaning: false })).hits.map((h) => h.slug);
      const product = (await searchKnowledge(kb, { query: q.q, k: K })).hits.map((h) => h.slug);
      const { index } = await loadSearchIndex(kb);
      const meaning = (await rankByMeaning(kb, index, embedder, q.q, FUSE_DEPTH)).map((r) => ({ slug: r.doc.slug, cos: r.score }));
      const pair: Pair = { q: q.q, kind: q.kind, words, meaning, relevant: new Set(q.relevant.map(slugOfId)), odd: i % 2 === 0 };
      // a query of only words search drops has no answer at all (the product returns none): no words, no fusion
      const mine = words.length ? PRODUCT(pair, K) : [];
      if (mine.join() !== product.join()) {
        differ++;
        log(`  ${corpus}: "${q.q}": the product's rule here gives ${mine.slice(0, 3).join(', ')}, the product ${product.slice(0, 3).join(', ')}`);
      }
      pairs.push(pair);
    }
    if (differ) throw new Error(`${corpus}: the product's rule reproduced ${queries.length - differ} of ${queries.length} answers`);
    log(`${corpus}: ${queries.length} queries, the product's rule gives the product's answer on every one`);
    return pairs;
  } finally {
    await closeKnowledgeBase(kb);
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

const server = await serveSentenceEncoder({ modelDir, cacheFile });
const results: Record<string, Pair[]> = {};
try {
  if (corpora.includes('records')) {
    const { files, docs, qrels } = loadCorpus();
    const slug = new Map(docs.map((d) => [d.id, d.slug]));
    results.records = await pairsOf('records', files, qrels.queries, qrels, (id) => slug.get(id)!, server.url);
  }
  for (const name of ['unseen', 'heldout', 'fresh'] as const) {
    if (!corpora.includes(name)) continue;
    const [sources, file] = DOCS_CORPORA[name];
    const c = docsCorpusOf(sources, file);
    const slug = new Map(c.docs.map((d) => [d.id, d.slug]));
    results[name] = await pairsOf(name, c.files, c.queries, { supersede: [], memories: [], queries: c.queries }, (id) => slug.get(id)!, server.url);
  }
} finally {
  await server.close();
}

const f3 = (x: number) => x.toFixed(3);
const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const lines: string[] = [];
for (const [corpus, pairs] of Object.entries(results)) {
  lines.push(
    '',
    `**${corpus}** (${pairs.length} queries): MRR all / odd / even / paraphrase; R@1, R@5, nDCG@10 all`,
    '',
    '| rule | MRR all | odd | even | paraphrase | R@1 | R@5 | nDCG@10 |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const [name, rule] of RULES) {
    const m = pairs.map((p) => ({ odd: p.odd, kind: p.kind, ...measuresOf(p.words.length ? rule(p, K) : [], p.relevant) }));
    const mrr = (rows: typeof m) => f3(avg(rows.map((r) => r.reciprocal_rank)));
    lines.push(
      `| ${name} | ${mrr(m)} | ${mrr(m.filter((r) => r.odd))} | ${mrr(m.filter((r) => !r.odd))} | ${mrr(m.filter((r) => r.kind === 'paraphrase'))} | ${f3(avg(m.map((r) => r.recall_at_1)))} | ${f3(avg(m.map((r) => r.recall_at_5)))} | ${f3(avg(m.map((r) => r.ndcg_at_10)))} |`,
    );
  }
}
console.log(lines.join('\n'));
