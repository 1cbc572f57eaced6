// No zod here: the query at the tip (cli/tip-search-main.ts) checks its query with this on the CLI's fast path.

// eslint-disable-next-line no-control-regex
/** Control characters text may not hold: all but tab, newline and carriage return. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Bidirectional overrides and isolates, which make text display in an order other than it reads ("Trojan Source"). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
/**
 * Unicode tag characters (U+E0000–U+E007F): invisible on every screen, yet a model reads the ASCII
 * they spell, so text can carry an instruction no reviewer sees ("ASCII smuggling"). Their one
 * visible use, a subdivision flag (U+1F3F4, tags, U+E007F: England, Scotland, Wales), is text.
 */
const TAG = /[\u{E0000}-\u{E007F}]/u;
const TAG_FLAG = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
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

/**
 * Reason long text (a body: kept as given, so nothing invisible is removed from it) cannot be
 * stored, beyond textProblem's, or null: a tag character outside a subdivision flag. One-line
 * fields drop them instead (invisible.ts cleanLine).
 */
export function hiddenTextProblem(value: string): string | null {
  if (!TAG.test(value)) return null;
  // the flags blanked to the same length, so an offset is the original text's
  const tag = TAG.exec(value.replace(TAG_FLAG, (flag) => ' '.repeat(flag.length)));
  if (!tag) return null;
  return `contains a Unicode tag character (U+${tag[0].codePointAt(0)!.toString(16).toUpperCase()} at offset ${tag.index}), which displays as nothing while a model reads the text it spells; remove the tag characters`;
}
