import type { KindName } from '../../model/kind.ts';
import { SearchInput } from '../../model/search.ts';
import { parseInput } from '../../model/validate.ts';
import { headCommitSync, readRefSync } from '../../store/locate.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { type MergedState, readMergedState } from '../core/merged-state.ts';
import { indexAfterWrite } from './search/after-write.ts';
import { buildIndex, type Doc, type Index, rememberDocs } from './search/build-index.ts';
import { FUSE_DEPTH, type MeaningUsed, withMeaning } from './search/dense.ts';
import { hitOf, queryOf, type SearchHit } from './search/hits.ts';
import { termsStartingWith } from './search/index-terms.ts';
import { flatPostings, readAsLive } from './search/live-index.ts';
import { embedderFor } from './search/meaning.ts';
import { hasIndexFile, indexKey, readIndex, readLast, readLastIndex, searchDir, writeIndex, writeLast, writeStale } from './search/persist.ts';
import { rankTop } from './search/prune.ts';
import { glossaryOf, isAnchored, searchLists, sourcesOf } from './search/sources.ts';
import { VECTORS_AHEAD_ENV } from './search/vector-fill.ts';
import { staleMarks } from './stale-marks.ts';

export { tokenize } from './search/analyze.ts';
export type { SearchHit } from './search/hits.ts';

/** Where an index came from: this process's memory, the file of its tip, made from the previous tip's (only changed items tokenized), or built whole. */
export type IndexSource = 'memory' | 'disk' | 'incremental' | 'built';

export interface LoadedIndex {
  index: Index;
  state: MergedState;
  source: IndexSource;
  /** documents taken from the previous index (incremental) */
  reused: number;
  /** when this load wrote the tip's index file (or, laid over after a write, once the file is written): how many documents' records it encoded (the unchanged ones are copied from the previous file) */
  encoded?: number;
}

/**
 * After a write, in a process that answers again (the MCP server): the new tip's index made in
 * the background once the write's answer is out — the write laid over the previous index, then
 * (left for after the work in hand) its file written and its postings read as the file has them —
 * so that the next query, which comes after the agent's turn, ranks on it as a warm one does.
 */
export function searchAhead(kb: KnowledgeBase): void {
  kb.cache.ahead('search-index', () => loadSearchIndex(kb));
}

/**
 * The search index of the store's tip (or of `at`): one per memory tree and workspace commit,
 * kept in memory, then on disk (search/persist.ts), made from the previous tip's index after a
 * write, built whole only when there is none. Every surface (CLI, MCP, the page, hooks) goes
 * through here or through the query at the tip that reads the same file (search/tip-search.ts),
 * so each ranks the same.
 */
export async function loadSearchIndex(kb: KnowledgeBase, at?: string): Promise<LoadedIndex> {
  const state = await readMergedState(kb, at);
  const key = indexKey(state);
  const memoryKey = `search:${key}`;
  // keyed by the cache the views of one knowledge base share (the MCP server binds each call's view to its session)
  const last = kb.cache.perObject<Index>('search-last');
  const inMemory = kb.cache.recall<Index>(memoryKey);
  if (inMemory) return { index: inMemory, state, source: 'memory', reused: inMemory.docs.length };
  const dir = searchDir(kb.repo.axmeDir);
  const glossary = glossaryOf(state);
  const mine = at === undefined ? last.get(kb.cache) : undefined;
  // after this process's own write: the changed items laid over its index, the file written once the answer is out
  const laid = mine && !hasIndexFile(dir, key) ? indexAfterWrite(kb, mine, state, glossary) : undefined;
  if (laid) {
    kb.cache.remember(memoryKey, laid);
    last.set(kb.cache, laid);
    const written: { encoded?: number } = {};
    kb.cache.later('search-file', () => (written.encoded = writeTip(kb, dir, key, laid, state)?.encoded));
    return {
      index: laid,
      state,
      source: 'incremental',
      reused: laid.reused ?? 0,
      // known once the file is written (after the answer, or when the knowledge base closes)
      get encoded() {
        return written.encoded;
      },
    };
  }
  const sources = sourcesOf(state);
  const made = { lists: searchLists(state) };
  const onDisk = readIndex(dir, key, sources, glossary);
  if (onDisk) {
    onDisk.madeFrom = made;
    kb.cache.remember(memoryKey, onDisk);
    rememberDocs(kb, sources, onDisk.docs);
    if (at === undefined) {
      last.set(kb.cache, onDisk);
      // the tip went back to a tree indexed before: the next process's query at the tip reads this file
      const named = readLast(dir);
      if (named?.key !== key || named.commit !== state.commit) writeLast(dir, key, state.commit);
    }
    return { index: onDisk, state, source: 'disk', reused: onDisk.docs.length };
  }
  const previous = mine ?? readLastIndex(dir, sources);
  const index = kb.cache.remember(memoryKey, buildIndex(kb, sources, glossary, previous));
  index.madeFrom = made;
  const written = writeIndex(dir, key, index, {
    anchored: sources.some(isAnchored),
    embeddings: !!state.config?.search?.embeddings,
    newest: at === undefined ? { commit: state.commit } : undefined,
  });
  if (at === undefined) last.set(kb.cache, index);
  return { index, state, source: previous ? 'incremental' : 'built', reused: index.reused ?? 0, ...(written ? { encoded: written.encoded } : {}) };
}

