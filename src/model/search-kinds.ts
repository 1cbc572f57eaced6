import type { KindName } from './kind.ts';

// No zod here: the query at the tip (knowledge/views/search/tip-search.ts) reads these on the CLI's fast path.

/** The kinds search looks through, all of them by default (plans are not searched). */
export const SEARCH_KINDS = ['decision', 'memory', 'backlog', 'question', 'handoff', 'session', 'oracle'] as const satisfies readonly KindName[];
/** What `type` takes: one kind, or all. */
export const SEARCH_TYPES = ['all', ...SEARCH_KINDS] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
