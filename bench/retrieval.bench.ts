// Retrieval benchmark (issue 22 part 3, issue 33): how well search finds the item a person means,
// on four corpora of real text reported apart: public architecture decision records
// (bench/retrieval/README.md); git's man pages and package READMEs read on this machine
// (bench/retrieval/docs-corpus.ts, queries in docs-queries.json); a held-out set of other man
// pages and READMEs whose queries (heldout-queries.json) were written before any engine ran on it;
// a fresh set of yet other man pages and READMEs, its queries (fresh-queries.json) likewise; and
// short notes of another shape, ripgrep's commit messages and CHANGELOG entries stored as memories
// (bench/retrieval/notes/, notes-corpus.ts), its queries (notes-queries.json) likewise; and FAQ and
// troubleshooting entries of seven projects stored as answered questions and done backlog items
// (bench/retrieval/faq/, faq-corpus.ts), its queries (faq-queries.json) likewise.
// axme's search beside plain BM25, BM25 + Porter + stop words, the BM25 axme replaced, MiniSearch
// and Orama: R@1, R@5, MRR and nDCG@10 per kind of query, and axme's warm query time; then search latency in stores of --size synthetic decisions (1k and 10k by default), axme next to MiniSearch: the first
// query (reading the store, then building the index, next to the old BM25's build) and warm ones.
// Markdown table on stdout, JSON in bench/results/, progress on stderr.
//
//   node --import tsx bench/retrieval.bench.ts [--size 1000,10000] [--reps 20] [--corpora records,unseen,heldout,fresh,notes,faq] [--sources N] [--out DIR] [--misses]
//
// --sources N: the man-page and README corpora read only their first N man pages and N READMEs
// (their queries about the rest are left out): a smoke run's size.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KnowledgeBase } from '../src/knowledge/core/kb.ts';
import { argOf, wholeArg } from './args.ts';
import type { Stats } from './lib.ts';
import type { CorpusFile } from './retrieval/build-corpus.ts';
import type { BenchDoc, Qrels, Query } from './retrieval/corpus.ts';
import { CORPUS_NAMES } from './retrieval/corpus-names.ts';
import type { DocsSources } from './retrieval/docs-corpus.ts';
import type { Engine } from './retrieval/engines.ts';
import type { Quality } from './retrieval/quality.ts';

const argv = process.argv.slice(2);
const arg = (name: string, d: string) => argOf(argv, name, d);
const usage = (message: string): never => {
  process.stderr.write(`retrieval.bench: ${message}\n`);
  process.exit(2);
};
const sizes = arg('size', '1000,10000').split(',').map(Number);
if (!sizes.every((n) => Number.isInteger(n) && n >= 0))
  usage(`--size takes whole numbers of decisions for the latency runs, comma-separated (0: none); got ${arg('size', '')}`);
const reps = Number(arg('reps', '20'));
if (!Number.isInteger(reps) || reps < 1) usage(`--reps takes a whole number of rounds, at least 1; got ${arg('reps', '')}`);
/** The corpora scored, all by default; a smoke run leaves some out (a corpus left out reports no rows, and 0 sections). */
const corpora = new Set(arg('corpora', CORPUS_NAMES.join(',')).split(','));
for (const c of corpora)
  if (!(CORPUS_NAMES as readonly string[]).includes(c))
    usage(`--corpora takes names from ${CORPUS_NAMES.join(', ')}, comma-separated; got ${arg('corpora', '')}`);
/** the docs corpora read only their first N man pages and N package READMEs (a smoke run: the same code on less text); all by default */
const SOURCES = wholeArg('retrieval.bench', argv, 'sources', Number.MAX_SAFE_INTEGER);
const out = arg('out', join(import.meta.dirname, 'results'));
// what is measured is loaded once the options are good: a usage error costs only Node's start
const { closeKnowledgeBase, openKnowledgeBase } = await import('../src/knowledge/core/kb.ts');
const { readMergedState } = await import('../src/knowledge/core/merged-state.ts');
const { searchKnowledge } = await import('../src/knowledge/views/search.ts');
const { machine } = await import('./harness.ts');
const { benchEnv, fmt, seededRepo, stats } = await import('./lib.ts');
const { baselineSearch } = await import('./retrieval/bm25-baseline.ts');
const { loadCorpus, seedCorpusRepo } = await import('./retrieval/corpus.ts');
const { loadNotesCorpus } = await import('./retrieval/notes-corpus.ts');
const { loadFaqCorpus, seedFaqRepo } = await import('./retrieval/faq-corpus.ts');
const { DOCS_SOURCES, FRESH_SOURCES, HELDOUT_SOURCES } = await import('./retrieval/docs-corpus.ts');
const { axmeEngine, baselineEngine, miniSearchEngine, oramaEngine } = await import('./retrieval/engines.ts');
const { plainBm25Engine, porterBm25Engine } = await import('./retrieval/plain-bm25.ts');
const { DOCS_KINDS, K, RECORD_KINDS: KINDS, docsCorpusOf, quality } = await import('./retrieval/quality.ts');
const showMisses = argv.includes('--misses');
const log = (s: string) => process.stderr.write(`${s}\n`);

