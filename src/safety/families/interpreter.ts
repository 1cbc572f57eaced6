import type { Invocation } from '../command.ts';
import { inlineCode, languageOf } from './interpreter-argv.ts';
import { commandLines } from './interpreter-calls.ts';

/**
 * The interpreter family (docs/safety.md): the shell commands an interpreter one-liner would run
 * (its shell-outs, and its recursive deletes as `rm -rf <path>`), to be checked like any other.
 *
 * Heuristic by nature: the code passed inline (`python -c`, `node -e`/`-p`, `bun -e`, `deno eval`,
 * `perl -e`, `ruby -e`, `php -r`, `lua -e`, an awk program, `osascript -e`; interpreter-argv.ts)
 * is scanned for the calls that run commands or delete, write or read files
 * (interpreter-calls.ts), and only their literal arguments are read (interpreter-values.ts): a
 * call whose command or path is a variable, a computed string or an interpolation is not seen.
 * Scripts in files, stdin and `python -m` are not read either.
 */
export function interpreterScripts(inv: Invocation): string[] {
  const lang = languageOf(inv.program);
  if (!lang) return [];
  const code = inlineCode(inv.program, lang, inv.args.map((w) => w.value));
  return code ? commandLines(code, lang) : [];
}
