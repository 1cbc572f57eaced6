import { createLockFile, type LockFile, readLockFile, removeLockIf } from '../store/lock-file.ts';
import { processAlive } from './owner.ts';

/**
 * Exclusive lock files between processes of this machine, holding `<pid> <time>`: the tokens file's
 * writers, one audit per session, one background sync, one recovery per session. The file is made
 * whole (store/lock-file.ts createLockFile: never seen empty) and removed only while it is still
 * the file that was judged (removeLockIf). The holder is asked by its pid, so a lock left by a
 * process that died is taken over at once.
 */

/** How long a lock file whose holder cannot be read (not axme's) counts as held. */
const UNREADABLE_HOLDER_MS = 5_000;

/** The pid a lock file names (`<pid> <time>`, or the bare `<pid>` of older versions), or 0. */
function holderOf(lock: LockFile): number {
  return Number(/^(\d+)(?:\s|$)/.exec(lock.content)?.[1] ?? 0);
}

/** Whether `lock` is held at `now`: by a live process younger than `staleMs`, or, holder unreadable, younger than UNREADABLE_HOLDER_MS. */
function held(lock: LockFile, now: number, staleMs: number): boolean {
  const age = now - lock.mtimeMs;
  const holder = holderOf(lock);
  return holder > 0 ? processAlive(holder) && age < staleMs : age < Math.min(staleMs, UNREADABLE_HOLDER_MS);
}

/**
 * Takes the lock file at `path`: the release function, or null when a live process holds one
 * younger than `staleMs`. One left by a dead process (or older) is taken over; one whose holder
 * cannot be read only once older than UNREADABLE_HOLDER_MS.
 */
export function claimLockFile(path: string, now: Date, staleMs: number): (() => void) | null {
  const content = `${process.pid} ${now.toISOString()}\n`;
  for (let attempt = 0; attempt < 2; attempt++) {
    const own = createLockFile(path, content);
    if (own !== 'exists') {
      // released only while it is still this claim (one taken over as stale is someone else's now)
      return () => void removeLockIf(path, own);
    }
    const seen = readLockFile(path);
    if (seen === null) continue; // released meanwhile: try again
    if (seen === 'unreadable' || held(seen, now.getTime(), staleMs)) return null;
    // judged and removed as one step, so a claim another process takes meanwhile is never removed
    removeLockIf(path, seen);
  }
  return null;
}

/** Whether the lock file at `path` is held now (as claimLockFile would judge it with no age limit): a job is running. */
export function lockFileHeld(path: string): boolean {
  const seen = readLockFile(path);
  if (seen === null) return false;
  return seen === 'unreadable' || held(seen, Date.now(), Infinity);
}

/** Removes the lock file at `path` if it names `pid` as its holder (a claim handed to the process it started, which ends it); leaves any other. */
export function releaseLockFileOf(path: string, pid: number): void {
  const seen = readLockFile(path);
  if (seen !== null && seen !== 'unreadable' && holderOf(seen) === pid) removeLockIf(path, seen);
}

/** How long the lock file at `path` has named `pid` as its holder (ms since it was written, at `now`), or null when it names another process or is gone. */
export function heldByFor(path: string, pid: number, now: number): number | null {
  const seen = readLockFile(path);
  return seen !== null && seen !== 'unreadable' && holderOf(seen) === pid ? Math.max(0, now - seen.mtimeMs) : null;
}
