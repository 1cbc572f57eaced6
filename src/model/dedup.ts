/** Words AXME ignores when it compares titles for duplicates. */
const STOP_WORDS = new Set('use using for the a an as with in on to and of is are'.split(' '));

/**
 * Title key for duplicate detection, as AXME does it: lowercase, stop words dropped, only letters
 * and digits kept. "Use Valkey for caching" and "valkey caching" have the same key. A `+` or `#`
 * that ends a word is part of its name (C, C++, C#, F#: three languages), kept as a word.
 */
export function normalizeTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/(?<=[\p{L}\p{N}])(\+\+|\+|#)(?![\p{L}\p{N}])/gu, (s) => (s === '#' ? ' sharp' : s === '++' ? ' plusplus' : ' plus'))
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '' && !STOP_WORDS.has(w))
    .join(' ');
}
