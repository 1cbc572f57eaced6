import { mkdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import type { AxmeSelf } from '../../../model/axme-self.ts';
import { claimLockFile, heldByFor, releaseLockFileOf } from '../../../session/claim-lock.ts';
import { writeFileAtomicSync } from '../../../store/atomic-file.ts';
import { readRefSync } from '../../../store/locate.ts';
import { startDetachedAxme } from '../../../store/processes.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { type MergedState, readMergedState } from '../../core/merged-state.ts';
import { hasReadableIndexFile, indexKey, searchDir } from './persist.ts';
import { searchLists } from './sources.ts';

/**
 * Items from which a session start has the tip's search index made in the background when the
 * tip has none (a fresh clone, a pull, a write by a process that never searched). Below it, the
 * first prompt's recall builds the index itself well within its deadline; above it, building it
 * (≈3 s of CPU at 10,000 items, more on a loaded machine) can outlast the prompt's deadline, and
 * a prompt hook cut short writes no index: every prompt would then start again and recall nothing.
 */
export const BACKGROUND_INDEX_ITEMS = 2_000;

/** How a worker is started: the axme to run (the hook process's own), where, with what environment. */
export interface IndexWorkerLaunch {
  self: AxmeSelf;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Whether the store's tip (merged with its workspace) has no index file this version reads (after an upgrade, the old one is none) and at least `minItems` searchable items. */
export async function tipIndexMissing(kb: KnowledgeBase, minItems = BACKGROUND_INDEX_ITEMS): Promise<boolean> {
  return indexMissing(kb, await readMergedState(kb), minItems);
}

function indexMissing(kb: KnowledgeBase, state: MergedState, minItems = BACKGROUND_INDEX_ITEMS): boolean {
  const items = searchLists(state).reduce((n, list) => n + list.length, 0);
  return items >= minItems && !hasReadableIndexFile(searchDir(kb.repo.axmeDir), indexKey(state));
}

/** What the worker searches for: its answer is not wanted, only the index and stale marks the search leaves. */
export const WORKER_QUERY = 'index';

/**
 * Starts a detached `axme search` in the store's folder, at a lower priority (lowerPriority): a
 * search at a tip without an index file builds the index and writes it (search.ts
 * loadSearchIndex), which every later query at the tip reads. Its answer is not wanted. Its pid,
 * null when it could not start.
 */
export function startWorker(l: IndexWorkerLaunch): number | null {
  const pid = startDetachedAxme(l.self, ['search', '--json', WORKER_QUERY], { cwd: l.cwd, env: l.env, log: null });
  if (pid !== null) lowerPriority(pid);
  return pid;
}

/**
 * The niceness a worker runs at: below the work a person waits for (the writes of a burst, the
 * next prompt), which it would otherwise take CPU from on a small machine.
 */
export const WORKER_NICENESS = 10;

/**
 * Lowers the priority of the worker `pid`, just started: to WORKER_NICENESS, or this process's
 * own when that is lower still (a worker never runs above its starter). Done here rather than in
 * the worker: on Linux a niceness is each thread's own, and set by the worker on itself it would
 * hold for its main thread alone, not for the V8 and libuv threads its node has started by then;
 * set as the worker's node begins, every thread and git process it starts inherits it. Never
 * fails the worker: where it is not permitted, the worker runs as it is.
 */
function lowerPriority(pid: number): void {
  try {
    setPriority(pid, Math.max(WORKER_NICENESS, getPriority()));
  } catch {
    // not permitted, or the worker already gone: the index is made all the same
  }
}

/** The lock file naming the worker a write started (`<pid> <time>`): one at a time per store. */
export const aheadLockPath = (kb: KnowledgeBase): string => join(searchDir(kb.repo.axmeDir), 'ahead.lock');

/** A worker's lock older than this is taken over whoever holds it (a pid reused by another process). */
const AHEAD_LOCK_MAX_MS = 5 * 60_000;

/** Set in the environment of the worker a write starts: once its search has made the index, it goes on to newer tips (indexAheadAgain). */
export const INDEX_AHEAD_ENV = 'AXME_INDEX_AHEAD';

/**
 * Rounds a worker makes after its first: each lays every write since the last over the index (one
 * round catches up with any number of writes), so more are needed only while writes keep coming.
 */
const AHEAD_ROUNDS = 4;

/**
 * The tip's index made ahead of the next query by a detached worker when the store is large and
 * its tip has none (`tipIndexMissing`, from `minItems`): after a write by a process that ends
 * without searching (a command line's `axme decision add`), so that the next `axme search` reads
 * it at the tip (≈0.1 s at 10,000 items) instead of laying the write over in a fresh process and
 * writing the file (≈0.8 s); at a session start, so that its prompts find it on disk rather than
 * building it within their own deadline. One worker at a time (two session starts, a session start
 * and a write, each start none while another works): the caller claims the lock (an exclusive
 * file: of callers finishing together one wins), starts the worker and names it in the lock, which
 * is held while the worker works, and at most AHEAD_LOCK_MAX_MS; a write while it works starts
 * none — the worker, its index made, goes again for the tip those writes left (indexAheadAgain).
 * The caller never waits for the worker. True when a worker was
 * started; never throws (the index is a speed-up).
 */
export async function startIndexAhead(kb: KnowledgeBase, l: IndexWorkerLaunch, minItems = BACKGROUND_INDEX_ITEMS): Promise<boolean> {
  try {
    if (!(await tipIndexMissing(kb, minItems))) return false;
    const lock = aheadLockPath(kb);
    mkdirSync(dirname(lock), { recursive: true });
    if (!claimLockFile(lock, new Date(), AHEAD_LOCK_MAX_MS)) return false;
    const pid = startWorker({ ...l, env: { ...l.env, [INDEX_AHEAD_ENV]: '1' } });
    // the lock names the worker from now on (this process ends at once): held while the worker lives
    writeFileAtomicSync(lock, `${pid ?? 0} ${new Date().toISOString()}\n`);
    return pid !== null;
  } catch {
    return false;
  }
}

/**
 * In the worker a write started (INDEX_AHEAD_ENV in `env`), once its search has made the index
 * of the tip it saw: the index and stale marks of each newer tip the writes left meanwhile (a
 * burst of writes, of which only the first started a worker), by the same search, the writes laid
 * over the previous index in this process; at most AHEAD_ROUNDS more, none begun once its lock is
 * AHEAD_LOCK_MAX_MS old (others may take it over then; a lock not naming it: timed from the call); then the lock released. Released first and the tip looked at again after: a
 * write that found the lock held before the release moved the tip before it, and is taken up (the
 * lock claimed again) — a write after the release claims the lock itself. How many rounds it
 * made; nothing outside a worker.
 */
export async function indexAheadAgain(kb: KnowledgeBase, env: NodeJS.ProcessEnv): Promise<number> {
  if (!env[INDEX_AHEAD_ENV]) return 0;
  const lock = aheadLockPath(kb);
  // loaded here: a write, which imports this module to start the worker, never loads the search itself
  const { searchKnowledge } = await import('../search.ts');
  let rounds = 0;
  // a lock that does not name this process yet (the write that started it names it just after) or any more: timed from here
  const entered = Date.now();
  try {
    // bounded as the rounds are: a tip that keeps moving while others index it is let go too
    for (let look = 0; look <= 2 * AHEAD_ROUNDS; look++) {
      const state = await readMergedState(kb);
      if (!indexMissing(kb, state)) {
        releaseLockFileOf(lock, process.pid);
        const ref = readRefSync(kb.repo.commonDir, kb.ref);
        if (ref === 'unknown' || ref === state.commit || !claimLockFile(lock, new Date(), AHEAD_LOCK_MAX_MS)) return rounds;
      } else if (rounds === AHEAD_ROUNDS || (heldByFor(lock, process.pid, Date.now()) ?? Date.now() - entered) >= AHEAD_LOCK_MAX_MS) return rounds;
      else {
        // what the worker's own search did: the index, and the stale marks a query at the tip of a store with anchored items reads
        await searchKnowledge(kb, { query: WORKER_QUERY });
        // their files written now (left for after the answer otherwise), before the tip is looked at again
        kb.cache.settle();
        rounds++;
      }
    }
    return rounds;
  } finally {
    releaseLockFileOf(lock, process.pid);
  }
}
