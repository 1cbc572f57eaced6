import type { KindFacts } from '../kind-facts.ts';

/** Backlog items: `backlog/<slug>.md`, B-001; live until done. */
export const backlogKind = {
  kind: 'backlog',
  dir: 'backlog',
  idPrefix: 'B',
  live: ['open', 'in-progress', 'blocked'],
  anchored: true,
  searchable: true,
  noun: 'backlog item',
  plural: 'backlog items',
  heading: 'Backlog',
  order: 4,
  listCommand: 'axme backlog list',
  resource: true,
  page: '/backlog',
} as const satisfies KindFacts<'backlog'>;
