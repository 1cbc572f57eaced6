import type { KindFacts } from '../kind-facts.ts';

/** Plans: `plans/<slug>.md`; always live, not searched. */
export const planKind = {
  kind: 'plan',
  dir: 'plans',
  anchored: false,
  searchable: false,
  noun: 'plan',
  plural: 'plans',
  heading: 'Plans',
  order: 6,
  listCommand: 'axme log',
  resource: true,
  page: '/backlog',
} as const satisfies KindFacts<'plan'>;
