// Retrieval benchmark (issue 22 part 3): how well search finds the item a person means, on
// public architecture decision records (bench/retrieval/README.md), for axme's search, the BM25 it
// replaced, MiniSearch and Orama: recall in the top 5 and mean reciprocal rank per kind of query;
// then search latency in a store of --size synthetic decisions, axme next to MiniSearch: the first
// query (reading the store, then building the index, next to the old BM25's build) and warm ones.
// Markdown table on stdout, JSON in bench/results/, progress on stderr.
//
//   node --import tsx bench/retrieval.bench.ts [--size 100000] [--reps 20] [--out DIR] [--misses]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeKnowledgeBase, openKnowledgeBase, type KnowledgeBase } from '../src/knowledge/core/kb.ts';
import { readMergedState } from '../src/knowledge/core/merged-state.ts';
import { searchKnowledge } from '../src/knowledge/views/search.ts';
import { machine } from './harness.ts';
import { argOf, benchEnv, fmt, seededRepo, stats, type Stats } from './lib.ts';
import { loadCorpus, seedCorpusRepo, type Query, type QueryKind } from './retrieval/corpus.ts';
import { axmeEngine, baselineEngine, miniSearchEngine, oramaEngine, type Engine } from './retrieval/engines.ts';
import { baselineSearch } from './retrieval/bm25-baseline.ts';

const argv = process.argv.slice(2);
const arg = (name: string, d: string) => argOf(argv, name, d);
const usage = (message: string): never => {
  process.stderr.write(`retrieval.bench: ${message}\n`);
  process.exit(2);
};
const size = Number(arg('size', '100000'));
if (!Number.isInteger(size) || size < 0) usage(`--size takes a whole number of decisions for the latency run (0: none); got ${arg('size', '')}`);
const reps = Number(arg('reps', '20'));
if (!Number.isInteger(reps) || reps < 1) usage(`--reps takes a whole number of rounds, at least 1; got ${arg('reps', '')}`);
const out = arg('out', join(import.meta.dirname, 'results'));
const showMisses = argv.includes('--misses');
const log = (s: string) => process.stderr.write(`${s}\n`);
const K = 10;
const KINDS: QueryKind[] = ['paraphrase', 'memory', 'supersession'];

interface Quality {
  engine: string;
  /** per kind of query and `all`: recall in the top 5, mean reciprocal rank in the top 10 */
  scores: Record<QueryKind | 'all', { queries: number; recallAt5: number; mrr: number }>;
  misses: Array<{ query: string; q: string; rank: number | null; top: string[] }>;
}

async function quality(engine: Engine, queries: Query[], slugOfId: (id: string) => string): Promise<Quality> {
  const per: Array<{ kind: QueryKind; recall: number; rr: number }> = [];
  const misses: Quality['misses'] = [];
  for (const q of queries) {
    const top = await engine.search(q.q, K);
    const relevant = new Set(q.relevant.map(slugOfId));
    const found = top.slice(0, 5).filter((s) => relevant.has(s)).length;
    const first = top.findIndex((s) => relevant.has(s));
    per.push({ kind: q.kind, recall: found / relevant.size, rr: first >= 0 ? 1 / (first + 1) : 0 });
    if (first !== 0) misses.push({ query: q.id, q: q.q, rank: first >= 0 ? first + 1 : null, top: top.slice(0, 3) });
  }
  const agg = (rows: typeof per) => ({ queries: rows.length, recallAt5: avg(rows.map((r) => r.recall)), mrr: avg(rows.map((r) => r.rr)) });
  const scores = { all: agg(per) } as Quality['scores'];
  for (const kind of KINDS) scores[kind] = agg(per.filter((r) => r.kind === kind));
  return { engine: engine.name, scores, misses };
}

const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

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

/** The old BM25's first query at --size items, the store already read: its index build, next to axme's `buildMs`. */
let baselineBuildMs: number | null = null;

