import type { KindFacts } from '../kind-facts.ts';

/** Handoffs (where a session stopped): `handoffs/<slug>.md`. */
export const handoffKind = {
  kind: 'handoff',
  dir: 'handoffs',
  anchored: false,
  searchable: true,
  noun: 'handoff',
  plural: 'handoffs',
  heading: 'Handoffs',
  order: 7,
  listCommand: 'axme log',
  resource: true,
  page: '/sessions',
} as const satisfies KindFacts<'handoff'>;
