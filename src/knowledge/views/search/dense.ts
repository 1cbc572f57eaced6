import type { KindName } from '../../../model/kind.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import type { Doc, Index } from './build-index.ts';
import { EmbeddingsError } from './embed-request.ts';
import { backoffInForce, backoffSentence, clearBackoff, recordFailure } from './endpoint-backoff.ts';
import { fuseRankings } from './fusion.ts';
import { itemVectors, within } from './item-vectors.ts';
import type { Embedder } from './meaning.ts';
import { searchDir } from './persist.ts';
import { factorAt, type Ranked, type StalePredicate, successorOf } from './rank.ts';
import type { VectorTable } from './vector-table.ts';

export { embeddedText } from './item-vectors.ts';

/** How many of each ranking are fused: the word ranking is asked for this many too. */
export const FUSE_DEPTH = 50;

/**
 * The documents closest in meaning to `query`, best first, waiting for every item's vector and
 * the query's (bench/retrieval/fusion-experiment.ts reads it to compare fusion rules).
 */
export async function rankByMeaning(
  kb: KnowledgeBase,
  index: Index,
  embedder: Embedder,
  query: string,
  n: number,
  isStale?: StalePredicate,
  kinds?: ReadonlySet<KindName>,
): Promise<Ranked[]> {
  const { table } = await itemVectors(kb, index, embedder).until(Infinity);
  return table ? nearestRanked(index, table, await embedder.embedQuery(query), n, isStale, kinds) : [];
}

/**
 * The documents of `table` closest to the query's vector `q`, best first: the cosine of their
 * vectors, lower for revoked, old and stale items as in the word ranking; a superseded decision
 * counts for its live successor (named in `via`). Only `kinds`, when given. A document lacking a
 * vector (a row of zeros) is never among them. The second of the two rankings `withMeaning` fuses.
 */
function nearestRanked(index: Index, vectors: VectorTable, q: Float32Array, n: number, isStale?: StalePredicate, kinds?: ReadonlySet<KindName>): Ranked[] {
  // the items by cosine, best first, as long as they can enter: a few more than n (vector-table.ts
  // works out the exact cosine of those only); the items' marks only for these
  const best = new Map<number, Ranked>();
  // the best n scores so far, highest first: a factor is at most 1, so once a cosine is below the
  // n-th of them nothing after it can enter
  let top: number[] = [];
  const keep = (score: number) => {
    let at = top.length;
    while (at > 0 && top[at - 1]! < score) at--;
    top.splice(at, 0, score);
    if (top.length > n) top.length = n;
  };
  for (const [i, cos] of vectors.nearest(q, 2 * n)) {
    if (top.length >= n && cos < top[n - 1]!) break;
    const succ = index.docs[i]!.supersededBy ? successorOf(index, i) : undefined;
    const at = succ ?? i;
    const doc = index.docs[at]!;
    if (kinds && !kinds.has(doc.kind)) continue;
    const score = cos * factorAt(index, at, isStale);
    const prev = best.get(at);
    if (prev && prev.score >= score) continue;
    const r: Ranked = { doc, score };
    if (succ !== undefined) r.via = index.docs[i]!.slug;
    best.set(at, r);
    if (prev)
      top = [...best.values()]
        .map((x) => x.score)
        .sort((a, b) => b - a)
        .slice(0, n);
    else keep(score);
  }
  return [...best.values()].sort((x, y) => y.score - x.score || (x.doc.slug < y.doc.slug ? -1 : 1)).slice(0, n);
}

/**
 * How an answer used the ranking by meaning (search's `meaning`, shown by `--json` and the MCP
 * tool): `fused` with the words', or not, and then why and how many items still lack a vector.
 */
export interface MeaningUsed {
  /** the embedder: `endpoint <url> (<model>)`, `model potion-base-8M` */
  embedder: string;
  /** true: fused with the word ranking; false: ranked by words alone */
  fused: boolean;
  /** items without a vector yet (being made in the background, or the endpoint gave up) */
  lacking: number;
  /** fused while some items lack a vector: `K of N items` had one (ranked by meaning over those, the others at their word rank) */
  partial?: string;
  /** why the answer is by words alone, or why some items lack a vector */
  reason?: string;
}

/** What `withMeaning` may be told: `retry` forgets the endpoint's backoff and asks it at once (`axme search --retry-endpoint`). */
export interface MeaningOptions {
  retry?: boolean;
}

