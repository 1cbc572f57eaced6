// Why search ranks what it ranks, for one query on one of the retrieval benchmark's corpora: each
// of the best items' score taken apart — per word of the query (group), the alternative that
// scored, and per term its IDF, weight, frequency in each field and BM25F gain — with what the
// passage and proximity bonuses and the item's marks add or take. The items the query wants are
// shown too, wherever they rank. Words only (no model), as the benchmark's tables.
//
//   node --import tsx bench/retrieval/explain.ts --corpus unseen --query d079 [--k 5]
//   node --import tsx bench/retrieval/explain.ts --corpus notes --query "--no-ignore-vcs"
//
// --query takes a query's id in the corpus's queries file (its relevant items then marked) or any text.
import type { KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import type { Index } from '../../src/knowledge/views/search/build-index.ts';
import type { QueryGroup } from '../../src/knowledge/views/search/query.ts';
import { argOf } from '../args.ts';
import { CORPUS_NAMES, type CorpusName } from './corpus-names.ts';

const argv = process.argv.slice(2);
const usage = (message: string): never => {
  process.stderr.write(
    `explain: ${message}\nusage: node --import tsx bench/retrieval/explain.ts --corpus ${CORPUS_NAMES.join('|')} --query <id or text> [--k 5]\n`,
  );
  process.exit(2);
};
const corpus = argOf(argv, 'corpus', '') as CorpusName;
if (!CORPUS_NAMES.includes(corpus)) usage(`--corpus takes one of ${CORPUS_NAMES.join(', ')}; got ${corpus || 'nothing'}`);
const asked = argOf(argv, 'query', '');
if (!asked) usage('--query takes a query id of the corpus or a text');
const k = Number(argOf(argv, 'k', '5'));
if (!Number.isInteger(k) || k < 1) usage(`--k takes a whole number, at least 1; got ${argOf(argv, 'k', '')}`);

const { closeKnowledgeBase, openKnowledgeBase } = await import('../../src/knowledge/core/kb.ts');
const { loadSearchIndex, searchKnowledge } = await import('../../src/knowledge/views/search.ts');
const { queryOf } = await import('../../src/knowledge/views/search/hits.ts');
const { FIELDS, tfIn } = await import('../../src/knowledge/views/search/fields.ts');
const { termCount, termPostings } = await import('../../src/knowledge/views/search/index-terms.ts');
const { factorAt, idfOf } = await import('../../src/knowledge/views/search/rank.ts');
const { benchEnv } = await import('../lib.ts');
const { seedNamedCorpus } = await import('./named-corpus.ts');

const f3 = (x: number) => x.toFixed(3);

/** One term's part in document `d`: its IDF, and its frequencies by field and gain there (undefined when `d` lacks it). */
function termIn(index: Index, term: string, d: number): { idf: number; tf: string; gain: number } | undefined {
  const id = index.postings.ids.get(term);
  if (id === undefined) return undefined;
  const { docs, gain, from, to } = termPostings(index.postings, id);
  for (let i = from; i < to; i++) {
    if (docs[i] !== d) continue;
    const doc = index.docs[d]!;
    const packed = doc.tfs[doc.terms.indexOf(term)] ?? 0;
    const tf = FIELDS.map((f) => `${f} ${tfIn(packed, f)}`).join(', ');
    return { idf: idfOf(index.docs.length, termCount(index.postings, id)), tf, gain: gain[i]! };
  }
  return undefined;
}

/** Document `d`'s score for each group as `scoreQuery` works it out (the best alternative), printed term by term; their sum. */
function explainGroups(index: Index, groups: QueryGroup[], d: number): number {
  let total = 0;
  for (const [gi, { alternatives }] of groups.entries()) {
    let best = 0;
    let lines: string[] = [];
    for (const { terms, weight } of alternatives) {
      const parts = terms.map((t) => ({ t, found: termIn(index, t, d) }));
      const sum = parts.reduce((s, p) => s + (p.found ? p.found.idf * p.found.gain : 0), 0);
      const v = (sum * weight) / terms.length;
      if (v <= best) continue;
      best = v;
      lines = parts.filter((p) => p.found).map(({ t, found }) => `      ${t}: idf ${f3(found!.idf)} × gain ${f3(found!.gain)} (${found!.tf})`);
      lines.unshift(`    group ${gi + 1} [${terms.join(' ')}] × ${weight}${terms.length > 1 ? ` / ${terms.length}` : ''} = ${f3(v)}`);
    }
    if (best > 0) console.log(lines.join('\n'));
    total += best;
  }
  return total;
}

/** The query's groups, then each item's score taken apart. */
async function explain(kb: KnowledgeBase, query: string, wanted: Set<string>): Promise<void> {
  const { index } = await loadSearchIndex(kb);
  const { groups } = queryOf(index, query);
  console.log(`query "${query}": ${groups.length} groups`);
  for (const [gi, g] of groups.entries()) console.log(`  ${gi + 1}: ${g.alternatives.map((a) => `${a.terms.join(' ')} ×${a.weight}`).join(' | ')}`);
  const hits = (await searchKnowledge(kb, { query, k: 100, byMeaning: false })).hits;
  const shown = hits.slice(0, k).map((h) => h.slug);
  for (const slug of wanted) if (!shown.includes(slug)) shown.push(slug);
  for (const slug of shown) {
    const d = index.docs.findIndex((doc) => doc.slug === slug);
    const rank = hits.findIndex((h) => h.slug === slug);
    const score = rank >= 0 ? hits[rank]!.score : 0;
    console.log(`\n#${rank >= 0 ? rank + 1 : '-'} ${slug}${wanted.has(slug) ? '  (wanted)' : ''}: score ${f3(score)}  "${index.docs[d]?.title ?? '?'}"`);
    if (d < 0) continue;
    const factor = factorAt(index, d);
    const sum = explainGroups(index, groups, d);
    console.log(`    groups ${f3(sum)} × marks ${factor}${rank >= 0 ? `; passage and proximity bonuses ${f3(score - sum * factor)}` : ''}`);
  }
}

const seeded = seedNamedCorpus(corpus);
try {
  const byId = seeded.queries.find((q) => q.id === asked);
  const slugOf = new Map(seeded.docs.map((d) => [d.id, d.slug]));
  const kb = await openKnowledgeBase({ cwd: seeded.dir, env: benchEnv(), actor: 'agent' });
  try {
    await explain(kb, byId?.q ?? asked, new Set((byId?.relevant ?? []).map((id) => slugOf.get(id)!)));
  } finally {
    await closeKnowledgeBase(kb);
  }
} finally {
  seeded.remove();
}
