// The engines the retrieval benchmark compares, each behind one interface: a ranked list of item
// slugs for a query. MiniSearch and Orama index the same documents (title, keywords, body) with
// the options their documentation suggests for a search box; neither knows about supersession.

import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import MiniSearch from 'minisearch';
import type { KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { searchKnowledge } from '../../src/knowledge/views/search.ts';
import { baselineSearch } from './bm25-baseline.ts';
import type { BenchDoc } from './corpus.ts';

export interface Engine {
  name: string;
  /** the best `k` item slugs for `query`, best first */
  search: (query: string, k: number) => Promise<string[]>;
}

export type IndexedDoc = Pick<BenchDoc, 'slug' | 'title' | 'keywords' | 'body'>;

/** axme before issue 22 part 3 (a copy of its BM25, bench/retrieval/bm25-baseline.ts): decisions and memories, as its CLI searched, or every kind (`all`). */
export function baselineEngine(kb: KnowledgeBase, type?: 'all'): Engine {
  return {
    name: 'BM25 (axme before)',
    search: async (query, k) => (await baselineSearch(kb, { query, k, ...(type ? { type } : {}) })).hits.map((h) => h.slug),
  };
}

/** axme's search as the CLI and MCP run it. */
export function axmeEngine(kb: KnowledgeBase): Engine {
  return { name: 'axme', search: async (query, k) => (await searchKnowledge(kb, { query, k })).hits.map((h) => h.slug) };
}

/** MiniSearch 7.2.0: BM25+, title boosted, prefix and fuzzy matching on. */
export function miniSearchEngine(docs: IndexedDoc[]): Engine {
  const ms = new MiniSearch<IndexedDoc>({
    idField: 'slug',
    fields: ['title', 'keywords', 'body'],
    searchOptions: { boost: { title: 2, keywords: 2 }, prefix: true, fuzzy: 0.2 },
  });
  ms.addAll(docs);
  return {
    name: 'MiniSearch 7.2.0',
    search: async (query, k) =>
      ms
        .search(query)
        .slice(0, k)
        .map((r) => String(r.id)),
  };
}

/** Orama 3.1.18: its default English tokenizer, title boosted. */
export async function oramaEngine(docs: IndexedDoc[]): Promise<Engine> {
  const db = create({ schema: { title: 'string', keywords: 'string', body: 'string' } as const });
  await insertMultiple(
    db,
    docs.map((d) => ({ id: d.slug, title: d.title, keywords: d.keywords, body: d.body })),
  );
  return {
    name: 'Orama 3.1.18',
    search: async (query, k) =>
      (await oramaSearch(db, { term: query, properties: ['title', 'keywords', 'body'], boost: { title: 2, keywords: 2 }, limit: k })).hits.map((h) =>
        String(h.id),
      ),
  };
}
