import type { KindName } from './kind.ts';
import { KIND_TABLES } from './kinds.ts';

/**
 * Statuses in which an item is live: in force or still to do (each kind's `live`). One definition
 * for listings, context, search ranking and duplicate detection (a done or superseded item is
 * history); null for a kind without a status (handoffs, oracle pages): always live.
 */
export const LIVE_STATUSES: Readonly<Record<KindName, readonly string[] | null>> = KIND_TABLES.liveStatuses;

/** True when the item is live; kinds without a status (handoffs, oracle pages) always are. */
export function isLive(kind: KindName, item: { status?: string }): boolean {
  const live = LIVE_STATUSES[kind];
  return !live || live.includes(item.status ?? '');
}
