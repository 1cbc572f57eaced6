/** `n what(s)`. */
export const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The first `max` items, comma-separated, then how many more. */
export function list(items: string[], max: number): string {
  return items.length > max ? `${items.slice(0, max).join(', ')}, and ${items.length - max} more` : items.join(', ');
}

/** `t` on one line (white space folded), at most `max` characters, in double quotes: a person's words in a session's texts. */
export const quote = (t: string, max = Number.POSITIVE_INFINITY) => `"${t.replace(/\s+/g, ' ').trim().slice(0, max)}"`;
