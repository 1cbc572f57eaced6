import { removeQuietly } from './atomic-file.ts';
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface AdvisoryLockOptions {
  /** give up waiting after this long and go on without the lock */
  waitMs?: number;
  /** a lock older than this is taken over even if its owner seems alive */
  staleMs?: number;
}

/**
 * Runs `fn` holding `<dir>/<name>.lock` when it can be had. The lock only keeps writers from
 * retrying over each other; correctness comes from the compare-and-swap on the ref, so after
 * `waitMs` the caller proceeds without it. A lock whose owner process is gone, or that is older
 * than `staleMs`, is broken: a crashed writer never blocks the next one for long.
 */
export async function withAdvisoryLock<T>(dir: string, name: string, fn: () => Promise<T>, opts: AdvisoryLockOptions = {}): Promise<T> {
  const waitMs = opts.waitMs ?? 5_000;
  const staleMs = opts.staleMs ?? 30_000;
  const path = join(dir, `${name}.lock`);
  const token = `${process.pid} ${hostname()} ${Date.now()} ${randomBytes(4).toString('hex')}`;
  // small local files: synchronous calls (microseconds); only the wait between tries is async
  mkdirSync(dir, { recursive: true });
  const deadline = Date.now() + waitMs;
  let held = false;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, token);
      } finally {
        closeSync(fd);
      }
      held = true;
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') break; // cannot lock here: go on unlocked
    }
    if (isStale(path, staleMs)) {
      removeQuietly(path);
      continue;
    }
    if (Date.now() >= deadline) break;
    await sleep(Math.min(2 + attempt * 2, 25) * (0.5 + Math.random()));
  }
  try {
    return await fn();
  } finally {
    if (held && readQuietly(path) === token) removeQuietly(path);
  }
}

function readQuietly(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function isStale(path: string, staleMs: number): boolean {
  const content = readQuietly(path);
  let st;
  try {
    st = statSync(path);
  } catch {
    st = null;
  }
  if (content === null || st === null) return false; // gone already: just retry
  if (Date.now() - st.mtimeMs > staleMs) return true;
  const [pid, host] = content.split(' ');
  if (!pid || host !== hostname()) return content === '' && Date.now() - st.mtimeMs > 1_000; // written half, long ago
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