async function withKb<T>(dir: string, run: (kb: KnowledgeBase) => Promise<T>): Promise<T> {
  const kb = await openKnowledgeBase({ cwd: dir, env: benchEnv(), actor: 'agent' });
  try {
    return await run(kb);
  } finally {
    await closeKnowledgeBase(kb);
  }
}

interface Latency {
  engine: string;
  size: number;
  /** the first query: reading the store and building the index */
  firstMs: number;
  /** axme: of `firstMs`, reading and parsing the store (a fresh process, nothing cached on disk yet) */
  storeMs?: number;
  /** of `firstMs`, building the index and answering (the store already read) */
  buildMs?: number;
  warm: Stats;
}

/** The old BM25's first query by store size, the store already read: its index build, next to axme's `buildMs`. */
const baselineBuildMs = new Map<number, number>();

const LATENCY_QUERIES = [
  'component 42',
  'seeded decision about component 7',
  'approach 31337 measured',
  'benchmark seed',
  'which component uses approach 5',
  'xyzzy nothing matches',
];

/** Warm search latency at `n` items: axme, then MiniSearch over the same decisions. */
async function latency(n: number): Promise<Latency[]> {
  log(`seeding a store of ${n} decisions...`);
  const dir = seededRepo(n);
  try {
    return await withKb(dir, async (kb) => {
      const rows: Latency[] = [];
      let t0 = performance.now();
      await readMergedState(kb);
      const storeMs = performance.now() - t0;
      const t1 = performance.now();
      await searchKnowledge(kb, { query: LATENCY_QUERIES[0]!, k: K });
      const buildMs = performance.now() - t1;
      const axmeFirst = performance.now() - t0;
      const samples = async (run: (q: string) => Promise<unknown>) => {
        const ms: number[] = [];
        for (let i = 0; i < reps; i++) {
          for (const q of LATENCY_QUERIES) {
            const s = performance.now();
            await run(q);
            ms.push(performance.now() - s);
          }
        }
        return stats(ms);
      };
      log(`  axme: ${reps} rounds of ${LATENCY_QUERIES.length} queries`);
      rows.push({ engine: 'axme', size: n, firstMs: axmeFirst, storeMs, buildMs, warm: await samples((q) => searchKnowledge(kb, { query: q, k: K })) });
      log('  BM25 (axme before): its index build');
      t0 = performance.now();
      await baselineSearch(kb, { query: LATENCY_QUERIES[0]!, k: K });
      baselineBuildMs.set(n, performance.now() - t0);
      const state = await readMergedState(kb);
      t0 = performance.now();
      const mini = miniSearchEngine(
        state.items.decision.map((d) => ({ slug: d.slug, title: d.title, keywords: d.tags.join(' '), body: `${d.decision}\n${d.reasoning}` })),
      );
      await mini.search(LATENCY_QUERIES[0]!, K);
      const miniFirst = performance.now() - t0;
      log(`  MiniSearch: ${reps} rounds`);
      rows.push({ engine: mini.name, size: n, firstMs: miniFirst, warm: await samples((q) => mini.search(q, K)) });
      return rows;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every engine's quality on one corpus, seeded into a store for axme and the old BM25 (decisions and memories, or by `seed`; the old BM25 then searches every kind). */
async function corpusQuality(files: CorpusFile[], docs: BenchDoc[], queries: Query[], qrels: Qrels, kinds: string[], seed?: () => string): Promise<Quality[]> {
  const dir = seed ? seed() : seedCorpusRepo(files, qrels);
  try {
    return await withKb(dir, async (kb) => {
      const engines: Engine[] = [
        plainBm25Engine(docs),
        porterBm25Engine(docs),
        baselineEngine(kb, seed ? 'all' : undefined),
        miniSearchEngine(docs),
        await oramaEngine(docs),
        axmeEngine(kb),
      ];
      const slug = new Map(docs.map((d) => [d.id, d.slug]));
      const rows: Quality[] = [];
      for (const e of engines) {
        log(`quality: ${e.name}`);
        rows.push(await quality(e, queries, kinds, (id) => slug.get(id)!, e.name === 'axme'));
      }
      return rows;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const started = Date.now();
const { files, docs, qrels } = loadCorpus();
log(`corpus: ${docs.length} records from ${files.length} repositories, ${qrels.queries.length} queries`);
const results = corpora.has('records') ? await corpusQuality(files, docs, qrels.queries, qrels, KINDS) : [];
/** A docs corpus read on this machine and its queries, every engine's quality on it (a query whose section this machine lacks is left out, and said). */
async function docsQuality(
  sources: DocsSources,
  queriesFile: string,
  scored: boolean,
): Promise<{ docs: BenchDoc[]; files: number; pages: number; readmes: number; queries: number; missing: string[]; rows: Quality[] }> {
  if (!scored) return { docs: [], files: 0, pages: 0, readmes: 0, queries: 0, missing: [], rows: [] };
  const corpus = docsCorpusOf(sources, queriesFile, SOURCES);
  const { docs, queries } = corpus;
  if (corpus.missing.length || queries.length < corpus.written)
    log(`${queriesFile}: missing here ${corpus.missing.join(', ') || 'nothing'}; ${corpus.written - queries.length} queries left out`);
  log(`${queriesFile}: ${docs.length} sections, ${queries.length} queries`);
  const rows = docs.length ? await corpusQuality(corpus.files, docs, queries, { supersede: [], memories: [], queries }, DOCS_KINDS) : [];
  // what was read here (--sources cuts the lists, a machine may lack some): one file holds the man pages, one each README
  const man = corpus.files.find((f) => f.repo === sources.label);
  return {
    docs,
    files: corpus.files.length,
    pages: new Set(man?.docs.map((d) => d.path)).size,
    readmes: corpus.files.length - (man ? 1 : 0),
    queries: queries.length,
    missing: corpus.missing,
    rows,
  };
}
const unseen = await docsQuality(DOCS_SOURCES, 'docs-queries.json', corpora.has('unseen'));
const heldout = await docsQuality(HELDOUT_SOURCES, 'heldout-queries.json', corpora.has('heldout'));
const fresh = await docsQuality(FRESH_SOURCES, 'fresh-queries.json', corpora.has('fresh'));
const notesCorpus = corpora.has('notes') ? loadNotesCorpus() : null;
if (notesCorpus) log(`notes: ${notesCorpus.docs.length} notes, ${notesCorpus.qrels.queries.length} queries`);
const notes = notesCorpus ? await corpusQuality(notesCorpus.files, notesCorpus.docs, notesCorpus.qrels.queries, notesCorpus.qrels, DOCS_KINDS) : [];
const faqCorpus = corpora.has('faq') ? loadFaqCorpus() : null;
if (faqCorpus) log(`faq: ${faqCorpus.docs.length} entries, ${faqCorpus.queries.length} queries`);
const faq = faqCorpus
  ? await corpusQuality(faqCorpus.files, faqCorpus.docs, faqCorpus.queries, { supersede: [], memories: [], queries: faqCorpus.queries }, DOCS_KINDS, () =>
      seedFaqRepo(faqCorpus.files),
    )
  : [];
const lat: Latency[] = [];
for (const n of sizes) if (n > 0) lat.push(...(await latency(n)));

const m = machine();
const f3 = (x: number) => x.toFixed(3);
/** One corpus's table: R@1, R@5, MRR, nDCG@10 for all queries, R@5 and MRR per kind, axme's warm query time; then axme's on each half of the queries. */
const table = (rows: Quality[], kinds: string[]) => [
  `| engine | R@1 | R@5 | MRR | nDCG@10 | ${kinds.map((k) => `R@5 / MRR ${k} (${rows[0]!.scores[k]!.queries})`).join(' | ')} | warm ms, median (p90) |`,
  `| --- | ---: | ---: | ---: | ---: | ${kinds.map(() => '---:').join(' | ')} | ---: |`,
  ...rows.map(
    (r) =>
      `| ${r.engine} | ${f3(r.scores.all!.recallAt1)} | ${f3(r.scores.all!.recallAt5)} | ${f3(r.scores.all!.mrr)} | ${f3(r.scores.all!.ndcgAt10)} | ${kinds.map((k) => `${f3(r.scores[k]!.recallAt5)} / ${f3(r.scores[k]!.mrr)}`).join(' | ')} | ${r.warm ? `${fmt(r.warm.median)} (${fmt(r.warm.p90)})` : ''} |`,
  ),
  ...rows
    .filter((r) => r.engine === 'axme')
    .map(
      (r) =>
        `\n${r.engine}, the queries split by position: R@5 / MRR odd (${r.scores.odd!.queries}) ${f3(r.scores.odd!.recallAt5)} / ${f3(r.scores.odd!.mrr)}, even (${r.scores.even!.queries}) ${f3(r.scores.even!.recallAt5)} / ${f3(r.scores.even!.mrr)}`,
    ),
];
const lines = [
  `Retrieval: ${docs.length} public decision records from ${files.length} repositories, ${qrels.queries.length} queries; ${m.cores} x ${m.cpu}, node ${m.node}`,
  ...(results.length ? ['', ...table(results, KINDS)] : []),
];
if (unseen.rows.length)
  lines.push(
    '',
    `Unseen text: ${unseen.docs.length} sections of git's man pages and ${unseen.files - 1} package READMEs, ${unseen.queries} queries`,
    '',
    ...table(unseen.rows, DOCS_KINDS),
  );
if (heldout.rows.length)
  lines.push(
    '',
    `Held out (queries written before any engine ran on it, scored once): ${heldout.docs.length} sections of ${HELDOUT_SOURCES.pages.length} man pages and ${heldout.files - 1} package READMEs, ${heldout.queries} queries`,
    '',
    ...table(heldout.rows, DOCS_KINDS),
  );
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
if (fresh.rows.length)
  lines.push(
    '',
    `Fresh (queries written before any engine ran on it): ${fresh.docs.length} sections of ${plural(fresh.pages, 'man page')} and ${plural(fresh.readmes, 'package README')}, ${fresh.queries} queries`,
    '',
    ...table(fresh.rows, DOCS_KINDS),
  );
if (notes.length && notesCorpus)
  lines.push(
    '',
    `Notes (queries written before any engine ran on it): ${notesCorpus.docs.length} memories, ${notesCorpus.files.map((f) => `${f.docs.length} ${f.docs[0]?.path.startsWith('commit') ? 'commit messages' : 'CHANGELOG entries'}`).join(' and ')} of ${notesCorpus.files[0]?.repo}, ${notesCorpus.qrels.queries.length} queries`,
    '',
    ...table(notes, DOCS_KINDS),
  );
if (faq.length && faqCorpus) {
  const stored = (kind: string) => faqCorpus.docs.filter((d) => d.kind === kind).length;
  lines.push(
    '',
    `FAQ (queries written before any engine ran on it): ${stored('question')} FAQ entries as answered questions and ${stored('backlog')} troubleshooting entries as backlog items, from ${new Set(faqCorpus.files.map((f) => f.repo)).size} repositories, ${faqCorpus.queries.length} queries`,
    '',
    ...table(faq, DOCS_KINDS),
  );
}
if (lat.length) {
  lines.push('', `| search latency | items | first query ms (reads the store, builds the index) | warm ms, median (p10–p90) |`, '| --- | ---: | ---: | ---: |');
  for (const l of lat) lines.push(`| ${l.engine} | ${l.size} | ${fmt(l.firstMs)} | ${fmt(l.warm.median)} (${fmt(l.warm.p10)}–${fmt(l.warm.p90)}) |`);
  lines.push('', `| first query, split | items | reading the store ms | building the index and answering ms |`, '| --- | ---: | ---: | ---: |');
  for (const axme of lat.filter((l) => l.engine === 'axme' && l.storeMs !== undefined && l.buildMs !== undefined)) {
    lines.push(`| axme | ${axme.size} | ${fmt(axme.storeMs!)} | ${fmt(axme.buildMs!)} |`);
    const old = baselineBuildMs.get(axme.size);
    if (old !== undefined) lines.push(`| BM25 (axme before) | ${axme.size} | (the same) | ${fmt(old)} |`);
  }
}
console.log(lines.join('\n'));
if (showMisses) {
  for (const r of [...results, ...unseen.rows, ...heldout.rows, ...fresh.rows, ...notes, ...faq]) {
    log(`\n${r.engine}: ${r.misses.length} queries not answered first`);
    for (const x of r.misses) log(`  ${x.query} rank ${x.rank ?? '-'}  "${x.q}"  top: ${x.top.join(', ')}`);
  }
}
mkdirSync(out, { recursive: true });
const file = join(out, `retrieval-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ date: new Date().toISOString(), machine: m, corpus: { records: docs.length, repositories: files.map((x) => ({ repo: x.repo, commit: x.commit, licence: x.licence, records: x.docs.length })), queries: qrels.queries.length }, seconds: Math.round((Date.now() - started) / 1000), quality: results, unseen: { sections: unseen.docs.length, queries: unseen.queries, missing: unseen.missing, quality: unseen.rows }, heldout: { sections: heldout.docs.length, queries: heldout.queries, missing: heldout.missing, quality: heldout.rows }, fresh: { sections: fresh.docs.length, queries: fresh.queries, missing: fresh.missing, quality: fresh.rows }, notes: { notes: notesCorpus?.docs.length ?? 0, queries: notesCorpus?.qrels.queries.length ?? 0, quality: notes }, faq: { entries: faqCorpus?.docs.length ?? 0, queries: faqCorpus?.queries.length ?? 0, quality: faq }, latency: lat, baselineBuildMs: Object.fromEntries(baselineBuildMs) }, null, 2)}\n`,
);
log(`results: ${file}`);
