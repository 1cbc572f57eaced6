/**
 * A POSIX pattern's repeat with nothing before it to repeat — at the pattern's start, or after `^`,
 * a group's opening or an alternation's bar — read as GNU grep reads it, where JavaScript refuses
 * the pattern: in an extended pattern `*`, `+` and `?` there are ignored (`grep -Ev '(^*|main)'`
 * is `(^|main)`, which every line matches), in a basic one `*` there is a star itself
 * (`grep '^*main'` keeps the lines starting `*main`). Bracket expressions and escaped characters
 * are copied as they are.
 */
export function bareRepeats(pattern: string, extended: boolean): string {
  let out = '';
  // whether the next character starts an expression: nothing before it to repeat
  let start = true;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      const n = pattern[++i]!;
      out += c + n;
      start = !extended && (n === '(' || n === '|');
    } else if (c === '[') {
      const end = bracketEnd(pattern, i);
      out += pattern.slice(i, end);
      i = end - 1;
      start = false;
    } else if (start && (extended ? '*+?'.includes(c) : c === '*')) {
      // extended: dropped, and what follows still starts the expression; basic: a star itself
      if (!extended) {
        out += '\\*';
        start = false;
      }
    } else {
      out += c;
      start = c === '^' ? start : extended && (c === '(' || c === '|');
    }
  }
  return out;
}

/** The index just past the bracket expression opening at `open` (`[]a]`, `[^]a]`, `[[:alpha:]]`), or the pattern's end where it is not closed. */
function bracketEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === '[' && ':.='.includes(pattern[i + 1] ?? '')) {
      const close = pattern.indexOf(`${pattern[i + 1]}]`, i + 2);
      if (close >= 0) i = close + 1;
    } else if (pattern[i] === ']') return i + 1;
  }
  return pattern.length;
}
