import type { KindFacts } from '../kind-facts.ts';

/** Session summaries: `sessions/<yyyy-mm>/<session>.md`; not MCP resources. */
export const sessionKind = {
  kind: 'session',
  dir: 'sessions',
  anchored: false,
  searchable: true,
  noun: 'session summary',
  plural: 'session summaries',
  heading: 'Sessions',
  order: 8,
  listCommand: 'axme log',
  resource: false,
  page: '/sessions',
} as const satisfies KindFacts<'session'>;