/**
 * The word ranking (`FUSE_DEPTH` deep) fused with the ranking by meaning (fusion.ts: the words'
 * first three kept, the rest by reciprocal rank fusion), the best `k`. The items' vectors and the
 * query's own are had within one bound, the embedder's `waitMs` (the query's request sent at once
 * when some items have a vector, else once the run making them is over). While some items lack a
 * vector the ranking by meaning is over those that have one, and each item lacking one keeps its
 * place in the word ranking (fusion.ts). When the meaning cannot be had in time (no item has a
 * vector yet, an endpoint that cannot be reached, answers wrongly, outlasts the bound or is backed
 * off from after a failure: endpoint-backoff.ts), the word ranking alone, and why: search works
 * offline.
 */
export async function withMeaning(
  kb: KnowledgeBase,
  index: Index,
  embedder: Embedder,
  query: string,
  lexical: Ranked[],
  k: number,
  isStale?: StalePredicate,
  kinds?: ReadonlySet<KindName>,
  opts: MeaningOptions = {},
): Promise<{ ranked: Ranked[]; meaning: MeaningUsed }> {
  const dir = searchDir(kb.repo.axmeDir);
  if (opts.retry) clearBackoff(dir, embedder.key);
  const deadline = embedder.waitMs === undefined ? Infinity : Date.now() + embedder.waitMs;
  const byWords = (lacking: number, reason: string | undefined) => ({
    ranked: lexical.slice(0, k),
    meaning: { embedder: embedder.label, fused: false, lacking, ...(reason ? { reason } : {}) },
  });
  // backed off from as the query begins: no request (a failure of the items' run in this try does not stop the query's own)
  const backoff = backoffInForce(dir, embedder.key, kb.now());
  const underWay = itemVectors(kb, index, embedder);
  // the query's vector at once beside the items' when some already have one: both within the one bound
  const ask = (): Promise<Float32Array | NoQueryVector> | NoQueryVector =>
    backoff ? { reason: `the query has no vector: ${backoffSentence(backoff)}` } : queryVector(embedder, query, deadline);
  const early = underWay.had > 0 ? ask() : undefined;
  const vectors = await underWay.until(deadline);
  // none has one: `early` was not asked
  if (!vectors.table) return byWords(vectors.lacking, vectors.why);
  const q = await (early ?? ask());
  if (!(q instanceof Float32Array)) {
    // one more failure of the endpoint's backoff (none while it is in force: the items' run that failed in this try counted it)
    if (q.failure) recordFailure(dir, embedder.key, q.failure, kb.now());
    return byWords(vectors.lacking, [vectors.why, q.reason].filter(Boolean).join('; '));
  }
  const dense = nearestRanked(index, vectors.table, q, FUSE_DEPTH, isStale, kinds);
  const lacking = vectors.lacking ? new Set(lexical.filter((r) => !vectors.has(r.doc)).map((r) => r.doc)) : undefined;
  const partial = vectors.lacking
    ? { partial: `${vectors.texts - vectors.lacking} of ${vectors.texts} items`, ...(vectors.why ? { reason: vectors.why } : {}) }
    : {};
  return { ranked: fuseRankings(lexical, dense, k, lacking), meaning: { embedder: embedder.label, fused: true, lacking: vectors.lacking, ...partial } };
}

/** Why a query has no vector: what to say, and the endpoint's failure when it failed (counted by its backoff). */
type NoQueryVector = { reason: string; failure?: EmbeddingsError };

/**
 * The query's vector, asked of the embedder within what is left of the bound (a Retry-After the
 * endpoint asks for is not waited past it), or why there is none: the bound spent, or its failure.
 */
async function queryVector(embedder: Embedder, query: string, deadline: number): Promise<Float32Array | NoQueryVector> {
  // Infinity: a worker waiting for every vector, or the local model; the request still has the endpoint's own bound
  const left = deadline === Infinity ? undefined : Math.floor(deadline - Date.now());
  if (left !== undefined && left <= 0) return { reason: `the query has no vector: its bound (${embedder.waitMs} ms) was spent waiting for the items' vectors` };
  const stop = new AbortController();
  const asked = embedder.embedQuery(query, left === undefined ? undefined : { timeoutMs: left, signal: stop.signal });
  asked.catch(() => {});
  const late = `not made within ${embedder.waitMs} ms`;
  try {
    if (await within(asked, left ?? Infinity)) return await asked;
    stop.abort(new EmbeddingsError('slow', `the query's vector was ${late}`));
    return { reason: `the query has no vector: ${late}`, failure: new EmbeddingsError('slow', late) };
  } catch (err) {
    const failure = err instanceof EmbeddingsError ? err : undefined;
    // a request cut at what was left of the bound: said as the bound
    const why = failure?.code === 'slow' && left !== undefined ? late : (err as Error).message;
    return { reason: `the query has no vector: ${why}`, ...(failure ? { failure } : {}) };
  }
}
