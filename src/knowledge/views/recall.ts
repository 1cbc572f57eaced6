import { isLive } from '../../model/liveness.ts';
import type { KindName } from '../../model/kind.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readMergedState } from '../core/merged-state.ts';
import type { RepoLocation } from '../core/location.ts';
import { anchorIndexKey, writeAnchorIndex, type AnchoredEntry } from './anchor-index.ts';
import { recallText, type RecallEntry } from './recall-lines.ts';
import { searchKnowledge, type SearchHit } from './search.ts';
import { staleMarks } from './stale-marks.ts';

/**
 * Recall (issue 32): the current items a prompt is about, and the anchored items an edit touches.
 * Search is asked in one place only (`findItems`), so a faster index drops in there.
 */

/** The kinds a prompt recalls: what is in force or still to do. */
const RECALL_KINDS: ReadonlySet<KindName> = new Set(['decision', 'memory', 'backlog', 'question']);

/**
 * The relevance floor, from the distribution of search scores on the retrieval corpus (250 ADRs,
 * 138 queries written as users ask; `bench/recall.bench.ts` prints it): the relevant item of a
 * query scores min 5.6, p10 8.8, p50 17.3; the best hit of a prompt about nothing in the store
 * (a haiku, "fix the tests", "why is the build slow") scores up to 8.8 — common words and near
 * spellings. 9 keeps every unrelated prompt out and ~90 % of the queries' items in: a missed
 * recall costs less than noise on every prompt. An item under RECALL_SHARE of the best score is
 * noise from the same few words.
 */
export const RECALL_FLOOR = 9;
export const RECALL_SHARE = 0.4;
/** Hits asked of search per prompt. */
const RECALL_DEPTH = 12;
/** A prompt is searched by its first this many characters (search takes 1000). */
const QUERY_MAX = 1_000;

/** The one call site of search for recall. */
export async function findItems(kb: KnowledgeBase, query: string, k: number): Promise<SearchHit[]> {
  return (await searchKnowledge(kb, { query, k })).hits;
}

/** The query a prompt searches with: its words, cut at a word end under the search's limit. */
export function promptQuery(prompt: string): string {
  const flat = prompt.replace(/\s+/g, ' ').trim();
  if (flat.length <= QUERY_MAX) return flat;
  const cut = flat.slice(0, QUERY_MAX);
  const at = cut.lastIndexOf(' ');
  return at > QUERY_MAX / 2 ? cut.slice(0, at) : cut;
}

/** The hits of a prompt that clear the floor: current items of the recalled kinds, best first. */
export function relevantHits(hits: readonly SearchHit[]): SearchHit[] {
  const current = hits.filter((h) => RECALL_KINDS.has(h.kind) && isLive(h.kind, h));
  const best = current[0]?.score ?? 0;
  return current.filter((h) => h.score >= RECALL_FLOOR && h.score >= best * RECALL_SHARE);
}

/** The key of an item in a session's record (session/given.ts): its kind and its id, a memory's slug. */
export const refOf = (h: { id: string | null; slug: string }): string => h.id ?? h.slug;

/**
 * What a prompt recalls, as the text to inject (empty when nothing clears the floor or all of it
 * was given already, `given` holding `<kind> <ref>` keys) and the entries it holds.
 */
export async function recallForPrompt(kb: KnowledgeBase, prompt: string, given: ReadonlySet<string>): Promise<{ text: string; shown: RecallEntry[] }> {
  const query = promptQuery(prompt);
  if (!query) return { text: '', shown: [] };
  const hits = relevantHits(await findItems(kb, query, RECALL_DEPTH));
  const entries: RecallEntry[] = hits
    .filter((h) => !given.has(`${h.kind} ${refOf(h)}`))
    .map((h) => ({ kind: h.kind, ref: refOf(h), title: h.title, line: h.snippet, stale: h.stale ? (h.stale_reason ?? 'its code changed since it was learned') : null }));
  return recallText('axme: project knowledge about this prompt (read one whole with axme_get_decision / axme_get_memory <id>):', entries);
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
  const add = (kind: 'decision' | 'memory' | 'backlog', item: { slug: string; title: string; anchors: string[]; status: string; store?: string }, ref: string, line: string) => {
    if (!item.anchors.length || !isLive(kind, item) || item.store) return;
    out.push({ kind, ref, title: item.title, line, stale: marks.of(kind, item.slug)?.reason ?? null, anchors: item.anchors });
  };
  for (const d of state.items.decision) add('decision', d, d.id, d.decision);
  for (const m of state.items.memory) add('memory', m, m.slug, m.description);
  for (const b of state.items.backlog) add('backlog', b, b.id, b.description);
  if (key) writeAnchorIndex(loc.commonDir, key, out);
  return out;
}
