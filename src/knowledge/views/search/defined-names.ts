// The identifiers a text defines: the names on its defining lines, which an item's document counts
// among its keywords (item-document.ts `docOf`), since that item is where the name is explained.

/** A fence of Markdown code: what is inside is an example, not a definition. */
const FENCE = /^\s{0,3}(```|~~~)/;
/** A Markdown heading (a sub-heading of the item's text): what it names. */
const HEADING = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/;
/** A table row: its first cell, the thing the row is about. */
const TABLE_ROW = /^\s*\|([^|]+)\|/;
/** A table's rule under its head (`|---|:--:|`). */
const TABLE_RULE = /^\s*\|?\s*:?-{2,}/;
/** A list line or a line that starts with code, then a colon or a dash: `- \`--no-verify\`: skip the hooks`, `` `name`: text ``. */
const LIST_CODE = /^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+)`([^`]+)`/;
const CODE_LEAD = /^\s*`([^`]+)`\s*(?::|\s[-\u2013\u2014]\s)/;
/** An AsciiDoc entry (`rebase.autoStash::`, `-n::`): the term before the colons. */
const ENTRY = /^\s*(\S[^:]*?)::\s*$/;
/**
 * A manual page's entry as `man` lays it out: the term alone on its line (names and flags, comma
 * separated, an argument in `<>` or `[]`), its text indented further on the next line.
 */
const TERM_LINE = /^(\s*)([-\w.:/@#$]+(?:[ =]?(?:<[^>]*>|\[[^\]]*\]))?(?:,\s+[-\w.:/@#$]+(?:[ =]?(?:<[^>]*>|\[[^\]]*\]))?)*)\s*$/;
/** An identifier: letters and digits joined by `-_./:#@` (`core.hooksPath`, `--no-verify`, `DEBUG_COLORS`) or written in lowerCamelCase (`parameterLimit`). */
const TOKEN = /-{0,2}[A-Za-z0-9]+(?:[-_./:#@]+[A-Za-z0-9]+)*/g;
const CONNECTED = /[-_./:#@]/;
const LOWER_CAMEL = /^[a-z][a-z0-9]*[A-Z]/;
/** Words of letters joined by single hyphens, as prose joins them (`cross-origin`): no identifier. */
const PROSE_COMPOUND = /^[A-Za-z]+(?:-[A-Za-z]+)+$/;

/** The identifiers of a defining line's head, each once, in order. */
function identifiersOf(head: string, into: string[]): void {
  for (const [raw] of head.matchAll(TOKEN)) {
    const name = raw.replace(/[-_./:#@]+$/, '');
    const flag = name.startsWith('-');
    if (!flag && !CONNECTED.test(name) && !LOWER_CAMEL.test(name)) continue;
    if (!flag && PROSE_COMPOUND.test(name)) continue;
    if (/^-+$/.test(name) || !/[A-Za-z]/.test(name)) continue;
    if (!into.includes(name)) into.push(name);
  }
}

/** The indentation of a line, in characters (a tab counts as eight, as `man` lays text out). */
const indentOf = (line: string) => {
  let n = 0;
  for (const c of line) {
    if (c === ' ') n++;
    else if (c === '\t') n += 8 - (n % 8);
    else break;
  }
  return n;
};

/**
 * The identifiers `text` defines (each once, in order): those on a sub-heading, in a table row's
 * first cell, at the head of a list line or of a line that names code then a colon, in an
 * AsciiDoc entry (`rebase.autoStash::`), or alone on a line whose text is indented under it (a
 * manual page's settings and options). An identifier is written with `-_./:#@` or in
 * lowerCamelCase, or is a flag; words hyphened as prose are not one. Text inside a code fence
 * defines nothing, nor does a mention in prose.
 */
export function definedNames(text: string): string[] {
  const names: string[] = [];
  // most texts have no line that can define anything: nothing is split
  if (!/[#|`:]|\n\s/.test(text)) return names;
  const lines = text.split('\n');
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (FENCE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const head =
      HEADING.exec(line)?.[1] ??
      (TABLE_RULE.test(line) ? undefined : TABLE_ROW.exec(line)?.[1]) ??
      LIST_CODE.exec(line)?.[1] ??
      CODE_LEAD.exec(line)?.[1] ??
      ENTRY.exec(line)?.[1] ??
      termLine(lines, i);
    if (head) identifiersOf(head, names);
  }
  return names;
}

/** The term of a manual page's entry at line `i` (`TERM_LINE`, the next line with text indented further), or undefined. */
function termLine(lines: readonly string[], i: number): string | undefined {
  const m = TERM_LINE.exec(lines[i]!);
  if (!m) return undefined;
  const next = lines[i + 1];
  if (next === undefined || !next.trim()) return undefined;
  return indentOf(next) > indentOf(lines[i]!) ? m[2] : undefined;
}
