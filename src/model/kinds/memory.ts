import type { KindFacts } from '../kind-facts.ts';

/** Memories (feedback and patterns): `memories/<slug>.md`, named by slug; live while active. */
export const memoryKind = {
  kind: 'memory',
  dir: 'memories',
  live: ['active'],
  anchored: true,
  searchable: true,
  noun: 'memory',
  plural: 'memories',
  heading: 'Memories',
  order: 2,
  listCommand: 'axme memory list',
  resource: true,
  page: '/memories',
} as const satisfies KindFacts<'memory'>;
