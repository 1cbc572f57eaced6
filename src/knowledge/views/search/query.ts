import { stem, words } from './analyze.ts';
import type { SynonymTable } from './synonyms.ts';

/** A term to look for and how much it counts: 1 for the query's own words, less for the others. */
export interface QueryTerm {
  term: string;
  weight: number;
}

/** How much a term brought in by a synonym or a compound counts next to one the query says. */
export const SYNONYM_WEIGHT = 0.5;
/** How much a longer term of the index that starts with a query's word counts: "paging" finds "pagerduty". */
export const PREFIX_WEIGHT = 0.3;
/** Query terms shorter than this are not looked for as prefixes (too many words start with them). */
const PREFIX_MIN = 4;
/** A term found by prefix has at least this many more characters (fewer: an inflection, which stemming folds). */
const PREFIX_EXTRA = 3;
/** A prefix that starts more terms than this says too little to look for them. */
const PREFIX_TERMS = 8;
/** The longest phrase looked up in the synonym table, in words. */
const PHRASE_MAX = 4;

/**
 * The query's terms in order (`said`, for the proximity bonus) and every term to look for with
 * its weight: the query's own, two adjacent words joined when the index knows the compound,
 * the other ways of saying a word or phrase of it, then the longer terms a word of it starts.
 */
export function parseQuery(query: string, synonyms: SynonymTable, known: (term: string) => boolean, startingWith?: (prefix: string) => string[]): { said: string[]; terms: QueryTerm[] } {
  const raw = words(query);
  const said = raw.map(stem);
  const weights = new Map<string, number>();
  for (const t of said) weights.set(t, 1);
  // two words written as one elsewhere: "puppet master" finds "puppetmaster", "file naming" "filenames"
  for (let i = 0; i + 1 < raw.length; i++) {
    const joined = stem(raw[i]! + raw[i + 1]!);
    if (!weights.has(joined) && known(joined)) weights.set(joined, SYNONYM_WEIGHT);
  }
  for (let i = 0; i < said.length; i++) {
    for (let n = 1; n <= PHRASE_MAX && i + n <= said.length; n++) {
      for (const alt of synonyms.get(said.slice(i, i + n).join(' ')) ?? []) {
        // a phrase's words share the weight: "continuous integration" for "ci" counts about as one term
        const w = alt.length > 1 ? SYNONYM_WEIGHT / Math.sqrt(alt.length) : SYNONYM_WEIGHT;
        for (const t of alt) if ((weights.get(t) ?? 0) < w) weights.set(t, w);
      }
    }
  }
  // the start of a longer word: "paging" finds "pagerduty", "config" "configurable"
  if (startingWith) {
    for (const t of new Set(said)) {
      if (t.length < PREFIX_MIN || /\d/.test(t)) continue;
      const longer = startingWith(t).filter((x) => x.length >= t.length + PREFIX_EXTRA);
      if (longer.length > PREFIX_TERMS) continue;
      for (const x of longer) if (!weights.has(x)) weights.set(x, PREFIX_WEIGHT);
    }
  }
  return { said, terms: [...weights].map(([term, weight]) => ({ term, weight })) };
}
