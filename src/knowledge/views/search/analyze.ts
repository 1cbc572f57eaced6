import { stemmer } from 'stemmer';

/** Words that say nothing about what an item is about: articles, pronouns, question words, modals. */
const STOP = new Set(
  `a an and are as at be been being but by can could did do does doing for from had has have how i if in into is it its me my
   of on or our ours should so than that the their them then there these they this those to us use used using was we were what
   when where which while who whom why will with would you your`.split(/\s+/),
);

/** British spellings folded into American ones before stemming (-ise is handled in `stem`). */
const SPELLING: Array<[RegExp, string]> = [
  [/^(licen|defen|offen)ce(s|d)?$/, '$1se$2'],
  [/^(.{3,})our(s|ed|ing|al)?$/, '$1or$2'],
  [/^(.{2,}(?:log|alog))ue(s)?$/, '$1$2'],
  [/^(cent|met|lit|fib)re(s|d)?$/, '$1er$2'],
  [/^programme(s)?$/, 'program$1'],
  [/^analys(e|ed|es|ing)$/, 'analyz$1'],
];

/** What a word's term as written starts with (`writtenTerm`): no other term holds it, so it never meets a stem. */
export const WRITTEN = '=';
/** True for a word with no digit: English, which search stems, corrects and expands; a term with a digit (`v11`, `svc-5`) is a name, kept as written, and a word's term as written (`writtenTerm`) is no word either. */
const DIGIT = /\d|^=/;
export const isWord = (term: string): boolean => !DIGIT.test(term);

/**
 * The term of a lowercase word as written, beside its stem `term`: a word the stem changes
 * ("searched", "registered") is also indexed as itself, so that a query writing it finds the
 * items that say it before those that only say another word of its stem ("search", "registry"),
 * as BM25 without a stemmer would; '' when the stem is the word (nothing to tell apart).
 */
export const writtenTerm = (word: string, term: string): string => (term && term !== word && isWord(word) ? WRITTEN + word : '');

/** Stems already computed: the vocabulary of a store is small next to its word count (bounded all the same). */
const STEMS = new Map<string, string>();
const STEMS_MAX = 100_000;

/**
 * One word's stem: Porter (the `stemmer` package) after British spellings (-ise, -our, -ence,
 * -re, -logue) are folded into American ones, with a final `i` made `y` again so that "deploy", "deploying" and "deployment" meet.
 * A stem that would be a stop word or shorter than three letters is not taken ("one" is not
 * "on"): the word is kept, less a plural `s`. Words with digits are kept as they are: `v11` and `svc` are names, not English.
 */
export function stem(word: string): string {
  if (!isWord(word) || word.length < 3) return word;
  let s = STEMS.get(word);
  if (s === undefined) {
    s = stemmer(americanSpelling(word));
    if (s.endsWith('i')) s = `${s.slice(0, -1)}y`;
    if (s.length < 3 || STOP.has(s)) s = /[^s]s$/.test(word) ? word.slice(0, -1) : word;
    if (STEMS.size >= STEMS_MAX) STEMS.clear();
    STEMS.set(word, s);
  }
  return s;
}

/** A lowercase word with British spellings folded into American ones (-ise, -our, -ence, -re, -logue), as `stem` takes it. */
export function americanSpelling(word: string): string {
  let w = word.replace(/is(e|ed|es|ing|ation|ations|er|ers)$/, 'iz$1');
  for (const [from, to] of SPELLING) w = w.replace(from, to);
  return w;
}

/** Bases already found (`inflectionBases`), bounded as the stems are. */
const BASES = new Map<string, string[]>();

/**
 * A lowercase word in American spelling and the words it may be the plural, -ed or -ing of, by
 * the regular endings alone (`copies` and `copied`: `copy`; `deleting`: `delet`, `delete`;
 * `stopped`: `stopp`, `stop`; `settings`: `setting`; `honoured`: `honored`, `honor`…): never the
 * words it is an inflection's base of (`set` is not `setting`), nor the other words of its stem
 * (`general` is not `generate`). Some are not words; a table keyed by words finds none of those.
 */
export function inflectionBases(written: string): string[] {
  let bases = BASES.get(written);
  if (bases === undefined) {
    bases = basesOf(americanSpelling(written));
    if (BASES.size >= STEMS_MAX) BASES.clear();
    BASES.set(written, bases);
  }
  return bases;
}

