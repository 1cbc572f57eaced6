import { createHash } from 'node:crypto';
import anyAscii from 'any-ascii';
import { z } from 'zod';
import { AxmeError } from './errors.ts';
import { scanView } from './invisible.ts';

export const SLUG_MAX = 60;
/** A slug's bound in UTF-8 bytes: a Unicode slug (3 bytes a CJK character) stays a short file name everywhere. */
export const SLUG_MAX_BYTES = 120;
const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// letters and digits of any script, a letter's combining marks after it, single dashes between
const UNICODE_SLUG_RE = /^[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:-[\p{L}\p{N}][\p{L}\p{N}\p{M}]*)*$/u;
// Latin letters beyond ASCII (accents are folded: `cafe`, never `café`), anything past the
// Basic Multilingual Plane (UTF-16 and UTF-8 order trees alike only there), invisible letters
const UNICODE_SLUG_BAD = /(?![a-z])\p{Script=Latin}|[\u{10000}-\u{10FFFF}]|\p{Default_Ignorable_Code_Point}/u;
// file names Windows reserves for devices, with any extension
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/;
// scripts kept as they are: romanizing Han, kana or Hangul loses what the title says
const KEEP_SCRIPT = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Bopomofo}]/u;

/** Case folded the way case-insensitive file systems compare names, in NFKC. */
function fold(s: string): string {
  return s.toUpperCase().toLowerCase().normalize('NFKC');
}

/**
 * True when `s` is a valid slug: lowercase `[a-z0-9-]`, or letters and digits of any script in
 * their canonical form (NFKC, case-folded, no accented Latin, Basic Multilingual Plane), single
 * `-` between words, at most 60 characters and 120 UTF-8 bytes. A valid slug can never contain
 * `/`, `\`, `.`, `:`, whitespace or control characters, so it cannot escape its folder.
 */
export function isSlug(s: string): boolean {
  if (s.length > SLUG_MAX) return false;
  if (SLUG_RE.test(s)) return true;
  return UNICODE_SLUG_RE.test(s) && !UNICODE_SLUG_BAD.test(s) && Buffer.byteLength(s) <= SLUG_MAX_BYTES && fold(s) === s;
}

export const Slug = z
  .string()
  .refine(isSlug, `must be a slug: lowercase letters (of any script), digits and single dashes, at most ${SLUG_MAX} characters`)
  .describe('file name of the item inside its folder, without .md');

/** Validates a user-supplied slug at the boundary; the error says what a slug looks like. */
export function assertSlug(s: string, what = 'slug'): string {
  if (!isSlug(s)) {
    throw new AxmeError(
      'INVALID_INPUT',
      `${what} ${JSON.stringify(s.slice(0, 80))} is not valid: use lowercase letters, digits and single dashes (letters of any script), at most ${SLUG_MAX} characters`,
      { slug: s },
    );
  }
  return s;
}

/** One letter or digit in ASCII: Latin accents folded, other scripts transliterated (any-ascii). */
function romanized(c: string): string {
  if (/\p{Script=Latin}/u.test(c)) {
    const folded = c.normalize('NFKD').replace(/\p{M}/gu, '');
    if (!/[^\x00-\x7f]/.test(folded)) return folded;
  }
  // any-ascii writes soft signs, ayin and the like as quote marks: not word breaks
  return anyAscii(c).replace(/['`"]/g, '');
}

/**
 * `text` with letters and digits in ASCII, except those of the kept scripts (Han, kana, Hangul,
 * Bopomofo) unless `ascii`; everything else becomes a space. Emoji become their names when
 * `emoji` (a title made of emoji only), and are dropped otherwise.
 */
function wordsOf(text: string, opts: { ascii: boolean; emoji: boolean }): string {
  let out = '';
  // the last letter was kept as it is: its combining marks (dakuten, vowel signs) stay with it
  let kept = false;
  for (const c of text) {
    if (c < '\x80') {
      out += c;
      kept = false;
    } else if (/\p{M}/u.test(c)) {
      // accents (Inherited, Common) go; a script's own signs (Devanagari vowel signs) are letters
      if (kept) out += c;
      else if (!/[\p{Script=Inherited}\p{Script=Common}]/u.test(c)) out += romanized(c);
    } else if (/[\p{L}\p{N}]/u.test(c)) {
      kept = !opts.ascii && c.length === 1 && KEEP_SCRIPT.test(c);
      out += kept ? c : romanized(c);
    } else {
      kept = false;
      out += opts.emoji && /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u.test(c) ? ` ${anyAscii(c)} ` : ' ';
    }
  }
  return out;
}

/** The longest prefix of `s` within `chars` UTF-16 units and `bytes` UTF-8 bytes, whole characters only. */
function prefixWithin(s: string, chars: number, bytes: number): string {
  if (s.length <= chars && Buffer.byteLength(s) <= bytes) return s;
  let out = '';
  let size = 0;
  for (const c of s) {
    const b = Buffer.byteLength(c);
    if (out.length + c.length > chars || size + b > bytes) break;
    out += c;
    size += b;
  }
  return out;
}

/**
 * Slug from a title, for a new item (an existing item keeps the file name it has). Invisible
 * characters dropped and NFKC; Latin accents folded; Cyrillic, Greek, Arabic, Hebrew, Indic and
 * other scripts transliterated to ASCII (any-ascii); Chinese, Japanese and Korean kept as they
 * are (all of it ASCII with `ascii`); lowercase; every run of other characters becomes one `-`;
 * cut at a word boundary to fit 60 characters and 120 bytes. An emoji-only title gets the emoji's
 * names. A name Windows reserves (`con`, `nul`, `com1`, ...) gets `-item`. A title with no
 * letters or digits gets `fallback` (or a short hash of the title), so `../../x` becomes `x`
 * and `///` never becomes a path.
 */
export function slugify(title: string, fallback?: string, opts: { ascii?: boolean } = {}): string {
  const text = scanView(title).text.normalize('NFKC');
  const words = wordsOf(text, { ascii: !!opts.ascii, emoji: !/[\p{L}\p{N}]/u.test(text) });
  const base = fold(words)
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  let slug = base;
  if (slug.length > SLUG_MAX || Buffer.byteLength(slug) > SLUG_MAX_BYTES) {
    slug = prefixWithin(slug, SLUG_MAX, SLUG_MAX_BYTES);
    const cut = slug.lastIndexOf('-');
    slug = (cut >= slug.length / 2 ? slug.slice(0, cut) : slug).replace(/-+$/, '');
  }
  if (WINDOWS_DEVICE.test(slug)) slug += '-item';
  if (slug && isSlug(slug)) return slug;
  if (fallback && isSlug(fallback)) return fallback;
  return `item-${createHash('sha1').update(title).digest('hex').slice(0, 8)}`;
}

/** First of `slug`, `slug-2`, `slug-3`, ... not in `taken`, still within 60 characters and 120 bytes. */
export function uniqueSlug(slug: string, taken: (s: string) => boolean): string {
  if (!taken(slug)) return slug;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = prefixWithin(slug, SLUG_MAX - suffix.length, SLUG_MAX_BYTES - suffix.length).replace(/-+$/, '') + suffix;
    if (!taken(candidate)) return candidate;
  }
}
