import type { KindFacts } from '../kind-facts.ts';

/** Architectural decisions: `decisions/<slug>.md`, D-001; live while active. */
export const decisionKind = {
  kind: 'decision',
  dir: 'decisions',
  idPrefix: 'D',
  live: ['active'],
  anchored: true,
  searchable: true,
  noun: 'decision',
  plural: 'decisions',
  heading: 'Decisions',
  order: 1,
  listCommand: 'axme decision list',
  resource: true,
  page: '/decisions',
} as const satisfies KindFacts<'decision'>;
