/**
 * The corpora the lexical experiments (lexical-experiment.ts, lexical-sections.ts) run on, by
 * name: `adr` (the decision records), `docs` (the unseen text) or `heldout`, each with the
 * queries whose answers it holds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CorpusFile } from './build-corpus.ts';
import { type BenchDoc, decisionDocsOf, loadCorpus, type Qrels, type Query } from './corpus.ts';
import { DOCS_SOURCES, HELDOUT_SOURCES, loadDocsCorpus } from './docs-corpus.ts';

/** The corpus of `name`: its files, documents and queries. */
export function experimentCorpus(name: string): { files: CorpusFile[]; docs: BenchDoc[]; qrels: Qrels } {
  if (name === 'adr') return loadCorpus();
  const sources = name === 'heldout' ? HELDOUT_SOURCES : DOCS_SOURCES;
  const corpus = loadDocsCorpus(undefined, sources);
  const docs = decisionDocsOf(corpus.files);
  const ids = new Set(docs.map((d) => d.id));
  const file = name === 'heldout' ? 'heldout-queries.json' : 'docs-queries.json';
  const all = (JSON.parse(readFileSync(join(import.meta.dirname, file), 'utf8')) as { queries: Query[] }).queries;
  return { files: corpus.files, docs, qrels: { supersede: [], memories: [], queries: all.filter((q) => q.relevant.every((id) => ids.has(id))) } };
}
