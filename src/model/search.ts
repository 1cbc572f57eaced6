import { z } from 'zod';
import { SEARCH_TYPES } from './search-kinds.ts';

export { SEARCH_KINDS, SEARCH_TYPES, type SearchType } from './search-kinds.ts';

/** Parameters of a knowledge search (axme_search_kb, `axme search`, the page). */
export const SearchInput = z.object({
  query: z.string().trim().min(1, 'say what to look for').max(1000, 'at most 1000 characters').describe('words to look for'),
  k: z.number().int().min(1).max(100).default(10).describe('how many results (1-100, default 10)'),
  type: z
    .enum(SEARCH_TYPES)
    .default('all')
    .describe(`one kind to search (${SEARCH_TYPES.slice(1).join(', ')}), or all (the default)`),
});
export type SearchInput = z.input<typeof SearchInput>;
