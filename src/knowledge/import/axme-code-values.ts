import type { z } from 'zod';
import { splitSections } from '../../model/frontmatter.ts';
import { describeIssues } from '../../model/kind.ts';
import { isSlug, slugify } from '../../model/slug.ts';

/** The `source` of an item AXME Code's files did not name one for. */
export const AXME_CODE_SOURCE = 'axme-code';

/** A front-matter value as text: a string trimmed, a number or boolean spelled out, anything else ''. */
export function textOf(v: unknown): string {
  return typeof v === 'string' ? v.trim() : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/** `a, b` or a YAML list. */
export function entriesOf(v: unknown): string[] {
  const raw = Array.isArray(v) ? v.map(textOf) : textOf(v).split(',');
  return raw.map((s) => s.trim()).filter(Boolean);
}

/** AXME's slug when it is a valid axme slug, else the file name's, else one made from the title. */
export function slugOf(given: unknown, file: string, title: string): string {
  const s = textOf(given);
  if (s && isSlug(s)) return s;
  if (isSlug(file)) return file;
  return slugify(title || file);
}

/** `value` checked by `schema`; throws the issues (a problem with the file) when it is not valid. */
export function parseAs<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(describeIssues(r.error));
  return r.data;
}

/** The body without AXME's `# <title>` line, split at the given `## ` headings. */
export function splitBody(body: string, title: string, headings: string[]): { lead: string; sections: Record<string, string> } {
  return splitSections(stripTitle(body, title), headings);
}

/** The body without its first line when that is a `# ` heading of the title (any `# ` heading when there is no title). */
export function stripTitle(body: string, title: string): string {
  const t = body.replace(/\r\n?/g, '\n').trim();
  const first = t.split('\n')[0] ?? '';
  return /^# /.test(first) && (!title || first.slice(2).trim() === title.trim()) ? t.slice(first.length).trim() : t;
}