/** `inflectionBases` of a word in American spelling, by its ending (string tests: a process's first query compiles no pattern for it). */
function basesOf(word: string): string[] {
  const bases = [word];
  const add = (base: string) => base.length > 1 && !bases.includes(base) && bases.push(base);
  if (word.endsWith('ies') || word.endsWith('ied')) add(`${word.slice(0, -3)}y`);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) add(word.slice(0, -1));
  if (word.endsWith('es')) add(word.slice(0, -2));
  const ending = word.endsWith('ed') ? 2 : word.endsWith('ing') ? 3 : 0;
  if (ending && word.length > ending + 1) {
    const base = word.slice(0, -ending);
    add(base);
    add(`${base}e`);
    // a consonant doubled before the ending (`stopped`, `setting`)
    const last = base[base.length - 1]!;
    if (last === base[base.length - 2] && !'aeiou'.includes(last)) add(base.slice(0, -1));
  }
  return bases;
}

/**
 * What folding takes out of a word as an accent: the combining marks of no one script (accents
 * after NFKD, their extended and supplementary blocks, marks for symbols such as a keycap's), Arabic's
 * vowel marks and its stretching letter (tatweel), Hebrew's points, and variation selectors
 * (presentation: `❤️` is `❤`). Other scripts' marks are letters of the word (a Hindi vowel sign).
 */
