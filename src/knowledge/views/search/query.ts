import { inflectionBases, isWord, joinedTerm, proseCompounds, stem, termsInto, words, writtenTerm, writtenWords } from './analyze.ts';
import { RELATED_WEIGHT, relatedTable, type SynonymTable } from './synonyms.ts';

/** One way of matching a word of the query: a term, or a phrase whose terms' scores are averaged; `weight` is how much it counts. */
export interface Alternative {
  terms: string[];
  weight: number;
}

/** A word of the query and the other ways of saying it: a document scores the best of them (they are one word, not several). */
export interface QueryGroup {
  alternatives: Alternative[];
}

/** A term to look for and the most it counts (the groups flattened: what a reader of the query sees). */
export interface QueryTerm {
  term: string;
  weight: number;
}

/** How much a synonym or a compound counts: as much as the word it stands for. */
export const SYNONYM_WEIGHT = 1;
/**
 * How much a word of the query counts, at its own IDF, in an item that writes it as the query
 * does (`writtenTerm`), where the item's score for the word is the better of this and its stem's:
 * below 1, so that an item saying another word of the stem ("deletion" for "deleting") is not
 * left far behind one that happens to write the same inflection.
 */
export const WRITTEN_WEIGHT = 0.8;
/** How much the parts of an identifier the query writes whole count, when the index holds it whole: `z.infer` is not any "infer" (words hyphened as prose, `opt-in`, count as the whole: `proseCompounds`). */
export const PART_WEIGHT = 0.5;
/** How much a longer term of the index that starts with a query's word counts: "paging" finds "pagerduty". */
export const PREFIX_WEIGHT = 0.3;
/** How much a term of the index one or two edits from a word the index lacks counts ("exponental"), at one edit; half that at two. */
export const TYPO_WEIGHT = 0.8;
/** Query words shorter than this are not corrected (too many short words are a letter apart). */
const TYPO_MIN = 5;
/** Words up to this long get one edit; longer ones two. */
const TYPO_ONE_EDIT = 7;
/** Query terms shorter than this are not looked for as prefixes (too many words start with them). */
const PREFIX_MIN = 4;
/** A term found by prefix has at least this many more characters (fewer: an inflection, which stemming folds). */
const PREFIX_EXTRA = 3;
/** A prefix that starts more terms than this, or a misspelt word this many terms are as near to, says too little to look for them. */
const PREFIX_TERMS = 8;
/** The longest phrase looked up in the synonym table, in words. */
const PHRASE_MAX = 4;

/** What the query may ask of the index's vocabulary. */
export interface Vocabulary {
  known: (term: string) => boolean;
  /** the longer terms that start with a prefix */
  startingWith?: (prefix: string) => string[];
  /** the terms at the fewest edits (at most `max`) from a term, and that number */
  nearest?: (term: string, max: number) => { terms: string[]; edits: number };
  /** the related words' table, analyzed (`relatedTable`), when at hand: an index file keeps it, so that a query at the tip does not analyze it again */
  related?: SynonymTable;
}

/**
 * The query's terms in order (`said`, for the proximity bonus) and one group a distinct term, or
 * an identifier the index holds whole (its parts a phrase at `PART_WEIGHT`): the term itself; two
 * adjacent words joined when the index knows the compound (standing for both: half in each word's
 * group, so that a document holding it counts it once, as the words it stands for); the other
 * ways of saying a word or phrase (synonyms, at full weight; a phrase scores its words' mean);
 * the related words of a word or phrase the query writes as a member of `relatedTable` (or its
 * plural, -ed or -ing), at `RELATED_WEIGHT`, unless it is only the part of an identifier asked
 * whole (the identifier is asked as itself); the longer terms a word starts (low weight); and,
 * for a word of 5+ letters the index lacks, the terms one or two edits away (low weight).
 */
