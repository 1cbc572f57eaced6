import type { Word } from './syntax.ts';

/**
 * Long options as GNU getopt and git's parse-options read them: any unique prefix of a known
 * option is that option (`mv --b` is `--backup`, `git restore --patc` is `--patch`). The known
 * options of the programs path-uses.ts reads word by word, and the one resolver.
 */

/** Every long option of GNU cp, install, ln and mv (coreutils 9), against which an abbreviation (`--b`, `--t`) is resolved. */
export const TRANSFER_LONG_OPTIONS: Record<string, readonly string[]> = {
  cp: [
    '--archive',
    '--attributes-only',
    '--backup',
    '--copy-contents',
    '--debug',
    '--force',
    '--interactive',
    '--link',
    '--dereference',
    '--no-clobber',
    '--no-dereference',
    '--preserve',
    '--no-preserve',
    '--parents',
    '--recursive',
    '--reflink',
    '--remove-destination',
    '--sparse',
    '--strip-trailing-slashes',
    '--symbolic-link',
    '--suffix',
    '--target-directory',
    '--no-target-directory',
    '--update',
    '--verbose',
    '--keep-directory-symlink',
    '--one-file-system',
    '--context',
    '--help',
    '--version',
  ],
  mv: [
    '--backup',
    '--debug',
    '--exchange',
    '--force',
    '--interactive',
    '--no-clobber',
    '--no-copy',
    '--strip-trailing-slashes',
    '--suffix',
    '--target-directory',
    '--no-target-directory',
    '--update',
    '--verbose',
    '--context',
    '--help',
    '--version',
  ],
  ln: [
    '--backup',
    '--directory',
    '--force',
    '--interactive',
    '--logical',
    '--no-dereference',
    '--physical',
    '--relative',
    '--symbolic',
    '--suffix',
    '--target-directory',
    '--no-target-directory',
    '--verbose',
    '--help',
    '--version',
  ],
  install: [
    '--backup',
    '--compare',
    '--debug',
    '--directory',
    '--group',
    '--mode',
    '--owner',
    '--preserve-timestamps',
    '--strip',
    '--strip-program',
    '--suffix',
    '--target-directory',
    '--no-target-directory',
    '--verbose',
    '--preserve-context',
    '--context',
    '--help',
    '--version',
  ],
};

/**
 * The words with each long option spelled out in full, as GNU getopt and git's parse-options read
 * them: a unique prefix of one of `known` (`--b` for `--backup`, `--targ=/tmp`) is that option;
 * an exact name, an ambiguous or unknown prefix, and every word after `--` stay as they are.
 */
export function spelledOut(args: readonly Word[], known: readonly string[]): Word[] {
  const end = args.findIndex((w) => w.value === '--');
  return args.map((w, i) => {
    const v = w.value;
    if ((end >= 0 && i > end) || !v.startsWith('--') || v === '--') return w;
    const eq = v.indexOf('=');
    const typed = eq < 0 ? v : v.slice(0, eq);
    if (known.includes(typed)) return w;
    const hits = known.filter((k) => k.startsWith(typed));
    return hits.length === 1 ? { ...w, value: hits[0]! + (eq < 0 ? '' : v.slice(eq)) } : w;
  });
}

/** The long options of git checkout and restore (`git checkout -h`), against which an abbreviation (`--patc`, `--stag`) is resolved. */
export const GIT_WRITER_LONG: Record<string, readonly string[]> = {
  checkout: [
    '--quiet',
    '--progress',
    '--no-progress',
    '--force',
    '--ours',
    '--theirs',
    '--track',
    '--no-track',
    '--guess',
    '--no-guess',
    '--detach',
    '--orphan',
    '--ignore-skip-worktree-bits',
    '--merge',
    '--conflict',
    '--patch',
    '--ignore-other-worktrees',
    '--overwrite-ignore',
    '--no-overwrite-ignore',
    '--recurse-submodules',
    '--no-recurse-submodules',
    '--overlay',
    '--no-overlay',
    '--pathspec-from-file',
    '--pathspec-file-nul',
  ],
  restore: [
    '--source',
    '--patch',
    '--worktree',
    '--staged',
    '--quiet',
    '--progress',
    '--no-progress',
    '--ours',
    '--theirs',
    '--merge',
    '--conflict',
    '--ignore-unmerged',
    '--ignore-skip-worktree-bits',
    '--recurse-submodules',
    '--no-recurse-submodules',
    '--overlay',
    '--no-overlay',
    '--pathspec-from-file',
    '--pathspec-file-nul',
  ],
};
