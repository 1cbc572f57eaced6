// How well an engine answers a corpus's queries: R@1, R@5, MRR and nDCG@10 (what `axme search
// --eval` reports), per kind of query, for all queries and for each half of them (odd / even
// positions: a change decided on one half is checked on the other). Shared by retrieval.bench.ts
// and real-model.ts.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measuresOf } from '../../src/knowledge/views/search/evaluate.ts';
import type { Stats } from '../lib.ts';
import { stats } from '../lib.ts';
import type { CorpusFile } from './build-corpus.ts';
import { type BenchDoc, decisionDocsOf, type Query } from './corpus.ts';
import { DOCS_SOURCES, type DocsSources, FRESH_SOURCES, HELDOUT_SOURCES, loadDocsCorpus } from './docs-corpus.ts';
import type { Engine } from './engines.ts';

/** How many results a query is scored on. */
export const K = 10;
/** The kinds of query of the decision records corpus (queries.json). */
export const RECORD_KINDS = ['paraphrase', 'memory', 'supersession'];
/** The kinds of query of the man-page and README corpora. */
export const DOCS_KINDS = ['paraphrase', 'body', 'identifier', 'typo'];

/** The measures of one set of queries. */
export interface Scores {
  queries: number;
  recallAt1: number;
  recallAt5: number;
  mrr: number;
  ndcgAt10: number;
}

export interface Quality {
  engine: string;
  /** per kind of query, `all`, `odd` and `even` */
  scores: Record<string, Scores>;
  /** when timed: each query's time, warm (the query asked once before) */
  warm?: Stats;
  misses: Array<{ query: string; q: string; rank: number | null; top: string[] }>;
}

/** R@1 and R@5, reciprocal rank of the first relevant item in the top 10, nDCG@10 (binary gains): what `axme search --eval` reports. */
function measure(top: string[], relevant: Set<string>): Omit<Scores, 'queries'> {
  const m = measuresOf(top, relevant);
  return { recallAt1: m.recall_at_1, recallAt5: m.recall_at_5, mrr: m.reciprocal_rank, ndcgAt10: m.ndcg_at_10 };
}

const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** `engine`'s measures on `queries`, per kind in `kinds`; `timed`: each query asked twice, the second timed. */
export async function quality(engine: Engine, queries: Query[], kinds: string[], slugOfId: (id: string) => string, timed = false): Promise<Quality> {
  const per: Array<{ kind: string; odd: boolean } & Omit<Scores, 'queries'>> = [];
  const misses: Quality['misses'] = [];
  const ms: number[] = [];
  for (const [i, q] of queries.entries()) {
    let top = await engine.search(q.q, K);
    if (timed) {
      const t = performance.now();
      top = await engine.search(q.q, K);
      ms.push(performance.now() - t);
    }
    const relevant = new Set(q.relevant.map(slugOfId));
    const m = measure(top, relevant);
    per.push({ kind: q.kind, odd: i % 2 === 0, ...m });
    if (m.recallAt1 === 0 || m.mrr < 1) misses.push({ query: q.id, q: q.q, rank: m.mrr ? Math.round(1 / m.mrr) : null, top: top.slice(0, 3) });
  }
  const agg = (rows: typeof per): Scores => ({
    queries: rows.length,
    recallAt1: avg(rows.map((r) => r.recallAt1)),
    recallAt5: avg(rows.map((r) => r.recallAt5)),
    mrr: avg(rows.map((r) => r.mrr)),
    ndcgAt10: avg(rows.map((r) => r.ndcgAt10)),
  });
  const scores: Record<string, Scores> = { all: agg(per) };
  for (const kind of kinds) scores[kind] = agg(per.filter((r) => r.kind === kind));
  // the queries split by position (1st, 3rd, ... and 2nd, 4th, ...): a change decided on one half is checked on the other
  scores.odd = agg(per.filter((r) => r.odd));
  scores.even = agg(per.filter((r) => !r.odd));
  return { engine: engine.name, scores, misses, ...(timed ? { warm: stats(ms) } : {}) };
}

/** A man-page and README corpus as read on this machine, with the queries about what it read (a query whose section is missing here is left out). */
export interface DocsCorpus {
  files: CorpusFile[];
  docs: BenchDoc[];
  queries: Query[];
  /** how many queries the file holds */
  written: number;
  /** the pages and READMEs this machine lacks */
  missing: string[];
}

/** The corpora of other text than decision records: their sources and their queries' file (bench/retrieval/). */
export const DOCS_CORPORA = {
  unseen: [DOCS_SOURCES, 'docs-queries.json'],
  heldout: [HELDOUT_SOURCES, 'heldout-queries.json'],
  fresh: [FRESH_SOURCES, 'fresh-queries.json'],
} as const;

/** Reads `sources` (the first `limit` man pages and READMEs of each list) and the queries of `queriesFile` (in bench/retrieval/) about them. */
export function docsCorpusOf(sources: DocsSources, queriesFile: string, limit = Number.MAX_SAFE_INTEGER): DocsCorpus {
  const corpus = loadDocsCorpus(undefined, { ...sources, pages: sources.pages.slice(0, limit), packages: sources.packages.slice(0, limit) });
  const docs = decisionDocsOf(corpus.files);
  const ids = new Set(docs.map((d) => d.id));
  const all = (JSON.parse(readFileSync(join(import.meta.dirname, queriesFile), 'utf8')) as { queries: Query[] }).queries;
  return { files: corpus.files, docs, queries: all.filter((q) => q.relevant.every((id) => ids.has(id))), written: all.length, missing: corpus.missing };
}
