import { shellQuote } from '../model/shell-quote.ts';

/**
 * The defaults of variables the command line does not set (docs/safety.md, "What a command line
 * runs"): `bash -c "${CMD:-rm -rf ~}"`, `: "${X:=rm -rf ~}"; eval "$X"`. Unset in the environment —
 * which the guard cannot see — the variable gives its default, so the line is walked a second time
 * as if the environment held that value (`CMD='rm -rf ~'` before it): each reading's findings
 * count. A default holding an expansion, a substitution or a quote is left to the shell (the word
 * stays unknown, as before), and a variable the line assigns itself is the line's to tell.
 */

/** `${NAME:-word}`, `${NAME-word}`, `${NAME:=word}`, `${NAME=word}` with a plain word. */
const DEFAULTED = /\$\{([A-Za-z_][A-Za-z0-9_]*):?[-=]([^}$`'"\\]+)\}/g;
/** How many variables' defaults are read: each is one more walk of the line. */
const MAX_VARIANTS = 4;

/** The line with each defaulted variable it does not assign set to its default before it; none when it has none. */
export function defaultValueVariants(src: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of src.matchAll(DEFAULTED)) {
    const [, name, value] = m as unknown as [string, string, string];
    if (seen.has(name) || out.length >= MAX_VARIANTS) continue;
    seen.add(name);
    // assigned by the line (`X=…`, `read X`, `for X in`, the variant itself): the line tells it
    if (new RegExp(`(^|[\\s;&|(])${name}=|\\b(read|for|local|declare|export|readonly|mapfile|readarray)\\b[^;&|\\n]*\\b${name}\\b`).test(src)) continue;
    out.push(`${name}=${shellQuote(value)}\n${src}`);
  }
  return out;
}
