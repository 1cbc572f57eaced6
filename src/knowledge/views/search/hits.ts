import type { KindName } from '../../../model/kind.ts';
import { isWord } from './analyze.ts';
import type { Doc, Index } from './build-index.ts';
import { termsNear, termsStartingWith } from './index-terms.ts';
import { parseQuery } from './query.ts';
import type { Ranked } from './rank.ts';
import { snippet } from './snippet.ts';

// Light, like build-index.ts: the query at the tip (tip-search.ts) and the full one (search.ts) share it.

export interface SearchHit {
  kind: KindName;
  id: string | null;
  slug: string;
  title: string;
  status: string;
  score: number;
  snippet: string;
  path: string;
  /** where the text comes from: git:<commit>:<path> (`git show <commit>:<path>`) */
  citation: string;
  /** set when the hit is here because a decision it superseded matched (that decision is not listed) */
  via?: string;
  /** set when the item is stale (its anchors changed since it was learned: `axme verify`): ranked lower */
  stale?: boolean;
  /** why it is stale: "src/pay.ts changed in 3 commits since this was decided" */
  stale_reason?: string;
  /** set when the item comes from the workspace store (its path); the citation's commit is in that store */
  store?: string;
}

/**
 * The query's words in order (`said`) and its groups, against the index's vocabulary (prefixes
 * and near spellings included). `once`: the index answers this one query (the query at the tip,
 * a process of its own): the terms a word starts are found by one pass over the vocabulary
 * rather than by sorting it all first, which pays only over many queries.
 */
export function queryOf(index: Index, query: string, opts: { once?: boolean } = {}) {
  return parseQuery(query, index.synonyms, {
    known: (t) => index.postings.ids.has(t),
    startingWith: (p) => {
      // an index file's vocabulary finds them in its sorted order; else one pass, or the sorted terms kept for many queries
      const { ids } = index.postings;
      if (ids.startingWith) return ids.startingWith(p);
      return opts.once && !index.sorted ? scanStartingWith(index, p) : termsStartingWith(index, p);
    },
    nearest: (t, max) => termsNear(index, t, max),
    ...(index.related ? { related: index.related } : {}),
  });
}

/** `termsStartingWith`'s answer (the terms without digits that start with `prefix`, sorted) by one pass over the vocabulary. */
function scanStartingWith(index: Index, prefix: string): string[] {
  const out: string[] = [];
  for (const t of index.postings.ids.keys()) if (t.startsWith(prefix) && isWord(t)) out.push(t);
  return out.sort();
}

/** Why a document's item is stale, or undefined; a workspace store's items are not compared (their code is elsewhere). */
export type StaleOf = (d: Doc) => { reason: string } | undefined;

/**
 * Whether an item's body has a line to show: the snippet comes from it, since the title is shown
 * beside every hit already (a title with the query's words won the snippet, and the hit then said
 * its title twice and never what the item says).
 */
const saysSomething = (body: readonly string[]): boolean => body.some((t) => t.trim() !== '');

/** A ranked document as a hit: its marks, rounded score, snippet for the query's words `said`, citation (`commit`: the memory commit searched; `workspace`: the workspace's) and stale mark. */
export function hitOf(
  { doc: d, score, via }: Ranked,
  said: string[],
  staleOf: StaleOf,
  commits: { commit: string; workspace?: string | null | undefined },
): SearchHit {
  const { path } = d;
  const citation = d.store ? `git:${commits.workspace}:${path} (in ${d.store})` : `git:${commits.commit}:${path}`;
  const hit: SearchHit = {
    kind: d.kind,
    id: d.id,
    slug: d.slug,
    title: d.title,
    status: d.status,
    score: Math.round(score * 1000) / 1000,
    snippet: snippet(saysSomething(d.parts.body) ? d.parts.body : [...d.parts.title, ...d.parts.keys, ...d.parts.anchors], said),
    path,
    citation,
  };
  if (d.store) hit.store = d.store;
  if (via) hit.via = via;
  const s = staleOf(d);
  if (s) {
    hit.stale = true;
    hit.stale_reason = s.reason;
  }
  return hit;
}
