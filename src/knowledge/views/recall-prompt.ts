import type { KindName } from '../../model/kind.ts';
import { KIND_TABLES } from '../../model/kinds.ts';
import { isLive } from '../../model/liveness.ts';
import { asText } from '../../model/text-problem.ts';
import { itemKey } from '../../session/given.ts';
import { agentRef, READ_WHOLE, type RecallEntry, recallText } from './recall-lines.ts';
import type { SearchHit } from './search/hits.ts';
import { idfOf } from './search/rank.ts';

// Light (no store, no zod): the prompt hook's query at the tip (search/tip-search.ts) recalls through it too.

/** The kinds a prompt recalls: those with live statuses (in force or still to do). */
const RECALL_KINDS: ReadonlySet<KindName> = new Set(KIND_TABLES.liveKinds);

/**
 * The relevance floor, from the distribution of search scores on the retrieval corpus (161 documents,
 * 138 queries written as users ask; `bench/recall.bench.ts` prints it): the relevant item of a
 * query scores min 6.2, p10 9.8, p50 19.3; the best hit of a prompt about nothing in the store
 * (a haiku, "fix the tests", "why is the build slow") mostly under 9 — common words and near
 * spellings. 9 keeps most unrelated prompts out and ~93 % of the queries' items in: a missed
 * recall costs less than noise on every prompt. An item under RECALL_SHARE of the best score is
 * noise from the same few words.
 *
 * Scores are IDF sums, and an IDF grows with the store: the word a single item holds is worth
 * 4.7 among the corpus's 161 documents, 1.0 among three. So a smaller store's floor is 9 scaled by
 * that IDF (`floorFor`) — an item that is exactly on topic in a store of three items scores 6.5,
 * far above the rest — and an item under it then also needs RECALL_WORTH of what the prompt's
 * words are worth in the store (search/query-worth.ts): a prompt whose words the store lacks
 * ("fix the typo in the README") recalls nothing however small the store.
 */
export const RECALL_FLOOR = 9;
export const RECALL_SHARE = 0.4;
/** The documents of the corpus RECALL_FLOOR was measured on: at or above it, the floor is RECALL_FLOOR. */
export const RECALL_FLOOR_DOCS = 160;
/**
 * The share of the prompt's worth an item scores under the full floor. A prompt says more than the
 * item it is about (its own words, which the store may lack: "the discount", "prices"), so an item
 * on topic scores 0.37–0.87 of its worth in stores of 3 to 80 items, and an unrelated prompt's best
 * hit over the floor 0.25 (bench/recall-small.bench.ts, docs/benchmarks.md): at 0.5 six of 75 such
 * prompts missed their item by a hair.
 */
export const RECALL_WORTH = 0.4;
/** Hits asked of search per prompt. */
export const RECALL_DEPTH = 12;
/** A prompt is searched by its first this many characters (search takes 1000). */
const QUERY_MAX = 1_000;

/** The query a prompt searches with: its words, cut at a word end under the search's limit. */
export function promptQuery(prompt: string): string {
  // a prompt is text as it comes (colour codes of pasted terminal output): what a query refuses is a space
  const flat = asText(prompt).replace(/\s+/g, ' ').trim();
  if (flat.length <= QUERY_MAX) return flat;
  const cut = flat.slice(0, QUERY_MAX);
  const at = cut.lastIndexOf(' ');
  return at > QUERY_MAX / 2 ? cut.slice(0, at) : cut;
}

/** A prompt's search hits, best first; what its words are worth in the index searched (search/query-worth.ts) and how many documents that index holds. */
export interface FoundItems {
  hits: readonly SearchHit[];
  worth: number;
  docs: number;
}

/** The score floor in an index of `docs` documents: RECALL_FLOOR scaled by the IDF of a word one document holds, at most RECALL_FLOOR. */
export function floorFor(docs: number): number {
  return Math.min(RECALL_FLOOR, (RECALL_FLOOR * idfOf(docs, 1)) / idfOf(RECALL_FLOOR_DOCS, 1));
}

/** The hits of a prompt that clear the floor: current items of the recalled kinds, best first. */
export function relevantHits({ hits, worth, docs }: FoundItems): SearchHit[] {
  const current = hits.filter((h) => RECALL_KINDS.has(h.kind) && isLive(h.kind, h));
  const best = current[0]?.score ?? 0;
  const floor = floorFor(docs);
  const clears = (score: number) => score >= RECALL_FLOOR || (score >= floor && score >= RECALL_WORTH * worth);
  return current.filter((h) => clears(h.score) && h.score >= best * RECALL_SHARE);
}

/** How a recall names a hit: its id, a memory's slug, a workspace item's slug (recall-lines.ts agentRef). */
export const refOf = (h: Pick<SearchHit, 'id' | 'slug' | 'store'>): string => agentRef(h, h.store !== undefined);

/**
 * What a prompt recalls from its search hits, as the text to inject (empty when nothing clears
 * the floor or all of it was given already, `given` holding session/given.ts itemKey keys) and the
 * entries it holds.
 */
export function recallOfHits(found: FoundItems, given: ReadonlySet<string>): { text: string; shown: RecallEntry[] } {
  const entries: RecallEntry[] = relevantHits(found)
    .filter((h) => !given.has(itemKey(h.kind, h.slug)))
    .map((h) => ({
      kind: h.kind,
      ref: refOf(h),
      slug: h.slug,
      title: h.title,
      line: h.snippet,
      stale: h.stale ? (h.stale_reason ?? 'its code changed since it was learned') : null,
    }));
  return recallText(`axme: project knowledge about this prompt (read one whole with ${READ_WHOLE}):`, entries);
}
