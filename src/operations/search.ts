import { resolve } from 'node:path';
import { z } from 'zod';
import type { Evaluation } from '../knowledge/views/search/evaluate.ts';
import { AxmeError } from '../model/errors.ts';
import { SearchInput, type SearchType } from '../model/search.ts';
import { SEARCH_LIMIT_FLAG, SEARCH_LIMIT_SHORT } from '../model/search-kinds.ts';
import { defineOperation, READ } from './operation.ts';
import { atParam } from './params.ts';
import { type Found, moreHitsNote, searchJson, searchLines, searchText } from './search-text.ts';

/** `--eval <file>`: the ranking measured on the store's own items. */
type Evaluated = { evaluation: Evaluation; file: string };
/** A search's results; with `--eval`, no hits and the evaluation instead. */
type Searched = Found & { evaluated?: Evaluated };

const f3 = (x: number) => x.toFixed(3);

/** An evaluation as text: the means, then each case not answered first, then the names no item holds. */
function evaluationText({ evaluation: e, file }: Evaluated): string {
  const lines = [
    `${e.cases} ${e.cases === 1 ? 'query' : 'queries'} from ${file}: R@1 ${f3(e.recall_at_1)}  R@5 ${f3(e.recall_at_5)}  MRR ${f3(e.mrr)}  nDCG@10 ${f3(e.ndcg_at_10)}`,
  ];
  const missed = e.rows.filter((r) => r.rank !== 1);
  if (missed.length)
    lines.push(
      '',
      `not first (${missed.length}): rank, query, expected, the first results`,
      ...missed.map((r) => `  ${r.rank ?? '-'}  "${r.query}"  expected ${r.expected.join(', ')}  got ${r.top.join(', ') || 'nothing'}`),
    );
  if (e.unknown.length) lines.push('', `no item is named ${e.unknown.join(', ')} (by ID or slug): check the file`);
  return lines.join('\n');
}

export { noMatches } from './search-text.ts';

/** search: `axme search <query..>`, `axme_search_kb`. */
export const search = defineOperation({
  id: 'search',
  summary: 'Search the knowledge',
  description:
    'Ranked search over all the knowledge: decisions, memories, backlog, questions, handoffs, session summaries and oracle pages (`type` narrows to one kind). Each result names its kind and cites git:<commit>:<path>.',
  input: {
    ...SearchInput.shape,
    query: SearchInput.shape.query.optional().describe('words to look for (required; on the command line --eval <file> may stand instead)'),
    eval: z
      .string()
      .min(1)
      .optional()
      .describe(
        'a JSON Lines (or JSON array) file of {"query": ..., "expected": [IDs or slugs]}: measure the ranking on this store (R@1, R@5, MRR, nDCG@10) instead of searching',
      ),
    at: atParam,
    retry_endpoint: z
      .boolean()
      .optional()
      .describe(
        'ask the embeddings endpoint (search.embeddings) at once, though it failed lately: after a failure it is not asked again for a while (1 minute, doubled each failure, at most 1 hour; `axme doctor` says until when)',
      ),
  },
  output: z.looseObject({
    hits: z
      .array(
        z.looseObject({
          citation: z.string().describe('git:<commit>:<path>: `git show <commit>:<path>` gives the text'),
          via: z.string().optional().describe('the superseded decision that matched: this hit is its live successor (the old one is not listed)'),
          stale: z
            .boolean()
            .optional()
            .describe('true when the item is stale (its anchors changed in the code since it was learned: `axme verify`): ranked lower'),
          stale_reason: z.string().optional().describe('why it is stale, e.g. "src/pay.ts changed in 3 commits since this was decided"'),
        }),
      )
      .describe('the results, best first'),
    commit: z.string().describe('the commit searched'),
    total: z.number().describe('how many items matched in all'),
    meaning: z
      .looseObject({
        embedder: z.string().describe('what ranks by meaning here: `endpoint <url> (<model>)` or `model <name>`'),
        fused: z.boolean().describe("true: the ranking by meaning was fused with the words'; false: ranked by words alone (reason)"),
        lacking: z.number().describe('items without a vector yet: being made in the background, or the endpoint gave up'),
        partial: z
          .string()
          .optional()
          .describe('fused while some items lack a vector: "K of N items" have one; ranked by meaning over those, each other item at its word rank'),
        reason: z.string().optional().describe('why the answer is by words alone, or why some items lack a vector'),
      })
      .optional()
      .describe('present when an embeddings endpoint or a local model is in force: whether this answer used it'),
  }),
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_search_kb', omit: ['eval', 'retry_endpoint'], upFront: true },
  async run(kb, input, opts): Promise<Searched> {
    if (input.eval) {
      if (input.query?.trim())
        throw new AxmeError(
          'INVALID_INPUT',
          `give either words to search or --eval <file> (its own queries), not both: drop "${input.query.trim().slice(0, 40)}"`,
        );
      const { evaluateSearch, readEvalFile } = await import('../knowledge/views/search/evaluate.ts');
      const evaluation = await evaluateSearch(kb, readEvalFile(resolve(opts?.cwd ?? process.cwd(), input.eval), input.eval), input.at);
      return { hits: [], commit: evaluation.commit, total: 0, query: '', type: 'all', evaluated: { evaluation, file: input.eval } };
    }
    if (!input.query?.trim())
      throw new AxmeError(
        'INVALID_INPUT',
        'say what to look for: a few words as the query (a name, a file, a word from a title); on the command line, --eval <file> measures the ranking on this store instead',
      );
    const { searchKnowledge } = await import('../knowledge/views/search.ts');
    const { retry_endpoint, ...rest } = input;
    const r = await searchKnowledge(kb, { ...rest, query: input.query, retryEndpoint: retry_endpoint === true });
    return { ...r, query: String(input.query).trim(), type: (input.type ?? 'all') as SearchType };
  },
  cli: {
    command: ['search'],
    describe: 'ranked search over every kind of knowledge (BM25F with stemming, synonyms and typo tolerance), with git citations',
    positional: ['query'],
    variadic: true,
    // --limit as other listings spell it, -k as search always has
    names: { k: SEARCH_LIMIT_FLAG },
    alias: { k: SEARCH_LIMIT_SHORT },
    // one line per hit: score, kind, ID or slug, title, status when not current, the superseded
    // item it stands for, a stale mark (never served silently as current), citation last
    text: (r, p) => {
      if (r.evaluated) return evaluationText(r.evaluated);
      const more = moreHitsNote(r);
      if (more) p.note(more);
      return searchLines(r);
    },
  },
  json: (r) => (r.evaluated ? { ...r.evaluated.evaluation, file: r.evaluated.file } : searchJson(r)),
  text: (r) => (r.evaluated ? evaluationText(r.evaluated) : searchText(r)),
});
