import { GIT_LONG_OPTIONS } from '../git-long-options.ts';
import { spellOut } from '../long-options.ts';

/**
 * How the git checks read a git subcommand's words: its options (short letters, long names
 * spelled out as git expands unique prefixes against git-long-options.ts, those that take the
 * next word) and its operands — one reading for branch, fetch, pull and push.
 */

/** Options (short letters and full long names, as git expands unique prefixes) and operands of a git subcommand. */
export function splitOptions(args: readonly string[], long: readonly string[], valued: ReadonlySet<string>): { flags: Set<string>; operands: string[] } {
  const flags = new Set<string>();
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!;
    if (v === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!v.startsWith('-') || v === '-') operands.push(v);
    else if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = spellOut(eq < 0 ? v : v.slice(0, eq), long);
      flags.add(name);
      if (eq < 0 && valued.has(name)) i++;
    } else {
      for (let k = 1; k < v.length; k++) {
        flags.add(v[k]!);
        if (valued.has(`-${v[k]}`)) {
          if (k === v.length - 1) i++;
          break;
        }
      }
    }
  }
  return { flags, operands };
}

/** git branch's options that take the next word (`--merged [<commit>]` takes one when it follows). */
export const BRANCH_VALUED: ReadonlySet<string> = new Set([
  '-u',
  '--set-upstream-to',
  '--contains',
  '--no-contains',
  '--merged',
  '--no-merged',
  '--points-at',
  '--sort',
  '--format',
]);

/** git push's options that take the next word, as `git push -h` lists them (`--force-with-lease` and `--signed` take theirs after `=` only). */
const PUSH_VALUED: ReadonlySet<string> = new Set(['-o', '--push-option', '--repo', '--receive-pack', '--exec', '--recurse-submodules']);

/** What a git push's words ask for, and its operands: the remote, then the refspecs. */
export interface PushWords {
  force: boolean;
  all: boolean;
  mirror: boolean;
  tags: boolean;
  followTags: boolean;
  del: boolean;
  dry: boolean;
  prune: boolean;
  positional: string[];
}

/** git push's words as git reads them (`-onx` is `-o nx`: no dry run; `--forc` is `--force`). */
export function pushWords(args: readonly string[]): PushWords {
  const { flags, operands } = splitOptions(args, GIT_LONG_OPTIONS.push!, PUSH_VALUED);
  const has = (...names: string[]) => names.some((n) => flags.has(n));
  return {
    force: has('f', '--force', '--force-with-lease', '--force-if-includes'),
    all: has('--all', '--branches'),
    mirror: has('--mirror'),
    tags: has('--tags'),
    followTags: has('--follow-tags'),
    del: has('d', '--delete'),
    dry: has('n', '--dry-run'),
    prune: has('--prune'),
    positional: operands,
  };
}