const COMBINING =
  /[\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e8\u06ea-\u06ed\u0640\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\ufe00-\ufe0f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
/** ß is ss when case is folded (Unicode's full folding; NFKD leaves it as it is): `Straße` and `strasse` are one word. */
const SHARP_S = /\u00df/g;
const CAPITAL_SHARP_S = /\u1e9e/g;
const NON_ASCII = /[^\x00-\x7f]/;
const SPLIT = /[^\p{L}\p{M}\p{N}]+/u;
const SPLIT_ASCII = /[^a-z0-9]+/;

/**
 * `text` with its accents folded (case kept; composed again after, so that what NFKD took apart
 * and is not an accent stays one letter: a kana and its voicing mark, a Hangul syllable), and the
 * pattern that finds its identifiers.
 */
function foldedCase(text: string): { text: string; idents: RegExp } {
  if (!NON_ASCII.test(text)) return { text, idents: IDENT_ASCII };
  return { text: text.normalize('NFKD').replace(COMBINING, '').normalize('NFC').replace(SHARP_S, 'ss').replace(CAPITAL_SHARP_S, 'SS'), idents: IDENT };
}

/** `text` lowercased and folded as `foldedCase` folds the terms' text, and the pattern that cuts it into words. */
function folded(text: string): { low: string; split: RegExp } {
  if (!NON_ASCII.test(text)) return { low: text.toLowerCase(), split: SPLIT_ASCII };
  return { low: foldedCase(text).text.toLowerCase(), split: SPLIT };
}

/** A word that says something: two characters or more (a lone digit too), not a stop word. */
const kept = (w: string) => (w.length > 1 || (w >= '0' && w <= '9')) && !STOP.has(w);

/** Lowercase words of `text`, accents folded, stop words dropped; a lone digit is kept (it tells svc-5 from svc-6). */
export function words(text: string): string[] {
  const { low, split } = folded(text);
  return low.split(split).filter(kept);
}

/** Lowercase word (without digits) to its term, '' for a word search drops: analysed once per distinct word (bounded). */
const TERMS = new Map<string, string>();

/** The term of one lowercase, accent-folded word (`stem` of it), or '' when it is not kept. */
function termOf(w: string): string {
  // words with digits are names, kept as they are (`stem`): not worth remembering one by one
  if (!isWord(w)) return kept(w) ? w : '';
  let t = TERMS.get(w);
  if (t === undefined) {
    t = kept(w) ? stem(w) : '';
    if (TERMS.size >= STEMS_MAX) TERMS.clear();
    TERMS.set(w, t);
  }
  return t;
}

/** Runs of letters and digits joined by `-_./:#@` with no space: words, and identifiers such as `--no-verify`, `z.infer`, `core.hooksPath`. */
const IDENT_ASCII = /[A-Za-z0-9]+(?:[-_./:#@]+[A-Za-z0-9]+)*/g;
const IDENT = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:[-_./:#@]+[\p{L}\p{N}][\p{L}\p{M}\p{N}]*)*|\p{Extended_Pictographic}/gu;
/** An emoji or other pictograph: a term of its own, as written (`🚀`; a sequence joined by U+200D is its pictographs). */
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
const CONNECTOR = /[-_./:#@]+/;
/** Where a lowerCamelCase identifier splits: `hooksPath` is `hooks` `Path` (a brand's PascalCase, `PostgreSQL`, is not split). */
const CAMEL = /(?<=[a-z0-9])(?=[A-Z])/;
const LOWER_CAMEL = /^[a-z][a-z0-9]*[A-Z]/;
/**
 * A number of parts joined by single dots or dashes (a version `15.2.0`, a date `2026-07-15`, an
 * address): a term whole as written, separators kept (`1.52` is not `15.2`), beside its parts.
 */
const NUMBER = /^\d+(?:[.-]\d+)+$/;
/** An identifier of more pieces than this is a path or a URL: its parts are terms, not the whole. */
const WHOLE_PIECES = 6;

/** The term of an identifier written whole (its pieces joined, stemmed): what a query's two words joined also look up. */
export function joinedTerm(pieces: readonly string[]): string {
  return stem(pieces.join('').toLowerCase());
}

/**
 * Appends the terms of `text` to `out` in order (its words: the positions proximity counts), and
 * to `wholes` (or `out` when absent) the term of each identifier written whole, as in
 * `joinedTerm`: `--no-verify` gives `no`, `verifi` and `noverifi`; `core.hooksPath` gives `core`,
 * `hook`, `path`, `hookspath` and `corehookspath`. `spans`, when given, gets for each whole the
 * range of `out` its parts took (a camelCase segment's whole, `hookspath`, its segment's alone:
 * it lies within the identifier's, whose part it is); `written`, when given, each plain word's `writtenTerm` (what an
 * index holds beside the stems; a query looks those up itself, query.ts).
 */
export function termsInto(text: string, out: string[], wholes: string[] = out, spans?: Array<[number, number]>, written?: string[]): void {
  const { text: t, idents } = foldedCase(text);
  if (idents === IDENT && UNSPACED.test(text)) return unspacedTermsInto(text, out, wholes, spans, written);
  // pictographs and letters of unspaced scripts are not ASCII: ASCII text skips looking for them
  const wide = idents === IDENT;
  idents.lastIndex = 0;
  for (let m = idents.exec(t); m; m = idents.exec(t)) {
    const token = m[0];
    const simple = !LOWER_CAMEL.test(token) && !CONNECTOR.test(token);
    if (wide && PICTOGRAPH.test(token)) {
      out.push(token);
      continue;
    }
    if (wide && CJK.test(token)) {
      cjkTermsInto(token, out, wholes, spans, written);
      continue;
    }
    if (simple) {
      const low = token.toLowerCase();
      const term = termOf(low);
      if (term) out.push(term);
      if (written) {
        const w = writtenTerm(low, term);
        if (w) written.push(w);
      }
      continue;
    }
    const segments = token.split(CONNECTOR);
    const from = out.length;
    const all: string[] = [];
    // each whole term and the range of `out` its parts took: the whole identifier's, a tail's, or one camelCase segment's
    const found: Array<[string, number, number]> = [];
    const starts: Array<[number, number]> = [];
    for (const seg of segments) {
      const at = out.length;
      starts.push([at, all.length]);
      const pieces = LOWER_CAMEL.test(seg) ? seg.split(CAMEL) : [seg];
      for (const p of pieces) {
        const term = termOf(p.toLowerCase());
        if (term) out.push(term);
      }
      if (pieces.length > 1 && segments.length > 1) found.push([joinedTerm(pieces), at, out.length]);
      all.push(...pieces);
    }
    if (all.length > 1 && segments.length <= WHOLE_PIECES && /[a-z]/i.test(token)) {
      found.push([joinedTerm(all), from, out.length]);
      // its tails of two segments or more: `UTF-8` in `non-UTF-8`, `b.ts` in `src/a/b.ts`
      for (let i = 1; i + 1 < segments.length; i++) {
        const tail = all.slice(starts[i]![1]);
        if (tail.length > 1 && /[a-z]/i.test(tail.join(''))) found.push([joinedTerm(tail), starts[i]![0], out.length]);
      }
    } else if (segments.length <= WHOLE_PIECES && NUMBER.test(token)) found.push([token, from, out.length]);
    for (const [w, start, end] of found) {
      wholes.push(w);
      spans?.push([start, end]);
    }
  }
}

/** Words of letters joined by single hyphens (`opt-in`, `self-signed`), not after a dash (`--dry-run` is a flag). */
const HYPHENED = /(?<![-\p{L}\p{M}\p{N}_./:#@])\p{L}+(?:-\p{L}+)+(?![-\p{L}\p{M}\p{N}_./:#@])/gu;

/**
 * The whole terms (`joinedTerm`) of the words of `text` joined by hyphens as prose joins them —
 * `opt-in`, `self-signed`, `fast-forward` — as opposed to a flag (`--no-verify`), a member
 * (`z.infer`), a path or a lowerCamelCase name: a query's compound of these counts its words as
 * much as the compound (query.ts), since "opt into" says what "opt-in" says.
 */
export function proseCompounds(text: string): Set<string> {
  const out = new Set<string>();
  for (const [token] of foldedCase(text).text.matchAll(HYPHENED)) {
    const parts = token.split('-');
    if (parts.some((p) => LOWER_CAMEL.test(p))) continue;
    out.add(joinedTerm(parts));
  }
  return out;
}

/** Letters of scripts written without spaces between words (Chinese, Japanese; Korean's syllables too): their text is cut into pairs of letters. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]/u;
const CJK_RUNS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+/gu;

/**
 * The terms of a token that holds letters of a script written without spaces: each run of them
 * as its overlapping pairs of letters (`サーバー` is `サー`, `ーバ`, `バー`; a letter alone is its
 * own term), as search engines cut such text without a dictionary, so that a word found inside a
 * sentence (`東京のサーバーは…`) matches; the other runs as words (`termsInto`).
 */
function cjkTermsInto(token: string, out: string[], wholes: string[], spans: Array<[number, number]> | undefined, written: string[] | undefined): void {
  for (const [run] of token.matchAll(CJK_RUNS)) {
    if (!CJK.test(run)) {
      termsInto(run, out, wholes, spans, written);
      continue;
    }
    const letters = [...run.toLowerCase()];
    if (letters.length === 1) out.push(letters[0]!);
    for (let i = 0; i + 1 < letters.length; i++) out.push(letters[i]! + letters[i + 1]!);
  }
}

/** Letters of scripts written without spaces whose words a dictionary finds (Thai, Lao, Khmer, Burmese). */
const UNSPACED = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const UNSPACED_RUNS =
  /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+|[^\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu;
let wordBreaks: Intl.Segmenter | undefined;

/**
 * The terms of text that holds letters of Thai, Lao, Khmer or Burmese: each run of them cut into
 * its words by the runtime's dictionary (`Intl.Segmenter`, ICU's), before folding (NFKD takes a
 * Thai vowel apart, and the dictionary no longer knows the word), each word then folded as any;
 * the other runs as `termsInto` does.
 */
function unspacedTermsInto(text: string, out: string[], wholes: string[], spans: Array<[number, number]> | undefined, written: string[] | undefined): void {
  for (const [run] of text.matchAll(UNSPACED_RUNS)) {
    if (!UNSPACED.test(run)) {
      termsInto(run, out, wholes, spans, written);
      continue;
    }
    wordBreaks ??= new Intl.Segmenter(undefined, { granularity: 'word' });
    for (const { segment, isWordLike } of wordBreaks.segment(run)) {
      if (!isWordLike) continue;
      const term = termOf(foldedCase(segment).text.toLowerCase());
      if (term) out.push(term);
    }
  }
}

/** A lowerCamelCase identifier, which `termsInto` cuts into its parts. */
const LOWER_CAMEL_WORD = /(?<![A-Za-z0-9])[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*/g;

/**
 * The words of `text` as written (`words`, a lowerCamelCase identifier cut into its parts as
 * `termsInto` cuts it), each with its term: what a table keyed by the words themselves, not their
 * stems, is looked up by.
 */
export function writtenWords(text: string): Array<{ word: string; term: string }> {
  return words(text.replace(LOWER_CAMEL_WORD, (id) => id.split(CAMEL).join(' '))).map((word) => ({ word, term: stem(word) }));
}

/** The terms search indexes and looks for: `words`, stemmed, then the identifiers written whole. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const wholes: string[] = [];
  termsInto(text, out, wholes);
  return [...out, ...wholes];
}
