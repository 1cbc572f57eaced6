import { z } from 'zod';
import { createHash } from 'node:crypto';
import { AxmeError } from './errors.ts';

export const SLUG_MAX = 60;
const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** True when `s` is a valid slug: lowercase `[a-z0-9-]`, no leading/trailing/double `-`, <= 60 chars.
 * A valid slug can never contain `/` or `..`, so it cannot escape its folder. */
export function isSlug(s: string): boolean {
  return s.length <= SLUG_MAX && SLUG_RE.test(s);
}

export const Slug = z
  .string()
  .refine(isSlug, `must be a slug: lowercase letters, digits and single dashes, at most ${SLUG_MAX} characters`)
  .describe('file name of the item inside its folder, without .md');

/** Validates a user-supplied slug at the boundary; the error says what a slug looks like. */
export function assertSlug(s: string, what = 'slug'): string {
  if (!isSlug(s)) {
    throw new AxmeError(
      'INVALID_INPUT',
      `${what} ${JSON.stringify(s.slice(0, 80))} is not valid: use lowercase letters, digits and single dashes, at most ${SLUG_MAX} characters`,
      { slug: s },
    );
  }
  return s;
}

/**
 * Slug from a title: accents folded, lowercase, every run of other characters becomes one `-`,
 * cut at a word boundary to fit SLUG_MAX. A title with no letters or digits gets `fallback`
 * (or a short hash of the title), so `../../x` becomes `x` and `///` never becomes a path.
 */
export function slugify(title: string, fallback?: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  let slug = base;
  if (slug.length > SLUG_MAX) {
    slug = slug.slice(0, SLUG_MAX);
    const cut = slug.lastIndexOf('-');
    slug = (cut >= SLUG_MAX / 2 ? slug.slice(0, cut) : slug).replace(/-+$/, '');
  }
  if (slug) return slug;
  if (fallback && isSlug(fallback)) return fallback;
  return `item-${createHash('sha1').update(title).digest('hex').slice(0, 8)}`;
}

/** First of `slug`, `slug-2`, `slug-3`, ... not in `taken`, still within SLUG_MAX. */
export function uniqueSlug(slug: string, taken: (s: string) => boolean): string {
  if (!taken(slug)) return slug;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = slug.slice(0, SLUG_MAX - suffix.length).replace(/-+$/, '') + suffix;
    if (!taken(candidate)) return candidate;
  }
}