/**
 * Writes the tip's index laid over by `indexAfterWrite`: its postings laid out flat first (the
 * index then reads them as a delta of nothing changed, as one read from disk, and they are the
 * base of the next write's), then the file, named the newest only
 * while the memory ref still points at the state's commit (another process may have written since).
 */
function writeTip(kb: KnowledgeBase, dir: string, key: string, index: Index, state: MergedState): { encoded: number } | undefined {
  const flat = flatPostings(index);
  // the index's postings a delta of nothing changed over the flat ones (the base of the next write's), its decisions by
  // slug one map again under it (a write's are a view of the previous ones': patch-postings.ts patchLinks)
  if (index.delta && !index.delta.exact && readAsLive(index, flat)) {
    // the sorted terms a prefix is looked up in, made now rather than by the first query after the next write (which carries them over)
    termsStartingWith(index, '');
  }
  const ref = readRefSync(kb.repo.commonDir, kb.ref);
  const tip = ref === 'unknown' || ref === state.commit;
  return writeIndex(
    dir,
    key,
    { ...index, postings: flat },
    {
      anchored: index.docs.some(isAnchored),
      embeddings: !!state.config?.search?.embeddings,
      newest: tip ? { commit: state.commit } : undefined,
    },
  );
}

export interface SearchOptions {
  /** a revision of the store to search instead of its tip */
  at?: string | undefined;
  /** false: words only, even with a model or endpoint in force (`axme models eval` compares the two) */
  byMeaning?: boolean;
  /** true: waits for every item's vector, without an endpoint's query bound (a worker making them: vectors-worker.ts) */
  waitForVectors?: boolean;
  /** true: an embeddings endpoint backed off from after a failure is asked at once (`axme search --retry-endpoint`; search/endpoint-backoff.ts) */
  retryEndpoint?: boolean;
}

/**
 * Ranked search over the knowledge, every kind unless `type` names one: BM25F over titles, keywords/tags, anchors and bodies, with
 * stemming, software abbreviations and the glossary's terms as synonyms, and a bonus where the
 * query's words stand together. A superseded decision is folded into its live successor;
 * revoked, old and stale items rank lower. The index is derived from the tree and kept per tree
 * OID. With a local model (`axme models pull`) or a machine-local `search.embeddings` endpoint,
 * fused with a ranking by meaning (search/meaning.ts, search/dense.ts).
 */
export async function searchKnowledge(
  kb: KnowledgeBase,
  input: SearchInput & SearchOptions,
): Promise<{ hits: SearchHit[]; commit: string; total: number; meaning?: MeaningUsed }> {
  const { query, k, type } = parseInput(SearchInput, input, 'search');
  const { index, state } = await loadSearchIndex(kb, input.at);
  const kinds = type === 'all' ? undefined : new Set<KindName>([type]);
  const { said, groups } = queryOf(index, query);
  if (said.length === 0) return { hits: [], commit: state.commit!, total: 0 };
  // HEAD as the stale marks are worked out against it: they are kept for the query at the tip (tip-search.ts)
  const head = input.at === undefined && !kb.repo.bare ? headCommitSync(kb.repo.gitDir, kb.repo.commonDir) : 'unknown';
  const marks = await staleMarks(kb, input.at);
  const key = indexKey(state);
  const staleKey = `search-stale-written:${key}:${head}`;
  if (head !== 'unknown' && !kb.cache.recall<boolean>(staleKey) && headCommitSync(kb.repo.gitDir, kb.repo.commonDir) === head) {
    // once a process: the marks are the same for the same tree and HEAD; the file written once the answer is out (as the index's)
    kb.cache.later(staleKey, () => writeStale(searchDir(kb.repo.axmeDir), key, head ?? 'none', marks.all));
    kb.cache.remember(staleKey, true);
  }
  // a workspace store's items are not compared (their code is elsewhere): one of the same kind and slug is not this one
  const staleOf = (d: Doc) => (d.store ? undefined : marks.of(d.kind, d.slug));
  // no stale item (the usual case): nothing looked up per document ranked
  const isStale = marks.all.length ? (d: Doc) => staleOf(d) !== undefined : undefined;
  // the one fusion step: with an embedder (a local model or an endpoint), the word ranking goes deeper and is fused with the ranking by meaning
  const found = input.byMeaning === false ? null : await embedderFor(kb, state.config);
  // a worker making the vectors (its searches answer nobody) waits for them without a person's bound
  const embedder = found && (input.waitForVectors || kb.repo.env[VECTORS_AHEAD_ENV]) ? { ...found, waitMs: undefined } : found;
  // only the documents that can make the best hundred are scored (prune.ts): the same ranking as scoring them all
  const { ranked: lexical, total } = rankTop(index, groups, said, embedder ? Math.max(k, FUSE_DEPTH) : k, isStale, kinds);
  const fused = embedder ? await withMeaning(kb, index, embedder, query, lexical, k, isStale, kinds, { retry: input.retryEndpoint === true }) : undefined;
  const hits = (fused?.ranked ?? lexical).map((r) => hitOf(r, said, staleOf, { commit: state.commit!, workspace: state.workspace?.commit }));
  return { hits, commit: state.commit!, total, ...(fused ? { meaning: fused.meaning } : {}) };
}

/** The one entry point a hook (or any caller) searches through: `searchKnowledge`, the index persisted per tip. */
export const searchStore = (kb: KnowledgeBase, query: string, opts: Omit<SearchInput, 'query'> & SearchOptions = {}) => searchKnowledge(kb, { ...opts, query });
