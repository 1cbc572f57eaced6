/**
 * The relevance floor of the prompt recall (issue 32, src/knowledge/views/recall.ts), from the
 * score distribution on the retrieval corpus (bench/retrieval): for each query written as a user
 * would ask it, the score of its relevant item; for prompts about nothing in the store, the best
 * score any item gets. The floor must sit under most of the first and over all of the second.
 * Also how long a recall takes (a warm store, as in one hook process after it opened it).
 *
 *   node --import tsx bench/recall.bench.ts
 */
import { closeKnowledgeBase, openKnowledgeBase } from '../src/knowledge/core/kb.ts';
import { findItems, RECALL_FLOOR, RECALL_SHARE, recallForPrompt, relevantHits } from '../src/knowledge/views/recall.ts';
import { RECALL_FLOOR_DOCS, RECALL_WORTH } from '../src/knowledge/views/recall-prompt.ts';
import { benchEnv } from './lib.ts';
import { loadCorpus, seedCorpusRepo, slugOf } from './retrieval/corpus.ts';

const UNRELATED = [
  'Please write a haiku about autumn leaves falling in the garden.',
  'What is the capital of France?',
  'fix the tests',
  'Rename the variable foo to bar in the helper and run the linter.',
  'Can you explain what this function returns when the list is empty?',
  'thanks, that looks good — commit it',
  'Summarise the README for a new contributor.',
  'Why is the build slow on my laptop?',
];

const q = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]! : NaN);
const fmt = (xs: number[]) =>
  `n=${xs.length} min ${q(xs, 0).toFixed(2)} p10 ${q(xs, 0.1).toFixed(2)} p50 ${q(xs, 0.5).toFixed(2)} p90 ${q(xs, 0.9).toFixed(2)} max ${q(xs, 0.999).toFixed(2)}`;

const { files, qrels } = loadCorpus();
const dir = seedCorpusRepo(files, qrels);
const kb = await openKnowledgeBase({ cwd: dir, env: benchEnv(), actor: 'agent' });
try {
  const relevant: number[] = [];
  const relevantShare: number[] = [];
  let kept = 0;
  for (const query of qrels.queries) {
    const found = await findItems(kb, query.q, 12);
    const want = new Set(query.relevant.map(slugOf));
    const hit = found.hits.find((h) => want.has(h.slug));
    if (!hit) continue;
    relevant.push(hit.score);
    relevantShare.push(hit.score / found.worth);
    if (relevantHits(found).some((h) => want.has(h.slug))) kept++;
  }
  const unrelated: number[] = [];
  const unrelatedShare: number[] = [];
  let leaked = 0;
  for (const text of UNRELATED) {
    const found = await findItems(kb, text, 12);
    unrelated.push(found.hits[0]?.score ?? 0);
    unrelatedShare.push((found.hits[0]?.score ?? 0) / found.worth);
    if (relevantHits(found).length) leaked++;
  }
  console.log(`floor ${RECALL_FLOOR} (scaled down under ${RECALL_FLOOR_DOCS} documents, with ${RECALL_WORTH} of the prompt's worth), share ${RECALL_SHARE}`);
  console.log(`relevant item's score, queries about it: ${fmt(relevant)}; recalled ${kept}/${relevant.length}`);
  console.log(`best score, unrelated prompts:           ${fmt(unrelated)}; recalled anything ${leaked}/${UNRELATED.length}`);
  console.log(`relevant item's score / the query's worth:  ${fmt(relevantShare)}`);
  console.log(`best score / the prompt's worth, unrelated:  ${fmt(unrelatedShare)}`);
  const times: number[] = [];
  for (const query of qrels.queries.slice(0, 50)) {
    const t = performance.now();
    await recallForPrompt(kb, query.q, new Set());
    times.push(performance.now() - t);
  }
  console.log(`recallForPrompt, warm: ${fmt(times)} ms`);
} finally {
  await closeKnowledgeBase(kb);
}
