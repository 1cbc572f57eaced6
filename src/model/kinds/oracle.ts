import type { KindFacts } from '../kind-facts.ts';

/** Oracle pages (the scan of the project): `oracle/<slug>.md`; no status. */
export const oracleKind = {
  kind: 'oracle',
  dir: 'oracle',
  anchored: true,
  searchable: true,
  noun: 'oracle page',
  plural: 'oracle pages',
  heading: 'Oracle',
  order: 5,
  listCommand: 'axme log',
  resource: true,
  page: '/oracle',
} as const satisfies KindFacts<'oracle'>;
