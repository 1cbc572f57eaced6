import { z } from 'zod';
import { AxmeError } from './errors.ts';
import { SEARCH_TYPES, type SearchType } from './search-kinds.ts';
import { textProblem } from './text-problem.ts';

export { SEARCH_KINDS, SEARCH_TYPES, type SearchType } from './search-kinds.ts';

/** The longest query searched, in characters: a longer one is refused (no surface cuts it short, so each ranks the same words). */
export const QUERY_MAX = 1000;

/** Parameters of a knowledge search (axme_search_kb, `axme search`, the page). */
export const SearchInput = z.object({
  query: z
    .string()
    .trim()
    .min(1, 'say what to look for')
    .max(QUERY_MAX, `at most ${QUERY_MAX} characters: keep the words that name what you look for`)
    // text as items are text (no control or bidirectional characters): a query is also echoed back to a terminal
    .superRefine((v, ctx) => {
      const p = textProblem(v);
      if (p) ctx.addIssue({ code: 'custom', message: p });
    })
    .describe('words to look for'),
  k: z.number().int().min(1).max(100).default(10).describe('how many results (1-100, default 10)'),
  type: z
    .enum(SEARCH_TYPES)
    .default('all')
    .describe(`one kind to search (${SEARCH_TYPES.slice(1).join(', ')}), or all (the default)`),
});
export type SearchInput = z.input<typeof SearchInput>;

/** `given` as a kind to search, or an error that lists the kinds (for a surface that reads it as text, such as the page's `type=`). */
export function searchTypeOf(given: string): SearchType {
  if ((SEARCH_TYPES as readonly string[]).includes(given)) return given as SearchType;
  throw new AxmeError('INVALID_INPUT', `no kind is named ${JSON.stringify(given.slice(0, 40))}: search one of ${SEARCH_TYPES.slice(1).join(', ')}, or all`, {
    type: given,
    kinds: [...SEARCH_TYPES],
  });
}
