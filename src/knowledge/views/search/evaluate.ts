import { readFileSync } from 'node:fs';
import { AxmeError } from '../../../model/errors.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { readMergedState } from '../../core/merged-state.ts';
import { loadSearchIndex, searchStore } from '../search.ts';
import { embedderFor } from './meaning.ts';

/** One question of an evaluation and the items that answer it (IDs such as D-012, or slugs). */
export interface EvalCase {
  query: string;
  expected: string[];
}

/** The measures of a ranked list against the items that answer it. */
export interface Measures {
  /** share of the expected items in the first result */
  recall_at_1: number;
  /** share of the expected items in the first five */
  recall_at_5: number;
  /** 1 / the rank of the first expected item in the first ten (0 when none is) */
  reciprocal_rank: number;
  /** nDCG over the first ten, each expected item a gain of 1 */
  ndcg_at_10: number;
}

/** How many results an evaluation reads of each query. */
export const EVAL_DEPTH = 10;

/** R@1, R@5, reciprocal rank and nDCG@10 of `ranked` (best first) when `expected` are the right answers. */
export function measuresOf(ranked: readonly string[], expected: ReadonlySet<string>): Measures {
  const found = (n: number) => (expected.size ? ranked.slice(0, n).filter((s) => expected.has(s)).length / expected.size : 0);
  const first = ranked.slice(0, EVAL_DEPTH).findIndex((s) => expected.has(s));
  let dcg = 0;
  ranked.slice(0, EVAL_DEPTH).forEach((s, i) => (dcg += expected.has(s) ? 1 / Math.log2(i + 2) : 0));
  let ideal = 0;
  for (let i = 0; i < Math.min(expected.size, EVAL_DEPTH); i++) ideal += 1 / Math.log2(i + 2);
  return { recall_at_1: found(1), recall_at_5: found(5), reciprocal_rank: first >= 0 ? 1 / (first + 1) : 0, ndcg_at_10: ideal ? dcg / ideal : 0 };
}

/** The cases of an evaluation file: a JSON array (or `{ "queries": [...] }`) or JSON Lines, each `{ "query": "...", "expected": ["D-012", "a-slug"] }` (`expected` may be one string; `expect` is read the same). */
export function parseEvalCases(text: string, source = 'the evaluation file'): EvalCase[] {
  const bad = (where: string, what: string): never => {
    throw new AxmeError(
      'INVALID_INPUT',
      `${source}${where}: ${what}; write one {"query": "...", "expected": ["D-012", "some-slug"]} per line (JSON Lines), or a JSON array of them`,
    );
  };
  const trimmed = text.trim();
  if (!trimmed) bad('', 'it is empty');
  let rows: Array<{ at: string; value: unknown }>;
  try {
    const whole: unknown = JSON.parse(trimmed);
    const list = Array.isArray(whole) ? whole : (whole as { queries?: unknown })?.queries;
    // one line of JSON Lines is a JSON document too
    rows = Array.isArray(list) ? list.map((value, i) => ({ at: ` case ${i + 1}`, value })) : [{ at: ':1', value: whole }];
  } catch (err) {
    if (err instanceof AxmeError) throw err;
    rows = trimmed.split('\n').flatMap((line, i) => {
      if (!line.trim()) return [];
      try {
        return [{ at: `:${i + 1}`, value: JSON.parse(line) as unknown }];
      } catch (e) {
        return bad(`:${i + 1}`, `not JSON (${(e as Error).message})`);
      }
    });
  }
  if (!rows.length) bad('', 'it holds no questions');
  return rows.map(({ at, value }) => {
    const { query, expected: named, expect } = (value ?? {}) as { query?: unknown; expected?: unknown; expect?: unknown };
    const expected = named ?? expect;
    if (typeof query !== 'string' || !query.trim()) bad(at, '"query" is missing or empty');
    const list = typeof expected === 'string' ? [expected] : expected;
    if (!Array.isArray(list) || !list.length || !list.every((e) => typeof e === 'string' && e.trim())) bad(at, '"expected" names no item');
    return { query: (query as string).trim(), expected: (list as string[]).map((e) => e.trim()) };
  });
}

/** One case's outcome. */
export interface EvalRow extends Measures {
  query: string;
  expected: string[];
  /** the rank of the first expected item (1-based), null when it is not in the first ten */
  rank: number | null;
  /** the first three results, as IDs or slugs */
  top: string[];
}

