/**
 * Waiting for the tip's search index file a detached worker writes (src/knowledge/views/search/
 * index-worker.ts): the worker is a process of its own, whose end is not the test's to await.
 */
import { readFileSync } from 'node:fs';
import { readMergedState } from '../../src/knowledge/core/merged-state.ts';
import { aheadLockPath, tipIndexMissing } from '../../src/knowledge/views/search/index-worker.ts';
import { hasIndexFile, indexKey, searchDir } from '../../src/knowledge/views/search/persist.ts';
import { lockFileHeld } from '../../src/session/claim-lock.ts';
import { processAlive } from '../../src/store/processes.ts';
import { withCore } from '../core.ts';
import { until } from '../until.ts';

/** Whether the store at `dir` has no index file at its tip and at least `minItems` items (the worker's own test). */
export const tipIndexMissingAt = (dir: string, minItems?: number) => withCore(dir, (kb) => tipIndexMissing(kb, minItems));

/** Where the index file of the tip of the store at `dir` goes: its folder and key. */
export const tipFile = (dir: string) =>
  withCore(dir, async (kb) => {
    const state = await readMergedState(kb);
    return { folder: searchDir(kb.repo.axmeDir), key: indexKey(state) };
  });

/** Until the tip of the store at `dir` has its index file (a worker that never writes it fails at the hang bound). */
export async function indexWritten(dir: string): Promise<void> {
  const { folder, key } = await tipFile(dir);
  await until('the worker writes the index file of the tip', () => hasIndexFile(folder, key));
  // (the file is the built CLI's, stamped with its code: a process running the sources reads none, so it is not read here)
}

/**
 * Until no worker a command-line write started holds the store's lock, and each worker seen
 * named in it has ended: a worker that goes again for a newer tip lets the lock go for a moment
 * first (index-worker.ts indexAheadAgain), so a free lock alone is not its end. Seen so on two
 * looks in a row (a holder the first look missed). A bound only against a worker that never ends.
 */
export async function aheadDone(dir: string): Promise<void> {
  const lock = await withCore(dir, async (kb) => aheadLockPath(kb));
  const holders = new Set<number>();
  let free = 0;
  await until('the index workers let their lock go and end', () => {
    const holder = holderOf(lock);
    // (this process names itself while a write it makes starts the worker, which it names next)
    if (holder && holder !== process.pid) holders.add(holder);
    free = !lockFileHeld(lock) && ![...holders].some((pid) => processAlive(pid)) ? free + 1 : 0;
    return free >= 2;
  });
}

/** The pid a lock file names (`<pid> <time>`), or null when it is gone or names none. */
function holderOf(lock: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
