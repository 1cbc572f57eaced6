/**
 * How a test waits for what another process or a timer does (a file written, a lock let go, a
 * process ended, a line logged): the condition itself, looked at again until it holds. A time is
 * never taken for the event, and the one bound is against a hang only: far above what the slowest
 * machine of the suite needs, so a loaded machine makes a test slower, never a failure.
 */
import { setTimeout as pause } from 'node:timers/promises';
import { processAlive } from '../src/store/processes.ts';

/** Far above what any wait of the suite needs on a loaded machine (2 cores at load 30): reaching it means the awaited never happens. */
export const HANG_BOUND_MS = 10 * 60_000;

/** The clock of the bound, taken before any test replaces performance.now (helpers.ts starved). */
const clock = performance.now.bind(performance);

/**
 * `check()`'s first value that is neither false, null nor undefined, looked at every 10 ms at
 * first, then less often (at most every 200 ms); fails naming `what` (and `detail()`, what was
 * seen) once `boundMs` (HANG_BOUND_MS) passed without it.
 */
export async function until<T>(
  what: string,
  check: () => T | false | null | undefined | Promise<T | false | null | undefined>,
  opts: { boundMs?: number; detail?: () => string } = {},
): Promise<T> {
  const bound = clock() + (opts.boundMs ?? HANG_BOUND_MS);
  for (let every = 10; ; every = Math.min(200, every * 2)) {
    const v = await check();
    if (v !== false && v !== null && v !== undefined) return v;
    if (clock() > bound)
      throw new Error(`${what}: not so after ${Math.round((opts.boundMs ?? HANG_BOUND_MS) / 1000)} s${opts.detail ? `; ${opts.detail()}` : ''}`);
    await pause(every);
  }
}

/** Until each process of `pids` has ended (a detached worker, a child's children: no exit event reaches this process). */
export async function processesEnded(pids: readonly number[]): Promise<void> {
  await until(`the processes ${pids.join(', ')} end`, () => !pids.some((pid) => processAlive(pid)));
}
