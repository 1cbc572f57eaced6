import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../store/atomic-file.ts';

/**
 * The display IDs this clone's merges changed (a sync's merge renumbering a newcomer that took an
 * ID the other side had used, an adoption renumbering one of two adopted proposals): machine-local,
 * `<git-common-dir>/axme/renumbered.jsonl`, one line a renumbering. A session that began before a
 * renumbering may have been given the old ID, which now names another item; its next prompt is told
 * (hooks/renumbered-notice.ts). Plain synchronous fs: the prompt hook reads it without opening the store.
 */
export interface RenumberedLine {
  /** when the renumbering reached this clone's store */
  t: string;
  /** the item's path in the store (`decisions/use-redis.md`) */
  path: string;
  from: string;
  to: string;
  /** the item's title, so the notice says which item it is without opening the store */
  title: string;
}

/** Past this size the record keeps only its newest lines (a notice concerns the sessions open now). */
const MAX_BYTES = 64 * 1024;
const KEEP_LINES = 200;

const recordPath = (commonDir: string) => join(commonDir, 'axme', 'renumbered.jsonl');

/** The key under which a session's record of what it was given (session/given.ts) holds that it was told of a renumbering. */
export const renumberedKey = (r: Pick<RenumberedLine, 'path' | 'from' | 'to'>): string => `renumbered ${r.path} ${r.from} ${r.to}`;

/** Appends this clone's renumberings (nothing for none); an overgrown record is cut to its newest lines first. */
export function recordRenumbered(commonDir: string, items: ReadonlyArray<Omit<RenumberedLine, 't'>>, now: Date): void {
  if (!items.length) return;
  const file = recordPath(commonDir);
  mkdirSync(join(commonDir, 'axme'), { recursive: true });
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // no record yet
  }
  if (size > MAX_BYTES) {
    const kept = readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(-KEEP_LINES);
    writeFileAtomicSync(file, `${kept.join('\n')}\n`);
  }
  const t = now.toISOString();
  appendFileSync(file, items.map((r) => `${JSON.stringify({ t, path: r.path, from: r.from, to: r.to, title: r.title })}\n`).join(''));
}

/** The renumberings recorded at or after `since` (an ISO time), oldest first; none when there is no record. A damaged line is skipped. */
export function renumberedSince(commonDir: string, since: string): RenumberedLine[] {
  let text: string;
  try {
    text = readFileSync(recordPath(commonDir), 'utf8');
  } catch {
    return [];
  }
  const out: RenumberedLine[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const r = JSON.parse(line) as Partial<RenumberedLine>;
      if ([r.t, r.path, r.from, r.to].every((v) => typeof v === 'string') && r.t! >= since)
        out.push({ t: r.t!, path: r.path!, from: r.from!, to: r.to!, title: typeof r.title === 'string' ? r.title : '' });
    } catch {
      // a line cut short by a crash
    }
  }
  return out;
}
