import type { Invocation } from './command.ts';
import { parseArgs } from './families/system-args.ts';
import { generic, type PathUse } from './path-access.ts';
import type { Word } from './syntax.ts';

/**
 * The git subcommands that answer about a path's name, for path-uses.ts: `check-ignore` (is it
 * ignored, by which line), `check-attr`, `ls-files` (is it tracked), `ls-tree` and `status` print
 * names, modes, object ids and states, nothing of a file's content — its name and state shown
 * (path-access.ts `meta`), as `ls` shows them. `status -v` prints the staged diff, and a file of
 * exclude patterns (`ls-files -X FILE`) is opened: those are read.
 */

/** Each name query's options whose value is a file it opens. */
const OPENS: Record<string, ReadonlySet<string>> = {
  'check-ignore': new Set(),
  'check-attr': new Set(),
  'ls-files': new Set(['-X', '--exclude-from', '--exclude-per-directory']),
  'ls-tree': new Set(),
  status: new Set(),
};

/** The paths `git <sub> <rest>` names, shown (`meta`) when it only asks about them; null for any other subcommand, and for `status -v`. */
export function gitNameUses(inv: Invocation, sub: string, rest: readonly Word[]): PathUse[] | null {
  const opens = Object.hasOwn(OPENS, sub) ? OPENS[sub]! : null;
  if (!opens || (sub === 'status' && rest.some((w) => /^-[A-Za-z]*v/.test(w.value) || isVerbose(w.value)))) return null;
  const opened = new Set(parseArgs(rest, opens).valued.map((o) => o.word));
  return generic(inv, rest).map((u): PathUse => (opened.has(u.word) ? u : { ...u, access: 'meta' }));
}

/** `--verbose` or a prefix of it git takes for it (`--verb`). */
function isVerbose(v: string): boolean {
  return v.length > 3 && '--verbose'.startsWith(v);
}