export function parseQuery(
  query: string,
  synonyms: SynonymTable,
  vocabulary: Vocabulary | ((term: string) => boolean),
  startingWith?: (prefix: string) => string[],
): { said: string[]; groups: QueryGroup[]; terms: QueryTerm[] } {
  const v: Vocabulary = typeof vocabulary === 'function' ? { known: vocabulary, ...(startingWith ? { startingWith } : {}) } : vocabulary;
  const related = v.related ?? relatedTable();
  const said: string[] = [];
  const wholes: string[] = [];
  const spans: Array<[number, number]> = [];
  termsInto(query, said, wholes, spans);
  const raw = words(query);
  const groups = new Map<string, Alternative[]>();
  const add = (over: readonly string[], alt: Alternative) => {
    const targets = over.length ? over : alt.terms;
    for (const t of new Set(targets)) {
      const list = groups.get(t) ?? (groups.set(t, []), groups.get(t)!);
      if (!list.some((a) => a.terms.join(' ') === alt.terms.join(' ') && a.weight >= alt.weight)) list.push(alt);
    }
  };
  // an identifier the index holds whole is one word of the query, its parts at a lower weight
  // (`z.infer`, `--no-verify`) — but words hyphened as prose joins them (`opt-in`) as a phrase at
  // the whole's weight: one word of the query, written whole or apart; one the index does not
  // hold is looked for by its parts
  const prose = proseCompounds(query);
  const covered = new Set<number>();
  const outer = wholes.map((w, i) => ({ w, span: spans[i]! })).filter(({ w }) => v.known(w));
  for (const { w, span } of outer) {
    const [from, to] = span;
    const within = outer.some((o) => o.span !== span && o.span[0] <= from && to <= o.span[1] && o.span[1] - o.span[0] > to - from);
    if (within) continue;
    const parts = said.slice(from, to);
    const inner = outer.filter((o) => o.span !== span && from <= o.span[0] && o.span[1] <= to).map((o) => ({ terms: [o.w], weight: PART_WEIGHT }));
    const partWeight = prose.has(w) ? 1 : PART_WEIGHT;
    groups.set(`whole:${w}`, [{ terms: [w], weight: 1 }, ...inner, ...(parts.length ? [{ terms: parts, weight: partWeight }] : [])]);
    for (let i = from; i < to; i++) covered.add(i);
  }
  said.forEach((t, i) => !covered.has(i) && !groups.has(t) && groups.set(t, [{ terms: [t], weight: 1 }]));
  // a word as written, where its stem is another word's too: the items that say it count it at its own, rarer, worth
  for (const w of raw) {
    const t = stem(w);
    const as = writtenTerm(w, t);
    if (as && groups.has(t) && v.known(as)) add([t], { terms: [as], weight: WRITTEN_WEIGHT });
  }
  // two words written as one elsewhere: "puppet master" finds "puppetmaster", "file naming" "filenames"
  for (let i = 0; i + 1 < raw.length; i++) {
    const joined = joinedTerm([raw[i]!, raw[i + 1]!]);
    if (groups.has(joined) || groups.has(`whole:${joined}`) || !v.known(joined)) continue;
    // it stands for both words: each counts it at its share, so that together they count it once
    const words2 = [...new Set([stem(raw[i]!), stem(raw[i + 1]!)].filter((t) => groups.has(t)))];
    add(words2, { terms: [joined], weight: SYNONYM_WEIGHT / Math.max(1, words2.length) });
  }
  const keysOf = relatedKeys(query);
  const starts = phraseStarts(related);
  for (let i = 0; i < said.length; i++) {
    // the ways of writing the phrase said[i..i+n) as `relatedTable` keys it, one word longer each
    // turn (only those a longer key starts with are taken on)
    let keys = [''];
    for (let n = 1; n <= PHRASE_MAX && i + n <= said.length; n++) {
      const phrase = said.slice(i, i + n);
      const over = phrase.filter((t) => groups.has(t));
      for (const alt of synonyms.get(phrase.join(' ')) ?? []) add(over, { terms: alt, weight: SYNONYM_WEIGHT });
      const last = keysOf.get(said[i + n - 1]!) ?? [];
      keys = keys.filter((k) => !k || starts.has(k)).flatMap((k) => last.map((w) => (k ? `${k} ${w}` : w)));
      // the part of an identifier asked whole is no word of the query: its related words are not asked
      if (over.length) for (const key of keys) for (const alt of related.get(key) ?? []) add(over, { terms: alt, weight: RELATED_WEIGHT });
    }
  }
  const writtenLength = new Map(raw.map((w) => [stem(w), w.length]));
  for (const t of new Set(said)) {
    if (!isWord(t) || !groups.has(t)) continue;
    // the start of a longer word: "paging" finds "pagerduty", "config" "configurable"
    if (v.startingWith && t.length >= PREFIX_MIN) {
      const longer = v.startingWith(t).filter((x) => x.length >= t.length + PREFIX_EXTRA);
      if (longer.length <= PREFIX_TERMS) for (const x of longer) add([t], { terms: [x], weight: PREFIX_WEIGHT });
    }
    // a word the index lacks, misspelt: the nearest terms of the index
    // (its length as written: "stahs" is stemmed to "stah", still a word of five letters)
    const written = writtenLength.get(t) ?? t.length;
    if (v.nearest && written >= TYPO_MIN && !v.known(t)) {
      const { terms, edits } = v.nearest(t, written <= TYPO_ONE_EDIT ? 1 : 2);
      if (terms.length <= PREFIX_TERMS) for (const x of terms) add([t], { terms: [x], weight: TYPO_WEIGHT / edits });
    }
  }
  // an identifier the index lacks whole, misspelt ("cherry-pik"): the nearest whole terms, standing for its parts
  for (let i = 0; v.nearest && i < wholes.length; i++) {
    const w = wholes[i]!;
    if (v.known(w) || !isWord(w) || w.length < TYPO_MIN + 1) continue;
    const [from, to] = spans[i]!;
    const parts = [...new Set(said.slice(from, to))].filter((t) => groups.has(t));
    const { terms, edits } = v.nearest(w, w.length <= TYPO_ONE_EDIT + 1 ? 1 : 2);
    if (parts.length && terms.length <= PREFIX_TERMS) for (const x of terms) add(parts, { terms: [x], weight: TYPO_WEIGHT / edits / parts.length });
  }
  const flat = new Map<string, number>();
  for (const alts of groups.values()) for (const a of alts) for (const t of a.terms) flat.set(t, Math.max(flat.get(t) ?? 0, a.weight));
  return { said, groups: [...groups.values()].map((alternatives) => ({ alternatives })), terms: [...flat].map(([term, weight]) => ({ term, weight })) };
}

/** Each term of the query to the keys of `relatedTable` its words as written may be: the word, in American spelling, and the words it may be the plural, -ed or -ing of. */
function relatedKeys(query: string): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const { word, term } of writtenWords(query)) {
    const list = keys.get(term) ?? (keys.set(term, []), keys.get(term)!);
    for (const k of inflectionBases(word)) if (!list.includes(k)) list.push(k);
  }
  return keys;
}

/** Per related table, the first words of its keys of several words (`symbolic` of `symbolic link`): a phrase of the query is made longer only from those. */
const STARTS = new WeakMap<SynonymTable, Set<string>>();
function phraseStarts(table: SynonymTable): Set<string> {
  let starts = STARTS.get(table);
  if (!starts) {
    starts = new Set();
    for (const key of table.keys()) for (let at = key.indexOf(' '); at > 0; at = key.indexOf(' ', at + 1)) starts.add(key.slice(0, at));
    STARTS.set(table, starts);
  }
  return starts;
}
