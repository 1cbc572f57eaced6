import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { claimLockFile, releaseLockFileOf } from '../../../session/claim-lock.ts';
import { writeFileAtomicSync } from '../../../store/atomic-file.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import { INDEX_AHEAD_ENV, type IndexWorkerLaunch, startWorker, WORKER_QUERY } from './index-worker.ts';
import { lastFillRunning, VECTORS_AHEAD_ENV } from './vector-fill.ts';

/** The lock naming that worker: one at a time per store. */
const vectorsLockPath = (kb: KnowledgeBase) => join(kb.repo.axmeDir, 'search', 'vectors.lock');

/** A worker's lock older than this is taken over (an endpoint slow enough to take longer is given up on by then). */
const VECTORS_LOCK_MAX_MS = 30 * 60_000;

/**
 * After a command-line search that answered by words while its vectors were being made (an
 * embeddings endpoint slower than the query's bound): a detached, lower-priority `axme search`
 * (index-worker.ts startWorker) that goes on from the batches saved (vectorsAheadAgain), since this
 * process stops its own run as it closes. One at a time (`search/vectors.lock`); none from a
 * worker itself. True when one was started; never throws.
 */
export function startVectorsAhead(kb: KnowledgeBase, l: IndexWorkerLaunch): boolean {
  try {
    if (l.env[VECTORS_AHEAD_ENV] || l.env[INDEX_AHEAD_ENV] || !lastFillRunning(kb)) return false;
    const lock = vectorsLockPath(kb);
    mkdirSync(dirname(lock), { recursive: true });
    if (!claimLockFile(lock, new Date(), VECTORS_LOCK_MAX_MS)) return false;
    const pid = startWorker({ ...l, env: { ...l.env, [VECTORS_AHEAD_ENV]: '1' } });
    writeFileAtomicSync(lock, `${pid ?? 0} ${new Date().toISOString()}\n`);
    return pid !== null;
  } catch {
    return false;
  }
}

/**
 * In a worker (VECTORS_AHEAD_ENV, or the index worker a write started: INDEX_AHEAD_ENV), once
 * its search answered: the same search again, waiting for every item's vector without the
 * query's bound (until none lacks, or the endpoint gives up: its own timeouts and retries bound
 * that), when its search left a run making them; then its lock let go. True in a worker (a
 * worker starts no other); nothing outside one.
 */
export async function vectorsAheadAgain(kb: KnowledgeBase, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (!env[VECTORS_AHEAD_ENV] && !env[INDEX_AHEAD_ENV]) return false;
  try {
    if (!lastFillRunning(kb)) return true;
    const { searchKnowledge } = await import('../search.ts');
    await searchKnowledge(kb, { query: WORKER_QUERY, waitForVectors: true });
    return true;
  } finally {
    if (env[VECTORS_AHEAD_ENV]) releaseLockFileOf(vectorsLockPath(kb), process.pid);
  }
}
