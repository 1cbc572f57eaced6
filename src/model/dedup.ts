/** Words AXME ignores when it compares titles for duplicates. */
const STOP_WORDS = new Set('use using for the a an as with in on to and of is are'.split(' '));

/**
 * Title key for duplicate detection, as AXME does it: lowercase, stop words dropped, only letters
 * and digits kept. "Use Valkey for caching" and "valkey caching" have the same key.
 */
export function normalizeTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '' && !STOP_WORDS.has(w))
    .join(' ');
}
