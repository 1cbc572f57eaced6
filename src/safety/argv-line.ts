import { shellQuote } from '../model/shell-quote.ts';

/**
 * An argv a program hands on as it is (no shell between: `screen -X exec`, `watchexec -n`, Tcl's
 * `exec`), as one shell line that gives the same words: each quoted where the shell would split or
 * expand it, but a bare `~` or `~/…` kept, read as the home folder (the safe side).
 */
export function argvLine(values: readonly string[]): string {
  return values.map((v) => (/^~[A-Za-z0-9_@%+=:,./-]*$/.test(v) ? v : shellQuote(v))).join(' ');
}
