import { isLive } from '../../model/liveness.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import type { RepoLocation } from '../core/location.ts';
import { readMergedState } from '../core/merged-state.ts';
import { type AnchoredEntry, anchorIndexKey, writeAnchorIndex } from './anchor-index.ts';
import type { RecallEntry } from './recall-lines.ts';
import { type FoundItems, promptQuery, RECALL_DEPTH, recallOfHits } from './recall-prompt.ts';
import { queryOf } from './search/hits.ts';
import { queryWorth } from './search/query-worth.ts';
import { loadSearchIndex, searchKnowledge } from './search.ts';

export { type FoundItems, promptQuery, RECALL_FLOOR, RECALL_SHARE, refOf, relevantHits } from './recall-prompt.ts';

import { staleMarks } from './stale-marks.ts';

/**
 * Recall (issue 32): the current items a prompt is about, and the anchored items an edit touches.
 * Search is asked in one place only (`findItems`), so a faster index drops in there.
 */

/** The one call site of search for recall: the hits, and what the query's words are worth in the index searched (search/query-worth.ts). */
export async function findItems(kb: KnowledgeBase, query: string, k: number): Promise<FoundItems> {
  const { hits } = await searchKnowledge(kb, { query, k });
  // the index the search just loaded, from memory
  const { index } = await loadSearchIndex(kb);
  return { hits, worth: queryWorth(index, queryOf(index, query).groups), docs: index.docs.length };
}

/**
 * What a prompt recalls, as the text to inject (empty when nothing clears the floor or all of it
 * was given already, `given` holding session/given.ts itemKey keys) and the entries it holds.
 */
export async function recallForPrompt(kb: KnowledgeBase, prompt: string, given: ReadonlySet<string>): Promise<{ text: string; shown: RecallEntry[] }> {
  const query = promptQuery(prompt);
  if (!query) return { text: '', shown: [] };
  return recallOfHits(await findItems(kb, query, RECALL_DEPTH), given);
}

/**
 * Every current anchored decision, memory and backlog item of the store at `loc`, as the
 * pre-edit recall shows it, kept in the anchor index under the key read before the store was
 * (a tip that moves meanwhile only costs a rebuild).
 */
export async function anchoredEntries(kb: KnowledgeBase, loc: RepoLocation): Promise<AnchoredEntry[]> {
  const key = anchorIndexKey(loc);
  const state = await readMergedState(kb);
  const marks = await staleMarks(kb);
  const out: AnchoredEntry[] = [];
  const add = (
    kind: 'decision' | 'memory' | 'backlog',
    item: { slug: string; title: string; anchors: string[]; status: string; store?: string },
    ref: string,
    line: string,
  ) => {
    if (!item.anchors.length || !isLive(kind, item) || item.store) return;
    out.push({ kind, ref, slug: item.slug, title: item.title, line, stale: marks.of(kind, item.slug)?.reason ?? null, anchors: item.anchors });
  };
  for (const d of state.items.decision) add('decision', d, d.id, d.decision);
  for (const m of state.items.memory) add('memory', m, m.slug, m.description);
  for (const b of state.items.backlog) add('backlog', b, b.id, b.description);
  if (key) writeAnchorIndex(loc.commonDir, key, out);
  return out;
}
