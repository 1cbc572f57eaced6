import type { Word } from './syntax.ts';

/**
 * Long options as GNU getopt and git's parse-options read them: any unique prefix of a known
 * option is that option (`mv --b` is `--backup`, `git restore --patc` is `--patch`). The known
 * options of the GNU programs path-uses.ts reads word by word, and the one resolver (git's own
 * subcommands: git-long-options.ts).
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

/** Every long option of GNU grep (3.8; egrep, fgrep and rgrep too), against which an abbreviation (`--reg`, `--fil`) is resolved. */
export const GREP_LONG_OPTIONS: readonly string[] = [
  '--after-context',
  '--basic-regexp',
  '--before-context',
  '--binary',
  '--binary-files',
  '--byte-offset',
  '--color',
  '--colour',
  '--context',
  '--count',
  '--dereference-recursive',
  '--devices',
  '--directories',
  '--exclude',
  '--exclude-dir',
  '--exclude-from',
  '--extended-regexp',
  '--file',
  '--files-with-matches',
  '--files-without-match',
  '--fixed-strings',
  '--group-separator',
  '--help',
  '--ignore-case',
  '--include',
  '--initial-tab',
  '--invert-match',
  '--label',
  '--line-buffered',
  '--line-number',
  '--line-regexp',
  '--max-count',
  '--no-filename',
  '--no-group-separator',
  '--no-ignore-case',
  '--no-messages',
  '--null',
  '--null-data',
  '--only-matching',
  '--perl-regexp',
  '--quiet',
  '--recursive',
  '--regexp',
  '--silent',
  '--text',
  '--version',
  '--with-filename',
  '--word-regexp',
];

/** Every long option of GNU rm (coreutils 9), against which an abbreviation (`--recu`, `--no-pres`) is resolved. */
export const RM_LONG_OPTIONS: readonly string[] = [
  '--force',
  '--interactive',
  '--one-file-system',
  '--no-preserve-root',
  '--preserve-root',
  '--recursive',
  '--dir',
  '--verbose',
  '--help',
  '--version',
];

/** A long option spelled out in full against `known`: a unique prefix is the option it begins (`--b` for `--backup`, `--targ=/tmp`); an exact name, an ambiguous or unknown prefix stay as they are. */
export function spellOut(v: string, known: readonly string[]): string {
  const eq = v.indexOf('=');
  const typed = eq < 0 ? v : v.slice(0, eq);
  if (known.includes(typed)) return v;
  const hits = known.filter((k) => k.startsWith(typed));
  return hits.length === 1 ? hits[0]! + (eq < 0 ? '' : v.slice(eq)) : v;
}

/**
 * The words with each long option spelled out in full, as GNU getopt and git's parse-options read
 * them (spellOut); every word after `--` stays as it is.
 */
export function spelledOut(args: readonly Word[], known: readonly string[]): Word[] {
  const names = spelledOutNames(
    args.map((w) => w.value),
    known,
  );
  return args.map((w, i) => (names[i] === w.value ? w : { ...w, value: names[i]! }));
}

/** spelledOut of plain words. */
export function spelledOutNames(args: readonly string[], known: readonly string[]): string[] {
  const end = args.indexOf('--');
  return args.map((v, i) => ((end >= 0 && i > end) || !v.startsWith('--') || v === '--' ? v : spellOut(v, known)));
}
