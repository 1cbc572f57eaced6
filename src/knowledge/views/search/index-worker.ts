import type { AxmeSelf } from '../../../model/axme-self.ts';
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
  return startDetachedAxme(l.self, ['search', '--json', 'index'], { cwd: l.cwd, env: l.env, log: null });
}
