/**
 * Text for a terminal. What axme prints holds text it did not write: a commit's subject and
 * author from a remote (`axme log`, `axme history`, a sync's settled lines), a ref's name, a
 * path in an error. git lets those hold escape sequences, and a terminal obeys them: OSC 52
 * writes the clipboard (what the user pastes next), OSC 8 makes a link, a cursor move or an
 * erase hides the lines above (a warning), a carriage return overwrites a line. So every control
 * character the CLI prints is shown as its escape (`\u001b`), but a newline, a tab and the
 * colours axme itself prints (SGR_CODES), and so is a bidirectional override or isolate (a line
 * displayed in another order than it reads). In JSON (a string's raw control character as its
 * escape) the value stays the same.
 */

/** The SGR parameters axme's own colours use (knowledge/review/diff/render-diff.ts): bold, dim, their reset, red, green, yellow, cyan, the default colour, reset. */
export const SGR_CODES = { reset: 0, bold: 1, dim: 2, normal: 22, red: 31, green: 32, yellow: 33, cyan: 36, defaultColor: 39 } as const;

const OWN_SGR = new Set<string>(Object.values(SGR_CODES).map(String));

/** One character a terminal obeys rather than shows: a C0 or C1 control (but newline and tab), or a bidirectional override or isolate, which displays a line in another order than it reads. */
// eslint-disable-next-line no-control-regex
const OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** An SGR sequence (its parameters captured) or one character OBEYED. */
const CONTROL = new RegExp(`\\x1b\\[([0-9;]*)m|${OBEYED.source}`, 'g');

/** `text` with every control character but newline and tab, and every bidirectional override and isolate, shown as `\uXXXX`; an SGR sequence of axme's own colours (SGR_CODES) kept. */
export function terminalText(text: string): string {
  return text.replace(CONTROL, (m, sgr: string | undefined) => {
    if (sgr !== undefined && sgr.split(';').every((p) => OWN_SGR.has(p === '' ? '0' : p))) return m;
    return [...m].map((c) => (OBEYED.test(c) ? escapeOf(c) : c)).join('');
  });
}

const escapeOf = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
