import type { KindFacts } from '../kind-facts.ts';

/** Open questions for a person: `questions/<slug>.md`, Q-001; live while open. */
export const questionKind = {
  kind: 'question',
  dir: 'questions',
  idPrefix: 'Q',
  live: ['open'],
  anchored: false,
  searchable: true,
  noun: 'question',
  plural: 'questions',
  heading: 'Questions',
  order: 3,
  listCommand: 'axme question list --all',
  resource: true,
  page: '/questions',
} as const satisfies KindFacts<'question'>;
