import { textHead } from '../../model/text-head.ts';

/**
 * Sections of the context page sized to the room they are given: a list of one-line items cut
 * to fewer, shorter lines and then a count, a text cut at a line end with a pointer to the whole.
 */

/** At most `limit` lines, then one saying how many more and where they are. */
export function bounded(lines: string[], limit: number, more: (n: number) => string): string {
  return [...lines.slice(0, limit), ...(lines.length > limit ? [more(lines.length - limit)] : [])].join('\n');
}

/**
 * A section in at most `room` characters where it can be: the first of `variants` (the same items'
 * lines, each shorter than the one before) whose first `limit` lines fit, else as many lines of
 * the last as fit, then a count of the rest — down to the title and the count alone, which is
 * returned even when it does not fit (what the section holds is said, never moved elsewhere).
 */
export function fitted(title: string, variants: string[][], limit: number, room: number, more: (n: number) => string): string {
  const section = (lines: string[], take: number) => `${title}\n${bounded(lines, take, more)}`;
  for (const lines of variants) {
    const text = section(lines, limit);
    if (text.length <= room) return text;
  }
  const last = variants[variants.length - 1]!;
  for (let take = Math.min(limit, last.length) - 1; take >= 1; take--) {
    const text = section(last, take);
    if (text.length <= room) return text;
  }
  return section(last, 0);
}

/** A text cut to `max` characters at a line end where it can be, marked when cut. */
export function cut(text: string, max: number, rest: string): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf('\n', max);
  return `${textHead(text, at > max / 2 ? at : max)}\n… (${rest})`;
}

/** The fewest characters of a text worth showing before its pointer; under it, the pointer alone. */
const SOME_TEXT = 60;

/**
 * A section of `title` and `text` in at most `room` characters (`cap` for the text at most): the
 * text cut at a line end with `rest` (where the whole is) after it, or the pointer alone when no
 * useful part of the text fits; null when not even the title and the pointer fit.
 */
export function fittedText(title: string, text: string, room: number, cap: number, rest: string): string | null {
  const pointer = `… (${rest})`;
  const whole = `${title}\n${text}`;
  if (text.length <= cap && whole.length <= room) return whole;
  // cut(): what it keeps, a newline and the pointer
  const max = Math.min(cap, room - title.length - 1 - pointer.length - 1);
  if (max >= SOME_TEXT) return `${title}\n${cut(text, max, rest)}`;
  const bare = `${title}\n${pointer}`;
  return bare.length <= room ? bare : null;
}
