import { type SimpleCommand, UNKNOWN } from './shell.ts';
import type { FolderState } from './subshell-folders.ts';
import { programIndex } from './syntax.ts';

/** Words that run the next one as the shell's own builtin, in this shell (`builtin eval`, `command eval`). */
const BUILTIN_RUNNERS = new Set(['builtin', 'command']);

/**
 * Whether the scripts a command hands on run in this shell — `eval`'s words, `trap`'s handler, the
 * file `source` and `.` read (`source x.sh`, `. <(…)`) — where a `cd` moves the commands after it;
 * every other script a command runs (`bash -c`, `sh -c`, `bash x.sh`, `bash <(…)`, `ssh host '…'`,
 * `su -c`, `watch '…'`, `npx -c`, make's recipes, an interpreter's program) runs in a process of its
 * own, whose folder ends with it.
 */
export function runsInThisShell(cmd: SimpleCommand): boolean {
  let i = programIndex(cmd.words);
  while (i >= 0 && i < cmd.words.length && BUILTIN_RUNNERS.has(cmd.words[i]!.value)) i++;
  const head = cmd.words[i]?.value;
  return head === 'eval' || head === 'trap' || head === 'source' || head === '.';
}

/**
 * Walks the scripts a command runs (`walk` each), the folder `state` holds kept for the commands
 * after it unless they run in this shell: `ssh host "cd /var/www; tar zcf - ." | tar zxf -` extracts
 * where the line is, `bash -c "cd /etc"; rm -rf x`, `bash <(echo 'cd /etc'); rm -rf x` and `echo 'cd
 * /etc' > x.sh && bash x.sh && rm -rf x` remove in the project; `eval "cd /etc"; rm -rf x` and
 * `source <(echo 'cd /etc'); rm -rf x` remove in /etc. `child`: the scripts run in a process of
 * their own whatever the command (a shell fed the text on its input: `echo 'cd /etc' | bash`, a
 * pipeline's stage being a subshell of its own).
 */
export function walkChildScripts(
  cmd: SimpleCommand,
  scripts: readonly string[],
  state: FolderState,
  walk: (script: string) => void,
  child = !runsInThisShell(cmd),
): void {
  if (!scripts.length) return;
  const saved: FolderState = { cwd: state.cwd, fallback: state.fallback, chained: state.chained };
  for (const s of scripts) walk(s);
  if (child) Object.assign(state, saved);
}

/** The variable a script is read with in place of the fresh path this shell expanded into it. */
const FRESH = '__axme_fresh_path';

/**
 * The scripts a command hands on, where this shell expanded the fresh path mktemp made into them
 * (`tmp=$(mktemp -d); trap "rm -rf $tmp" EXIT`, `bash -c "rm -rf $tmp"`): read with a variable of
 * the script's own set from `mktemp -d` in its place — a fresh path, or nothing when mktemp failed,
 * as `$tmp` is here (`rm -rf "$tmp"` removes it or nothing; `rm -rf $tmp/*` and `cd $tmp` do not
 * pass) — when every unknown of the command's words is one; else as written, what only this shell knows.
 */
export function freshScripts(cmd: SimpleCommand, scripts: readonly string[]): readonly string[] {
  const unknown = cmd.words.filter((w) => w.value.includes(UNKNOWN));
  if (!unknown.length || !unknown.every((w) => w.freshUnknowns === w.value.split(UNKNOWN).length - 1)) return scripts;
  return scripts.map((s) => (s.includes(UNKNOWN) ? `${FRESH}=$(mktemp -d)\n${s.replaceAll(UNKNOWN, `\${${FRESH}}`)}` : s));
}
