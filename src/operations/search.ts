import { z } from 'zod';
import { SearchInput, type SearchType } from '../model/search.ts';
import { defineOperation, READ } from './operation.ts';
import { atParam } from './params.ts';
import { searchJson, searchLines, searchText, type Found } from './search-text.ts';

export { noMatches } from './search-text.ts';

/** search: `axme search <query..>`, `axme_search_kb`. */
export const search = defineOperation({
  id: 'search',
  summary: 'Search the knowledge',
  description: 'Ranked search over all the knowledge: decisions, memories, backlog, questions, handoffs, session summaries and oracle pages (`type` narrows to one kind). Each result names its kind and cites git:<commit>:<path>.',
  input: { ...SearchInput.shape, at: atParam },
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
  mcp: { tool: 'axme_search_kb' },
  async run(kb, input): Promise<Found> {
    const { searchKnowledge } = await import('../knowledge/views/search.ts');
    const r = await searchKnowledge(kb, input);
    return { ...r, query: String(input.query).trim(), type: (input.type ?? 'all') as SearchType };
  },
  cli: {
    command: ['search'],
    describe: 'ranked search over every kind of knowledge (BM25F with stemming, synonyms and typo tolerance), with git citations',
    positional: ['query'],
    variadic: true,
    // one line per hit: score, kind, ID or slug, title, status when not current, the superseded
    // item it stands for, a stale mark (never served silently as current), citation last
    text: searchLines,
  },
  json: searchJson,
  text: searchText,
});
