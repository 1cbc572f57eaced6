// The fifth retrieval corpus: short notes, the shape a knowledge store's memories have — ripgrep's
// commit messages and CHANGELOG entries (bench/retrieval/notes/, built by build-notes.ts), each
// stored as a memory, and its queries (notes-queries.json), written before any engine ran on it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CorpusFile } from './build-corpus.ts';
import { type BenchDoc, type Qrels, type Query, slugOf } from './corpus.ts';

const here = import.meta.dirname;

/** The notes, every one a memory (its first paragraph the memory, the rest its body), and the queries about them; fails on a query naming no note. */
export function loadNotesCorpus(
  dir = join(here, 'notes'),
  queriesFile = join(here, 'notes-queries.json'),
): { files: CorpusFile[]; docs: BenchDoc[]; qrels: Qrels } {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as CorpusFile);
  const notes = files.flatMap((f) => f.docs);
  const ids = new Set(notes.map((d) => d.id));
  const queries = (JSON.parse(readFileSync(queriesFile, 'utf8')) as { queries: Query[] }).queries;
  for (const id of queries.flatMap((q) => q.relevant)) if (!ids.has(id)) throw new Error(`${queriesFile} names ${id}, which no note holds`);
  const docs = notes.map(
    (d): BenchDoc => ({ id: d.id, slug: slugOf(d.id), kind: 'memory', title: d.title, keywords: '', body: `${d.decision}\n\n${d.reasoning}`.trim() }),
  );
  if (new Set(docs.map((d) => d.slug)).size !== docs.length) throw new Error('two notes make one slug');
  return { files, docs, qrels: { supersede: [], memories: notes.map((d) => ({ doc: d.id, type: 'pattern' as const })), queries } };
}
