import type { Invocation } from '../command.ts';
import { gitSubcommandAt } from '../git-global-options.ts';
import type { SimpleCommand } from '../shell.ts';
import type { Hit } from './args.ts';

/**
 * Uncommitted work stashed, then dropped on the same line (docs/safety.md, the `gitHistory` row):
 * `git stash -u && git stash drop` discards the changes (the untracked files too, with `-u`/`-a`)
 * as `git reset --hard && git clean -fd` would; the entry it made is then found again only among
 * dangling commits. The drop of the newest entry (no name, `stash@{0}`, `0`) after a stash that
 * saves, with no `apply`, `pop` or `branch` between that takes the work back, is read so; a drop
 * of another entry, and `git stash && git pull && git stash pop`, pass.
 */

/** The stash subcommands that do not save the work: the rest (`push`, `save`, none, or an option) saves it as the newest entry. */
const NOT_SAVING = new Set(['list', 'show', 'drop', 'clear', 'create', 'store', 'apply', 'pop', 'branch']);
/** Those that take an entry's work back into the tree: what was stashed is kept. */
const TAKES_BACK = new Set(['apply', 'pop', 'branch']);

/** The stash verb of a git invocation (`push` for a bare `git stash`), or null for another git command. */
function stashVerb(inv: Invocation | null): { verb: string; rest: string[] } | null {
  if (inv?.program !== 'git') return null;
  const args = inv.args.map((w) => w.value);
  const at = gitSubcommandAt(args);
  if (args[at] !== 'stash') return null;
  const next = args[at + 1];
  const verb = next === undefined || next.startsWith('-') ? 'push' : next;
  return { verb, rest: args.slice(at + (verb === next ? 2 : 1)) };
}

/** The first `git stash` that saves, later dropped as the newest entry with nothing taking it back between; null where none is. */
export function checkStashDiscard(commands: readonly SimpleCommand[], invOf: (c: SimpleCommand) => Invocation | null): Hit | null {
  let saved = false;
  for (const c of commands) {
    const s = stashVerb(invOf(c));
    if (!s) continue;
    if (!NOT_SAVING.has(s.verb)) saved = true;
    else if (TAKES_BACK.has(s.verb)) saved = false;
    else if (saved && s.verb === 'drop') {
      const entry = s.rest.filter((a) => !a.startsWith('-'))[0];
      if (entry === undefined || entry === '0' || entry === 'stash@{0}')
        return {
          rule: 'stash then drop',
          reason:
            '`git stash` then `git stash drop` on one line discards the uncommitted work it stashed, as `git reset --hard` would: the entry is then found again only among dangling commits',
        };
    }
  }
  return null;
}
