import type { SimpleCommand } from './shell.ts';
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
