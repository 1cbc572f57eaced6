// No zod here: the query at the tip (cli/tip-search-main.ts) checks its query with this on the CLI's fast path.

// eslint-disable-next-line no-control-regex
/** Control characters text may not hold: all but tab, newline and carriage return. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Bidirectional overrides and isolates, which make text display in an order other than it reads ("Trojan Source"). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
const REFUSED = new RegExp(`${CONTROL.source}|${BIDI.source}`, 'g');

/**
 * `value` as text `textProblem` accepts: what it refuses made a space (a control character, a
 * bidirectional mark), a lone surrogate U+FFFD. For text taken as it comes (a prompt with
 * terminal output pasted in, which recall searches by).
 */
export function asText(value: string): string {
  return value.replace(REFUSED, ' ').toWellFormed();
}

/**
 * Reason a string cannot be stored as text, or null when it can: binary data (NUL and other
 * control characters except tab/newline/CR) and broken UTF-16 (lone surrogates) are refused.
 */
export function textProblem(value: string): string | null {
  const bad = CONTROL.exec(value);
  if (bad) {
    const code = bad[0].charCodeAt(0).toString(16).padStart(2, '0');
    const what = code === '00' ? 'a NUL byte' : `control character 0x${code}`;
    return `contains binary data (${what} at offset ${bad.index}); only text can be stored`;
  }
  if (!value.isWellFormed()) return 'is not valid Unicode text (lone surrogate)';
  const bidi = BIDI.exec(value);
  if (bidi)
    return `contains a bidirectional control character (U+${bidi[0].charCodeAt(0).toString(16).toUpperCase()} at offset ${bidi.index}) that makes text display in another order than it reads ("Trojan Source"); remove it: text in any script displays in its own direction without it`;
  return null;
}
