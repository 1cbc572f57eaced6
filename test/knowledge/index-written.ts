/**
 * Waiting for the tip's search index file a detached worker writes (src/knowledge/views/search/
 * index-worker.ts): the worker is a process of its own, whose end is not the test's to await.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { readMergedState } from '../../src/knowledge/core/merged-state.ts';
import { aheadLockPath, tipIndexMissing } from '../../src/knowledge/views/search/index-worker.ts';
import { hasIndexFile, indexKey, searchDir } from '../../src/knowledge/views/search/persist.ts';
import { lockFileHeld } from '../../src/session/claim-lock.ts';
import { withCore } from '../core.ts';

/** Whether the store at `dir` has no index file at its tip and at least `minItems` items (the worker's own test). */
export const tipIndexMissingAt = (dir: string, minItems?: number) => withCore(dir, (kb) => tipIndexMissing(kb, minItems));

/** Where the index file of the tip of the store at `dir` goes: its folder and key. */
export const tipFile = (dir: string) =>
  withCore(dir, async (kb) => {
    const state = await readMergedState(kb);
    return { folder: searchDir(kb.repo.axmeDir), key: indexKey(state) };
  });

/** Until the tip of the store at `dir` has its index file; a bound only against a worker that never writes it. */
export async function indexWritten(dir: string): Promise<void> {
  const { folder, key } = await tipFile(dir);
  for (let i = 0; !hasIndexFile(folder, key); i++) {
    if (i > 1200) assert.fail('no index file for the tip after 2 minutes: the worker did not write it');
    await sleep(100);
  }
  // (the file is the built CLI's, stamped with its code: a process running the sources reads none, so it is not read here)
}

/**
 * Until no worker a command-line write started holds the store's lock: seen free on two looks in
 * a row, since a worker that goes again for a newer tip lets it go for a moment first. A bound
 * only against a worker that never ends.
 */
export async function aheadDone(dir: string): Promise<void> {
  const lock = await withCore(dir, async (kb) => aheadLockPath(kb));
  for (let i = 0, free = 0; free < 2; i++) {
    if (i > 1200) assert.fail('the index worker still held its lock after 2 minutes');
    free = lockFileHeld(lock) ? 0 : free + 1;
    await sleep(100);
  }
}

/** Until each process of `pids` has ended (a detached worker writing into a store about to be removed); a bound only against one that never ends. */
export async function processesEnded(pids: readonly number[]): Promise<void> {
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  };
  for (let i = 0; pids.some(alive); i++) {
    if (i > 1200) assert.fail(`the workers ${pids.join(', ')} still ran after 2 minutes`);
    await sleep(100);
  }
}
