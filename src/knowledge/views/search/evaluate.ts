import { readFileSync } from 'node:fs';
import { AxmeError } from '../../../model/errors.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { searchKnowledge } from '../search.ts';
import { embedderFor } from './meaning.ts';
import { readMergedState } from '../../core/merged-state.ts';

/** One question of an evaluation file and the items that answer it (slugs or display IDs). */
export interface EvalQuery {
  query: string;
  expect: string[];
}

/** The measures of one ranking over the questions. */
export interface EvalScores {
  ranking: string;
  /** share of questions with an answer first */
  r1: number;
  /** share of a question's answers in the first 5, averaged */
  r5: number;
  /** reciprocal rank of the first answer in the top 10, averaged */
  mrr: number;
  /** nDCG@10, binary gains */
  ndcg10: number;
  /** the questions no answer of which is in the top 10 */
  missed: string[];
}

export interface EvalResult {
  queries: number;
  /** words only, then (when a model or endpoint is in force) words fused with meaning */
  rows: EvalScores[];
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Reads an evaluation file: a JSON array of `{ "query": "...", "expect": ["slug or ID", ...] }`
 * (or one such object a line). Throws INVALID_INPUT saying what is wrong.
 */
export function readEvalFile(path: string): EvalQuery[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new AxmeError('INVALID_INPUT', `cannot read ${path}: give a file of questions (docs/search.md, Measuring it on your store)`);
  }
  let items: unknown[];
  try {
    const t = text.trim();
    items = t.startsWith('[') ? JSON.parse(t) : t.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  } catch (err) {
    throw new AxmeError('INVALID_INPUT', `${path} is not JSON (${(err as Error).message}): a JSON array of {"query", "expect": [...]}, or one such object a line`);
  }
  return items.map((q, i) => {
    const o = (q ?? {}) as Record<string, unknown>;
    const expect = typeof o.expect === 'string' ? [o.expect] : o.expect;
    if (typeof o.query !== 'string' || !o.query.trim() || !Array.isArray(expect) || !expect.length || !expect.every((e) => typeof e === 'string'))
      throw new AxmeError('INVALID_INPUT', `${path}: question ${i + 1} needs "query" (text) and "expect" (the slugs or IDs of the items that answer it)`);
    return { query: o.query, expect: expect as string[] };
  });
}

/**
 * `axme models eval <file>`: the questions asked of this store through the one search path, by
 * words only and, when a model (or endpoint) is in force, by words fused with meaning; R@1, R@5,
 * MRR and nDCG@10 of each, side by side, and the questions each misses.
 */
export async function evaluateSearch(kb: KnowledgeBase, questions: readonly EvalQuery[]): Promise<EvalResult> {
  const state = await readMergedState(kb);
  const embedder = await embedderFor(kb, state.config);
  const rankings: Array<{ ranking: string; byMeaning: boolean }> = [{ ranking: 'words', byMeaning: false }];
  if (embedder) rankings.push({ ranking: `words + ${embedder.label}`, byMeaning: true });
  const rows: EvalScores[] = [];
  for (const { ranking, byMeaning } of rankings) {
    let r1 = 0;
    let r5 = 0;
    let mrr = 0;
    let ndcg = 0;
    const missed: string[] = [];
    for (const q of questions) {
      const { hits } = await searchKnowledge(kb, { query: q.query, k: 10, byMeaning });
      const wanted = new Set(q.expect.map((e) => e.toLowerCase()));
      const relevant = hits.map((h) => wanted.has(h.slug.toLowerCase()) || (h.id !== null && wanted.has(h.id.toLowerCase())));
      const first = relevant.indexOf(true);
      if (first === 0) r1++;
      r5 += relevant.slice(0, 5).filter(Boolean).length / wanted.size;
      if (first >= 0) mrr += 1 / (first + 1);
      else missed.push(q.query);
      const dcg = relevant.reduce((s, rel, i) => s + (rel ? 1 / Math.log2(i + 2) : 0), 0);
      let ideal = 0;
      for (let i = 0; i < Math.min(wanted.size, 10); i++) ideal += 1 / Math.log2(i + 2);
      ndcg += dcg / ideal;
    }
    const n = Math.max(1, questions.length);
    rows.push({ ranking, r1: round(r1 / n), r5: round(r5 / n), mrr: round(mrr / n), ndcg10: round(ndcg / n), missed });
  }
  return { queries: questions.length, rows };
}
