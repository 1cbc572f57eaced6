import { z } from 'zod';
import { type IdPrefix, KIND_TABLES } from './kinds.ts';

/** Display-ID letters (D-NNN decisions, B-NNN backlog items, ...): each kind's `idPrefix`. */
export type { IdPrefix } from './kinds.ts';

const ID_RE = KIND_TABLES.idPattern;
const ID_LINE = new RegExp(`^id:\\s*["']?([${[...KIND_TABLES.kindOfPrefix.keys()].join('')}]-\\d{3,})`, 'm');

/** The display ID on the `id:` line of an item file's text, read without parsing it (a broken file's number stays taken). */
export function idLineOf(text: string): string | undefined {
  return ID_LINE.exec(text)?.[1];
}

export function formatId(prefix: string, n: number): string {
  return `${prefix}-${String(n).padStart(3, '0')}`;
}

/** Parses `D-007` (case-insensitive) into its prefix and number, or null. */
export function parseId(s: string): { prefix: IdPrefix; n: number } | null {
  const m = ID_RE.exec(s.toUpperCase());
  return m ? { prefix: m[1] as IdPrefix, n: Number(m[2]) } : null;
}

const LOOSE_ID_RE = new RegExp(`^([${[...KIND_TABLES.kindOfPrefix.keys()].join('')}])-(\\d{1,9})$`);

/**
 * A display ID as a person may type it, with its number padded otherwise (`D-1`, `d-01`,
 * `D-0001`), in the form IDs are written (`D-001`), or null for anything else. IDs are only ever
 * written by formatId, so the other paddings name no other item.
 */
export function normalId(s: string): string | null {
  const m = LOOSE_ID_RE.exec(s.trim().toUpperCase());
  return m ? formatId(m[1]!, Number(m[2])) : null;
}

/** The next free number after every id and alias already used. */
export function nextId(prefix: string, used: Iterable<string>): string {
  let max = 0;
  for (const id of used) {
    const p = parseId(id);
    if (p && p.prefix === prefix && p.n > max) max = p.n;
  }
  return formatId(prefix, max + 1);
}

export function displayId(prefix: IdPrefix) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}-\\d{3,}$`), `must look like ${prefix}-001`)
    .describe(`display ID (${prefix}-NNN): the next free number at creation`);
}
