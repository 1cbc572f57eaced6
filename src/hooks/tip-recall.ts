import type { RepoLocation } from '../knowledge/core/location.ts';
import type { RecallEntry } from '../knowledge/views/recall-lines.ts';
import { promptQuery, RECALL_DEPTH, recallOfHits } from '../knowledge/views/recall-prompt.ts';
import { searchAtTip } from '../knowledge/views/search/tip-search.ts';

/**
 * What a prompt recalls, answered at the memory tip from the index file alone (no store opened:
 * search/tip-search.ts), or undefined when only the store can answer (store-work.ts promptRecall,
 * the same search and the same recall otherwise). Built into dist/tip-search.cjs, which the
 * launcher hands the hook (HookIO.loadTipSearch).
 */
export function promptRecallAtTip(
  loc: RepoLocation,
  env: NodeJS.ProcessEnv,
  opts: { prompt: string; cwd: string; given: ReadonlySet<string> },
): { text: string; shown: RecallEntry[] } | undefined {
  const query = promptQuery(opts.prompt);
  if (!query) return { text: '', shown: [] };
  // the folder the store is opened from on the full path (store-work.ts withStore)
  const r = searchAtTip({ loc, cwd: loc.worktree ?? opts.cwd, env, query, k: RECALL_DEPTH, type: 'all' });
  return r && recallOfHits(r, opts.given);
}
