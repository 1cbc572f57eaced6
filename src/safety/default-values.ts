import { shellQuote } from '../model/shell-quote.ts';

/**
 * The defaults of variables the command line does not set (docs/safety.md, "Shell commands are
 * parsed, not grepped"): `bash -c "${CMD:-rm -rf ~}"`, `: "${X:=rm -rf ~}"; eval "$X"`. Unset in the environment —
 * which the guard cannot see — the variable gives its default, so the line is walked a second time
 * as if the environment held every such default (`CMD='rm -rf ~'` before it): each reading's
 * findings count. A default holding an expansion, a substitution or a quote is left to the shell (the word
 * stays unknown, as before), and a variable the line assigns itself is the line's to tell.
 */

/**
 * `${NAME:-words}`, `${NAME-words}`, `${NAME:=words}`, `${NAME=words}` whose default is plain words,
 * more than one: a command line (`rm -rf ~`). A one-word default is most often a folder a script
 * lets its caller move (`${DPKG_ROOT:-/}var/lib/…`, `${PREFIX:-/usr/local}`): read as a value, every
 * such script would write the system's folders, so it stays unknown, as before.
 */
const DEFAULTED = /\$\{([A-Za-z_][A-Za-z0-9_]*):?[-=]([^}$`'"\\]+)\}/g;
/** A default of more than one word. */
const WORDS = /\S\s+\S/;
/** How many variables' defaults are read at most (the rest stay unknown). */
const MAX_DEFAULTS = 16;

/** The line with every defaulted variable it does not assign set to its default before it (one more reading); none when it has none. */
export function defaultValueVariants(src: string): string[] {
  const assigned: string[] = [];
  const seen = new Set<string>();
  for (const m of src.matchAll(DEFAULTED)) {
    const [, name, value] = m as unknown as [string, string, string];
    if (seen.has(name) || seen.size >= MAX_DEFAULTS || !WORDS.test(value)) continue;
    seen.add(name);
    // assigned by the line (`X=…`, `read X`, `for X in`, the variant itself): the line tells it
    if (new RegExp(`(^|[\\s;&|(])${name}=|\\b(read|for|local|declare|export|readonly|mapfile|readarray)\\b[^;&|\\n]*\\b${name}\\b`).test(src)) continue;
    assigned.push(`${name}=${shellQuote(value)}`);
  }
  return assigned.length ? [`${assigned.join('; ')}\n${src}`] : [];
}
