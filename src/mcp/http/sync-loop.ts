import type { KnowledgeBase } from '../../knowledge/core/kb.ts';
import { isAxmeError } from '../../model/errors.ts';

/**
 * The team server keeps its repository in step with the team's remote: `axme sync` every
 * `intervalS` seconds and shortly after writes, one run at a time, each bounded in time. A failed
 * run is logged on stderr and tried again (backing off up to ten intervals); it never stops the
 * server. A repository with no remote turns the loop off (said once).
 */
export interface SyncLoop {
  /** a write was made: sync soon (runs are coalesced) */
  kick(): void;
  /** stops the timer; with `flush`, one last run when writes are waiting (bounded) */
  stop(flush: boolean): Promise<void>;
}

/**
 * What the loop waits with: the process's timers, or a test's, which fires each when the test
 * says (`fire` resolves once the run it starts, and its rescheduling, are done).
 */
export interface SyncTimers {
  set(fire: () => Promise<void>, ms: number): unknown;
  clear(timer: unknown): void;
}

/** The process's timers, which never keep it alive. */
const PROCESS_TIMERS: SyncTimers = {
  set: (fire, ms) => setTimeout(() => void fire(), ms).unref(),
  clear: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/** How long after a write the sync runs (writes in a burst share one run). */
const AFTER_WRITE_MS = 1_000;
/** A run that takes longer is given up on (it keeps no lock: the next run starts over). */
const RUN_TIMEOUT_MS = 120_000;

/** The sync loop of the team server (see SyncLoop); `timers` are the process's unless a test gives its own. */
export function syncLoop(opts: {
  kb: () => Promise<KnowledgeBase>;
  env: NodeJS.ProcessEnv;
  intervalS: number;
  log: (m: string) => void;
  timers?: SyncTimers;
}): SyncLoop {
  if (opts.intervalS <= 0) return { kick() {}, stop: async () => {} };
  const interval = opts.intervalS * 1000;
  const timers = opts.timers ?? PROCESS_TIMERS;
  let timer: unknown = null;
  let running: Promise<void> | null = null;
  let pending = false;
  let failures = 0;
  let off = false;
  const schedule = (ms: number) => {
    if (off) return;
    if (timer) timers.clear(timer);
    timer = timers.set(run, ms);
  };
  const run = async (): Promise<void> => {
    if (running) {
      pending = true;
      return;
    }
    pending = false;
    running = (async () => {
      try {
        const { syncStore } = await import('../../knowledge/sync/sync-store.ts');
        const kb = await opts.kb();
        let t: unknown;
        const r = await Promise.race([
          syncStore(kb, { env: opts.env }),
          new Promise<never>((_, reject) => (t = timers.set(async () => reject(new Error(`gave up after ${RUN_TIMEOUT_MS / 1000} s`)), RUN_TIMEOUT_MS))),
        ]).finally(() => timers.clear(t));
        failures = 0;
        if (r.integrated !== 'up-to-date' || r.pushed.memory) opts.log(`sync with ${r.remote}: ${r.integrated}${r.pushed.memory ? ', pushed' : ''}`);
      } catch (err) {
        if (isAxmeError(err, 'INVALID_INPUT') && Array.isArray(err.data?.remotes) && err.data.remotes.length === 0) {
          opts.log('sync: the repository has no git remote; the timer sync is off');
          off = true;
          return;
        }
        failures++;
        opts.log(`sync failed (${failures} in a row; tried again later): ${(err as Error).message}`);
      }
    })();
    await running;
    running = null;
    schedule(pending ? AFTER_WRITE_MS : interval * Math.min(2 ** failures, 10));
  };
  schedule(0);
  return {
    kick() {
      pending = true;
      if (!running) schedule(AFTER_WRITE_MS);
    },
    async stop(flush) {
      const wanted = pending && flush && !off;
      off = true;
      if (timer) timers.clear(timer);
      await running;
      if (wanted) {
        off = false;
        await run();
        off = true;
        if (timer) timers.clear(timer);
      }
    },
  };
}
