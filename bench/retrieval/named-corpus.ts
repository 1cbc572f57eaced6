// One of the retrieval benchmark's six corpora by its name (`--corpora`'s), seeded into a store of
// its own as retrieval.bench.ts seeds it: what a tool that looks at one corpus (explain.ts) opens.
import { rmSync } from 'node:fs';
import type { BenchDoc, Query } from './corpus.ts';
import { loadCorpus, seedCorpusRepo } from './corpus.ts';
import type { CorpusName } from './corpus-names.ts';
import { loadFaqCorpus, seedFaqRepo } from './faq-corpus.ts';
import { loadNotesCorpus } from './notes-corpus.ts';
import { DOCS_CORPORA, docsCorpusOf } from './quality.ts';

/** A corpus seeded into a temporary repository: its documents, its queries, and `remove` to delete the repository. */
export interface SeededCorpus {
  dir: string;
  docs: BenchDoc[];
  queries: Query[];
  remove: () => void;
}

/** Corpus `name` read (the man-page corpora on this machine) and seeded into a fresh repository's store. */
export function seedNamedCorpus(name: CorpusName): SeededCorpus {
  const seeded = (dir: string, docs: BenchDoc[], queries: Query[]): SeededCorpus => ({
    dir,
    docs,
    queries,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  });
  switch (name) {
    case 'records': {
      const { files, docs, qrels } = loadCorpus();
      return seeded(seedCorpusRepo(files, qrels), docs, qrels.queries);
    }
    case 'notes': {
      const { files, docs, qrels } = loadNotesCorpus();
      return seeded(seedCorpusRepo(files, qrels), docs, qrels.queries);
    }
    case 'faq': {
      const { files, docs, queries } = loadFaqCorpus();
      return seeded(seedFaqRepo(files), docs, queries);
    }
    default: {
      const [sources, queriesFile] = DOCS_CORPORA[name];
      const { files, docs, queries } = docsCorpusOf(sources, queriesFile);
      return seeded(seedCorpusRepo(files, { supersede: [], memories: [], queries }), docs, queries);
    }
  }
}
