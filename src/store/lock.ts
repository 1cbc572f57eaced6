import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createLockFile, type LockFile, readLockFile, removeLockIf } from './lock-file.ts';
import { processAlive } from './processes.ts';

export interface AdvisoryLockOptions {
  /** give up waiting after this long and go on without the lock */
  waitMs?: number;
  /** a lock older than this is taken over even if its owner seems alive */
  staleMs?: number;
  /**
   * a lock whose owner cannot be asked — another host's, or one not in the `<pid> <host> ...` form
   * (garbage, half written) — is taken over once older than this, or when the wait for it ends
   */
  unverifiedMs?: number;
  /** the clock, in ms (tests inject one) */
  now?: () => number;
  /** the pause between tries (tests inject one) */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Runs `fn` holding `<dir>/<name>.lock` when it can be had. The lock only keeps writers from
 * retrying over each other; correctness comes from the compare-and-swap on the ref, so after
 * `waitMs` the caller proceeds without it. A crashed writer costs the next one at most one wait:
 * a lock whose process is gone, or older than `staleMs`, is recovered at once; one whose owner
 * cannot be checked (another host, not axme's format) once older than `unverifiedMs`, or when the
 * wait for it ends — recovered means removed (see removeLockIf: only that very file), so later
 * writers do not wait for it again. A live local owner's lock is never removed before `staleMs`.
 */
export async function withAdvisoryLock<T>(dir: string, name: string, fn: () => Promise<T>, opts: AdvisoryLockOptions = {}): Promise<T> {
  const waitMs = opts.waitMs ?? 5_000;
  const limits = { staleMs: opts.staleMs ?? 30_000, unverifiedMs: opts.unverifiedMs ?? 5_000 };
  const now = opts.now ?? Date.now;
  const pause = opts.sleep ?? sleep;
  const path = join(dir, `${name}.lock`);
  const token = `${process.pid} ${hostname()} ${Date.now()} ${randomBytes(4).toString('hex')}`;
  // small local files: synchronous calls (microseconds); only the wait between tries is async
  mkdirSync(dir, { recursive: true });
  const deadline = now() + waitMs;
  let mine: LockFile | null = null;
  for (let attempt = 0; ; attempt++) {
    const taken = tryCreate(path, token);
    if (taken === 'failed') break; // cannot lock here: go on unlocked
    if (taken !== 'exists') {
      mine = taken;
      break;
    }
    const seen = readLockFile(path);
    if (seen === 'unreadable') break; // not a lock file anyone can judge: go on unlocked
    const overdue = now() >= deadline;
    if (seen === null) {
      if (overdue) break;
      continue; // released meanwhile: try again at once
    }
    const verdict = judge(seen, now(), limits);
    if ((verdict === 'stale' || (verdict === 'unverified' && overdue)) && removeLockIf(path, seen)) continue;
    if (overdue) break;
    await pause(Math.min(2 + attempt * 2, 25) * (0.5 + Math.random()));
  }
  try {
    return await fn();
  } finally {
    if (mine) removeLockIf(path, mine);
  }
}

/** Creates the lock with our token: its identity, 'exists' when another holds it, 'failed' when it cannot be made here. */
function tryCreate(path: string, token: string): LockFile | 'exists' | 'failed' {
  try {
    return createLockFile(path, token);
  } catch {
    return 'failed';
  }
}

/**
 * 'stale': too old, or its process (on this host) is gone. 'live': its process runs here.
 * 'unverified': its owner cannot be asked — another host's lock, or not axme's format.
 */
function judge(lock: LockFile, now: number, limits: { staleMs: number; unverifiedMs: number }): 'stale' | 'live' | 'unverified' {
  const age = now - lock.mtimeMs;
  if (age > limits.staleMs) return 'stale';
  const m = /^(\d+) (\S+) /.exec(lock.content);
  const pid = m ? Number(m[1]) : 0;
  if (!m || m[2] !== hostname() || !(pid > 0 && Number.isSafeInteger(pid))) return age > limits.unverifiedMs ? 'stale' : 'unverified';
  return processAlive(pid) ? 'live' : 'stale';
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
