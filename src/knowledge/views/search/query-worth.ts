import type { Index } from './build-index.ts';
import { docFreq } from './index-terms.ts';
import type { QueryGroup } from './query.ts';
import { idfOf } from './rank.ts';

/**
 * What a query's words are worth in this index: for each word (a group), the IDF of its rarest
 * way of being said times that way's weight, a word no item holds at the IDF it would have in one
 * item. A score is read against it (recall-prompt.ts): an item holding the query's rare words
 * scores near it in a store of three items or of three thousand, and a prompt whose words the
 * store lacks is worth much more than any item scores.
 */
export function queryWorth(index: Index, groups: readonly QueryGroup[]): number {
  const n = index.docs.length;
  let worth = 0;
  for (const { alternatives } of groups) {
    let best = 0;
    for (const { terms, weight } of alternatives) {
      const idf = terms.reduce((sum, t) => sum + idfOf(n, Math.max(1, docFreq(index.postings, t))), 0) / Math.max(1, terms.length);
      best = Math.max(best, idf * weight);
    }
    worth += best;
  }
  return worth;
}