const LATENCY_QUERIES = ['component 42', 'seeded decision about component 7', 'approach 31337 measured', 'benchmark seed', 'which component uses approach 5', 'xyzzy nothing matches'];

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
      baselineBuildMs = performance.now() - t0;
      const state = await readMergedState(kb);
      t0 = performance.now();
      const mini = miniSearchEngine(state.items.decision.map((d) => ({ slug: d.slug, title: d.title, keywords: d.tags.join(' '), body: `${d.decision}\n${d.reasoning}` })));
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

const started = Date.now();
const { files, docs, qrels } = loadCorpus();
log(`corpus: ${docs.length} records from ${files.length} repositories, ${qrels.queries.length} queries`);
const dir = seedCorpusRepo(files, qrels);
let results: Quality[];
try {
  results = await withKb(dir, async (kb) => {
    const engines: Engine[] = [baselineEngine(kb), miniSearchEngine(docs), await oramaEngine(docs), axmeEngine(kb)];
    const slug = new Map(docs.map((d) => [d.id, d.slug]));
    const rows: Quality[] = [];
    for (const e of engines) {
      log(`quality: ${e.name}`);
      rows.push(await quality(e, qrels.queries, (id) => slug.get(id)!));
    }
    return rows;
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const lat = size > 0 ? await latency(size) : [];

const m = machine();
const f3 = (x: number) => x.toFixed(3);
const count = (k: QueryKind | 'all') => results[0]!.scores[k].queries;
const lines = [
  `Retrieval: ${docs.length} public decision records from ${files.length} repositories, ${qrels.queries.length} queries (${KINDS.map((k) => `${count(k)} ${k}`).join(', ')}); ${m.cores} x ${m.cpu}, node ${m.node}`,
  '',
  `| engine | R@5 all | MRR all | ${KINDS.map((k) => `R@5 ${k} | MRR ${k}`).join(' | ')} |`,
  `| --- | ---: | ---: | ${KINDS.map(() => '---: | ---:').join(' | ')} |`,
  ...results.map((r) => `| ${r.engine} | ${f3(r.scores.all.recallAt5)} | ${f3(r.scores.all.mrr)} | ${KINDS.map((k) => `${f3(r.scores[k].recallAt5)} | ${f3(r.scores[k].mrr)}`).join(' | ')} |`),
];
if (lat.length) {
  lines.push('', `| search latency | items | first query ms (reads the store, builds the index) | warm ms, median (p10–p90) |`, '| --- | ---: | ---: | ---: |');
  for (const l of lat) lines.push(`| ${l.engine} | ${l.size} | ${fmt(l.firstMs)} | ${fmt(l.warm.median)} (${fmt(l.warm.p10)}–${fmt(l.warm.p90)}) |`);
  const axme = lat.find((l) => l.engine === 'axme');
  if (axme?.storeMs !== undefined && axme.buildMs !== undefined && baselineBuildMs !== null) {
    lines.push('', `| first query, split | items | reading the store ms | building the index and answering ms |`, '| --- | ---: | ---: | ---: |');
    lines.push(`| axme | ${axme.size} | ${fmt(axme.storeMs)} | ${fmt(axme.buildMs)} |`, `| BM25 (axme before) | ${axme.size} | (the same) | ${fmt(baselineBuildMs)} |`);
  }
}
console.log(lines.join('\n'));
if (showMisses) {
  for (const r of results) {
    log(`\n${r.engine}: ${r.misses.length} queries not answered first`);
    for (const x of r.misses) log(`  ${x.query} rank ${x.rank ?? '-'}  "${x.q}"  top: ${x.top.join(', ')}`);
  }
}
mkdirSync(out, { recursive: true });
const file = join(out, `retrieval-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), machine: m, corpus: { records: docs.length, repositories: files.map((x) => ({ repo: x.repo, commit: x.commit, licence: x.licence, records: x.docs.length })), queries: qrels.queries.length }, seconds: Math.round((Date.now() - started) / 1000), quality: results, latency: lat, baselineBuildMs }, null, 2)}\n`);
log(`results: ${file}`);
