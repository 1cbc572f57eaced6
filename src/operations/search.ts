import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { SearchHit } from '../knowledge/views/search.ts';
import type { Evaluation } from '../knowledge/views/search/evaluate.ts';
import { AxmeError } from '../model/errors.ts';

type SearchType = (typeof SEARCH_TYPES)[number];
import { SEARCH_TYPES, SearchInput } from '../model/search.ts';
import { defineOperation, READ } from './operation.ts';
import { atParam } from './params.ts';
import { textOf } from './lines.ts';

/** `--eval <file>`: the ranking measured on the store's own items. */
type Evaluated = { evaluation: Evaluation; file: string };
/** A search's results; with `--eval`, no hits and the evaluation instead. */
type Found = { hits: SearchHit[]; commit: string; total: number; query: string; type: SearchType; evaluated?: Evaluated };

const f3 = (x: number) => x.toFixed(3);

/** An evaluation as text: the means, then each case not answered first, then the names no item holds. */
function evaluationText({ evaluation: e, file }: Evaluated): string {
  const lines = [`${e.cases} queries from ${file}: R@1 ${f3(e.recall_at_1)}  R@5 ${f3(e.recall_at_5)}  MRR ${f3(e.mrr)}  nDCG@10 ${f3(e.ndcg_at_10)}`];
  const missed = e.rows.filter((r) => r.rank !== 1);
  if (missed.length) lines.push('', `not first (${missed.length}): rank, query, expected, the first results`, ...missed.map((r) => `  ${r.rank ?? '-'}  "${r.query}"  expected ${r.expected.join(', ')}  got ${r.top.join(', ') || 'nothing'}`));
  if (e.unknown.length) lines.push('', `no item is named ${e.unknown.join(', ')} (by ID or slug): check the file`);
  return lines.join('\n');
}

/** The cases of `file` (relative to `cwd`), read and checked. */
async function casesOf(file: string, cwd: string) {
  const { parseEvalCases } = await import('../knowledge/views/search/evaluate.ts');
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new AxmeError('INVALID_INPUT', `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): give the path of a JSON Lines file of {"query": ..., "expected": [...]}`);
  }
  return parseEvalCases(text, file);
}

/** What each `type` searches, as a sentence says it. */
const SEARCHED: Record<SearchType, string> = {
  all: 'any kind',
  decision: 'decisions',
  memory: 'memories',
  backlog: 'backlog items',
  question: 'questions',
  handoff: 'handoffs',
  session: 'session summaries',
  oracle: 'oracle pages',
};

/** What an empty result says: that nothing matched where it looked, and what to try next (`allKinds`: how this surface asks for every kind). */
export function noMatches(query: string, type: SearchType, allKinds: string): string {
  const wider = type === 'all' ? '' : `, or every kind (${allKinds})`;
  return `No matches for "${query}" in ${SEARCHED[type]}. Try fewer or other words (a name, a file, a word from a title)${wider}.`;
}

/** The status shown beside a hit: none when it is current or its kind has none. */
const statusOf = (h: SearchHit) => (h.status && h.status !== 'active' ? ` [${h.status}]` : '');

/** search: `axme search <query..>`, `axme_search_kb`. */
export const search = defineOperation({
  id: 'search',
  summary: 'Search the knowledge',
  description: 'Ranked search over all the knowledge: decisions, memories, backlog, questions, handoffs, session summaries and oracle pages (`type` narrows to one kind). Each result names its kind and cites git:<commit>:<path>.',
  input: {
    ...SearchInput.shape,
    query: SearchInput.shape.query.optional().describe('words to look for (required, unless --eval)'),
    eval: z.string().min(1).optional().describe('a JSON Lines (or JSON array) file of {"query": ..., "expected": [IDs or slugs]}: measure the ranking on this store (R@1, R@5, MRR, nDCG@10) instead of searching'),
    at: atParam,
  },
  output: z.looseObject({
    hits: z
      .array(
        z.looseObject({
          citation: z.string().describe('git:<commit>:<path>: `git show <commit>:<path>` gives the text'),
          via: z.string().optional().describe('the superseded decision that matched: this hit is its live successor (the old one is not listed)'),
          stale: z.boolean().optional().describe('true when the item is stale (its anchors changed in the code since it was learned: `axme verify`): ranked lower'),
          stale_reason: z.string().optional().describe('why it is stale, e.g. "src/pay.ts changed in 3 commits since this was decided"'),
        }),
      )
      .describe('the results, best first'),
    commit: z.string().describe('the commit searched'),
    total: z.number().describe('how many items matched in all'),
  }),
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_search_kb', omit: ['eval'] },
  async run(kb, input, opts): Promise<Found> {
    if (input.eval) {
      const { evaluateSearch } = await import('../knowledge/views/search/evaluate.ts');
      const evaluation = await evaluateSearch(kb, await casesOf(input.eval, opts?.cwd ?? process.cwd()), input.at);
      return { hits: [], commit: evaluation.commit, total: 0, query: '', type: 'all', evaluated: { evaluation, file: input.eval } };
    }
    if (!input.query?.trim()) throw new AxmeError('INVALID_INPUT', 'say what to look for (axme search <words>), or give --eval <file> to measure the ranking on this store');
    const { searchKnowledge } = await import('../knowledge/views/search.ts');
    const r = await searchKnowledge(kb, { ...input, query: input.query });
    return { ...r, query: String(input.query).trim(), type: (input.type ?? 'all') as SearchType };
  },
  cli: {
    command: ['search'],
    describe: 'ranked search over every kind of knowledge (BM25F with stemming, synonyms and typo tolerance), with git citations',
    positional: ['query'],
    variadic: true,
    // one line per hit: score, kind, ID or slug, title, status when not current, the superseded
    // item it stands for, a stale mark (never served silently as current), citation last
    text: (r) =>
      r.evaluated
        ? evaluationText(r.evaluated)
        : textOf(
        r.hits.length
          ? r.hits.map((h) => `${h.score.toFixed(3)}  ${h.kind}  ${h.id ?? h.slug}  ${h.title}${statusOf(h)}${h.via ? ` (replaces ${h.via})` : ''}${h.stale ? ` (may be outdated${h.stale_reason ? `: ${h.stale_reason}` : ''})` : ''}  ${h.citation}`)
          : [noMatches(r.query, r.type, '--type all')],
      ),
  },
  json: ({ query: _q, type: _t, evaluated, ...r }) => (evaluated ? { ...evaluated.evaluation, file: evaluated.file } : r),
  text: (r) => {
    if (r.evaluated) return evaluationText(r.evaluated);
    const lines = r.hits.map((h, i) => `${i + 1}. ${h.id ? `${h.id} ` : ''}${h.title} [${h.kind}${statusOf(h) ? `, ${h.status}` : ''}]${h.via ? ` (replaces ${h.via})` : ''}${h.stale ? ` (may be outdated${h.stale_reason ? `: ${h.stale_reason}` : ''})` : ''}\n   ${h.snippet}\n   ${h.citation}`);
    return r.hits.length ? `# ${r.hits.length} of ${r.total} matches for "${r.query}"\n${lines.join('\n')}` : noMatches(r.query, r.type, 'type "all"');
  },
});
