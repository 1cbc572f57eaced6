import type { KindName } from './kind.ts';

/**
 * Statuses in which an item is live: in force or still to do. One definition for listings,
 * context, search ranking and duplicate detection (a done or superseded item is history).
 */
export const LIVE_STATUSES: Partial<Record<KindName, readonly string[]>> = {
  decision: ['active'],
  memory: ['active'],
  backlog: ['open', 'in-progress', 'blocked'],
  question: ['open'],
};

/** True when the item is live; kinds without a status (handoffs, oracle pages) always are. */
export function isLive(kind: KindName, item: { status?: string }): boolean {
  const live = LIVE_STATUSES[kind];
  return !live || live.includes(item.status ?? '');
}