export interface Evaluation {
  /** the means over all cases */
  cases: number;
  recall_at_1: number;
  recall_at_5: number;
  mrr: number;
  ndcg_at_10: number;
  rows: EvalRow[];
  /** the commit of the store measured */
  commit: string;
  /** expected names no item of the store holds (by ID or slug): a typo in the file, or an item since removed */
  unknown: string[];
}

/**
 * Measures search on the store's own items: each case's query through `searchStore` (what the
 * CLI, the MCP tool, the page and the hooks use), every kind, the first ten results, an item
 * matched by its ID (case folded) or its slug. R@1, R@5, MRR and nDCG@10 averaged over the cases.
 */
export async function evaluateSearch(
  kb: KnowledgeBase,
  cases: readonly EvalCase[],
  at?: string,
  opts: { byMeaning?: boolean; waitForVectors?: boolean } = {},
): Promise<Evaluation> {
  const { index, state } = await loadSearchIndex(kb, at);
  const names = new Set(index.docs.flatMap((d) => [d.slug, ...(d.id ? [d.id.toLowerCase()] : [])]));
  const key = (name: string) => (names.has(name) ? name : name.toLowerCase());
  const unknown = new Set<string>();
  const rows: EvalRow[] = [];
  for (const c of cases) {
    for (const e of c.expected) if (!names.has(key(e))) unknown.add(e);
    const { hits } = await searchStore(kb, c.query, {
      k: EVAL_DEPTH,
      ...(at ? { at } : {}),
      ...(opts.byMeaning === false ? { byMeaning: false } : {}),
      ...(opts.waitForVectors ? { waitForVectors: true } : {}),
    });
    const expected = new Set(c.expected.map(key));
    // a hit counts under whichever of its names the case used
    const ranked = hits.map((h) => (h.id && expected.has(h.id.toLowerCase()) ? h.id.toLowerCase() : h.slug));
    const m = measuresOf(ranked, expected);
    rows.push({
      query: c.query,
      expected: c.expected,
      ...m,
      rank: m.reciprocal_rank ? Math.round(1 / m.reciprocal_rank) : null,
      top: hits.slice(0, 3).map((h) => h.id ?? h.slug),
    });
  }
  const mean = (f: (r: EvalRow) => number) => (rows.length ? rows.reduce((s, r) => s + f(r), 0) / rows.length : 0);
  return {
    cases: rows.length,
    recall_at_1: mean((r) => r.recall_at_1),
    recall_at_5: mean((r) => r.recall_at_5),
    mrr: mean((r) => r.reciprocal_rank),
    ndcg_at_10: mean((r) => r.ndcg_at_10),
    rows,
    commit: state.commit!,
    unknown: [...unknown],
  };
}

/** An evaluation file's cases (parseEvalCases), read from `path`; `name` is how messages name it (as the user gave it). */
export function readEvalFile(path: string, name: string = path): EvalCase[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new AxmeError(
      'INVALID_INPUT',
      `cannot read ${name} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): give a file of questions, one {"query": "...", "expected": ["D-012", "some-slug"]} per line (docs/search.md)`,
    );
  }
  return parseEvalCases(text, name);
}

/** One ranking's scores in a comparison: the means, and the questions with no answer in the first ten. */
export interface RankingScores {
  ranking: string;
  r1: number;
  r5: number;
  mrr: number;
  ndcg10: number;
  missed: string[];
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * `axme models eval`: the same cases by words only and, when a model (or endpoint) is in force, by
 * words fused with meaning — evaluateSearch run once for each, side by side.
 */
export async function compareRankings(kb: KnowledgeBase, cases: readonly EvalCase[]): Promise<{ queries: number; rows: RankingScores[] }> {
  const embedder = await embedderFor(kb, (await readMergedState(kb)).config);
  const runs: Array<{ ranking: string; byMeaning: boolean }> = [{ ranking: 'words', byMeaning: false }];
  if (embedder) runs.push({ ranking: `words + ${embedder.label}`, byMeaning: true });
  const rows: RankingScores[] = [];
  for (const { ranking, byMeaning } of runs) {
    // the ranking by meaning measured with every item's vector: an endpoint still making them is waited for
    const e = await evaluateSearch(kb, cases, undefined, { byMeaning, waitForVectors: byMeaning });
    rows.push({
      ranking,
      r1: round(e.rows.filter((r) => r.rank === 1).length / Math.max(1, e.cases)),
      r5: round(e.recall_at_5),
      mrr: round(e.mrr),
      ndcg10: round(e.ndcg_at_10),
      missed: e.rows.filter((r) => r.rank === null).map((r) => r.query),
    });
  }
  return { queries: cases.length, rows };
}
