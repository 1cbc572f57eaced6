import { z } from 'zod';

/** Parameters of a knowledge search (axme_search_kb, `axme search`). */
export const SEARCH_TYPES = ['all', 'decision', 'memory', 'backlog', 'question'] as const;

export const SearchInput = z.object({
  query: z.string().trim().min(1, 'say what to look for').max(1000, 'at most 1000 characters').describe('words to look for'),
  k: z.number().int().min(1).max(100).default(10).describe('how many results (1-100, default 10)'),
  type: z.enum(SEARCH_TYPES).optional().describe('decision, memory, backlog, question, or all; default: decisions and memories'),
});
export type SearchInput = z.input<typeof SearchInput>;
