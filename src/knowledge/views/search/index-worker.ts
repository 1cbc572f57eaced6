import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AxmeSelf } from '../../../model/axme-self.ts';
import { claimLockFile } from '../../../session/claim-lock.ts';
import { writeFileAtomicSync } from '../../../store/atomic-file.ts';
import { startDetachedAxme } from '../../../store/processes.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { readMergedState } from '../../core/merged-state.ts';
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
  const state = await readMergedState(kb);
  const items = searchLists(state).reduce((n, list) => n + list.length, 0);
  return items >= minItems && !hasReadableIndexFile(searchDir(kb.repo.axmeDir), indexKey(state.snapshot.tree, state.workspace?.commit));
}

/**
 * Starts a detached `axme search` in the store's folder: a search at a tip without an index file
 * builds the index and writes it (search.ts loadSearchIndex), which every later query at the tip
 * reads. Its answer is not wanted; it never fails its caller (false when it could not start).
 */
export function startIndexWorker(l: IndexWorkerLaunch): boolean {
  return startWorker(l) !== null;
}

const startWorker = (l: IndexWorkerLaunch) => startDetachedAxme(l.self, ['search', '--json', 'index'], { cwd: l.cwd, env: l.env, log: null });

/** The lock file naming the worker a write started (`<pid> <time>`): one at a time per store. */
export const aheadLockPath = (kb: KnowledgeBase): string => join(searchDir(kb.repo.axmeDir), 'ahead.lock');

/** A worker's lock older than this is taken over whoever holds it (a pid reused by another process). */
const AHEAD_LOCK_MAX_MS = 5 * 60_000;

/**
 * After a write by a process that ends without searching (a command line's `axme decision add`):
 * the new tip's index made by a detached worker when the store is large (`tipIndexMissing`), so
 * that the next `axme search` reads it at the tip (≈0.1 s at 10,000 items) instead of laying the
 * write over in a fresh process and writing the file (≈0.8 s). One worker at a time: the write
 * claims the lock (an exclusive file: of writers finishing together one wins), starts the worker
 * and names it in the lock, which is held while the worker lives, and at most AHEAD_LOCK_MAX_MS;
 * a write while it runs starts none — after a burst of writes the last tip's index is made by the
 * first search, from the worker's. True when a worker was started; never throws (the index is a
 * speed-up).
 */
export async function startIndexAfterWrite(kb: KnowledgeBase, l: IndexWorkerLaunch): Promise<boolean> {
  try {
    if (!(await tipIndexMissing(kb))) return false;
    const lock = aheadLockPath(kb);
    mkdirSync(dirname(lock), { recursive: true });
    if (!claimLockFile(lock, new Date(), AHEAD_LOCK_MAX_MS)) return false;
    const pid = startWorker(l);
    // the lock names the worker from now on (this process ends at once): held while the worker lives
    writeFileAtomicSync(lock, `${pid ?? 0} ${new Date().toISOString()}\n`);
    return pid !== null;
  } catch {
    return false;
  }
}
