import { KIND_TABLES, type SearchKind } from './kinds.ts';

// No zod here: the query at the tip (knowledge/views/search/tip-search.ts) reads these on the CLI's fast path.

/** The kinds search looks through, all of them by default: each kind declared `searchable`. */
export const SEARCH_KINDS = KIND_TABLES.searchKinds as readonly [SearchKind, ...SearchKind[]];
/** What `type` takes: one kind, or all. */
export const SEARCH_TYPES = ['all', ...SEARCH_KINDS] as readonly ['all', ...SearchKind[]];
export type SearchType = (typeof SEARCH_TYPES)[number];

/** `axme search`'s flag for how many results (`--limit`) and its short name (`-k`, also `--k`): the operation's CLI and the query at the tip both read these. */
export const SEARCH_LIMIT_FLAG = 'limit';
export const SEARCH_LIMIT_SHORT = 'k';
