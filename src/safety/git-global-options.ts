/**
 * git's global options, those before its subcommand (`git -C DIR -c k=v push`), as git reads them
 * (git.c handle_options; `git -h` lists most): which take a value, and where it stands — the next
 * word (`-C DIR`), after `=` (`--exec-path=DIR`), or either (`--git-dir DIR`, `--git-dir=DIR`).
 * Any other word starting with `-` is a flag here. The one table every check that looks for git's
 * subcommand reads.
 */

/** Where a global option's value stands: the next word, after `=` in the same word, or either. */
type ValueAt = 'next' | 'joined' | 'either';

/** git's global options that take a value (`--super-prefix`: git before 2.41; `--attr-source`: 2.42 on). */
export const GIT_GLOBAL_VALUED = {
  '-C': 'next',
  '-c': 'next',
  '--git-dir': 'either',
  '--work-tree': 'either',
  '--namespace': 'either',
  '--config-env': 'either',
  '--super-prefix': 'either',
  '--attr-source': 'either',
  '--shallow-file': 'next',
  '--exec-path': 'joined',
  '--list-cmds': 'joined',
} as const satisfies Record<string, ValueAt>;

const VALUED: ReadonlyMap<string, ValueAt> = new Map(Object.entries(GIT_GLOBAL_VALUED));

/** A global option read: its name, its value (undefined for a flag), and where the word after it stands. */
export interface GitGlobalOption {
  name: string;
  value: string | undefined;
  next: number;
}

/** The global option at `args[i]` (a word starting with `-`) and its value, as git reads it. */
export function gitGlobalOption(args: readonly string[], i: number): GitGlobalOption {
  const word = args[i]!;
  const eq = word.startsWith('--') ? word.indexOf('=') : -1;
  if (eq > 0) {
    const name = word.slice(0, eq);
    const at = VALUED.get(name);
    if (at === 'joined' || at === 'either') return { name, value: word.slice(eq + 1), next: i + 1 };
  }
  const at = VALUED.get(word);
  return at === 'next' || at === 'either' ? { name: word, value: args[i + 1], next: i + 2 } : { name: word, value: undefined, next: i + 1 };
}

/** Where git's subcommand stands in `args` (git's words after the program), past its global options; `args.length` when none follows. */
export function gitSubcommandAt(args: readonly string[]): number {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i = gitGlobalOption(args, i).next;
  return Math.min(i, args.length);
}

/**
 * The folder git works in after its `-C` options (`git -C ~ add .ssh` names `~/.ssh`), each taken
 * from the one before as git does; `cwd` without one; null where a `-C` names a folder only the
 * shell knows. `resolve` makes a value absolute against a folder (`~` expanded).
 */
export function gitWorkingFolder(args: readonly string[], cwd: string, resolve: (value: string, from: string) => string | null): string | null {
  let dir: string | null = cwd;
  for (let i = 0; i < args.length && args[i]!.startsWith('-'); ) {
    const { name, value, next } = gitGlobalOption(args, i);
    if (name === '-C' && value !== undefined && value !== '' && dir !== null) dir = resolve(value, dir);
    i = next;
  }
  return dir;
}
