import { printsCacheFolder } from './cache-folder-queries.ts';
import { programName } from './command.ts';
import { gitSubcommandAt } from './git-global-options.ts';
import { ownCommands } from './known-folders.ts';
import { UNKNOWN } from './shell.ts';
import { plainWord, programIndex, type Script, type SimpleCommand, type Word } from './syntax.ts';

/**
 * What the lines a program prints name, for a removal handed them (docs/safety.md, "What a
 * substitution prints"): through a pipe (`| xargs rm -rf`, `| parallel rm -rf`, `| while read
 * f`), a substitution (`rm -rf $(…)`) or a variable set from one. A listing (find, ls, stat) is
 * the find that lists the same paths; the paths of the project (`git ls-files`, `fd`, `grep -l`)
 * and what `mktemp`, `npm root` and `date` print are no folder picked from afar; `echo` and
 * `printf` of literal words are known words; anything else prints names the command line does not
 * tell — any folder, / and the home folder among them.
 */
export type PrintedNames = { names: 'listed'; find: Word[] } | { names: 'project' | 'disposable' | 'static' } | { names: 'unknown'; program: string };

/** The end of every reason given for a removal of names a program prints. */
export const UNKNOWN_NAMES =
  'which the command line does not tell: any folder, / and the home folder among them; name the folders, or list them with find or git ls-files';

/** What `program ARGS` prints names (see the module comment). */
export function printedNames(program: string, args: readonly Word[]): PrintedNames {
  const find = listingAsFind(program, args);
  if (find) return { names: 'listed', find };
  const values = args.map((a) => a.value);
  if (listsProjectPaths(program, values)) return { names: 'project' };
  if (printsDisposable(program, values)) return { names: 'disposable' };
  if ((program === 'echo' || program === 'printf') && !values.some((v) => v.includes(UNKNOWN))) return { names: 'static' };
  return { names: 'unknown', program };
}

/**
 * What a substitution prints names, when it runs one command of its own (its words from the
 * program on; `$(< list)` is `cat list`); null for several (`$(cd x && pwd)`: known-folders.ts).
 */
export function substitutionPrints(sub: Script): PrintedNames | null {
  const own = sub.tooDeep ? [] : ownCommands(sub);
  if (own.length !== 1) return null;
  return commandPrints(own[0]!);
}

/** What a simple command prints names: its words from the program on (assignments before it skipped); a `< file` alone is `cat file`. */
export function commandPrints(cmd: SimpleCommand): PrintedNames {
  const words = fromProgram(cmd);
  if (!words.length) return { names: 'unknown', program: 'cat' };
  return printedNames(programName(words[0]!.value), words.slice(1));
}

/** A simple command's words from its program on: the assignments before it skipped. */
function fromProgram(cmd: SimpleCommand): Word[] {
  const at = programIndex(cmd.words);
  return at < 0 ? [] : cmd.words.slice(at);
}

/**
 * The arguments of the find that lists what `program ARGS` lists: a find itself; `ls DIRS` (`.`
 * without one) as `find DIRS -mindepth 1 -maxdepth 1` — what is in them, by their names — `ls -d`
 * as `-maxdepth 0`, `ls -R` as every depth; `stat FILES` as `find FILES -maxdepth 0`; `du` (duAsFind).
 * Null for any other program.
 */
export function listingAsFind(program: string, args: readonly Word[]): Word[] | null {
  const values = args.map((a) => a.value);
  if (program === 'find') return [...args];
  // `stat -c %n .env.local`: what it prints is about its operands, each by its name
  if (program === 'stat') {
    const named = args.filter((w, i) => !w.value.startsWith('-') && !/^(-c|--format|--printf)$/.test(values[i - 1] ?? ''));
    return named.length ? [...named, plainWord('-maxdepth'), plainWord('0')] : null;
  }
  if (program === 'du') return duAsFind(args);
  if (program !== 'ls') return null;
  const ls = lsReads(args);
  const depth = ls.operandsOnly ? ['-maxdepth', '0'] : ls.recursive ? ['-mindepth', '1'] : ['-mindepth', '1', '-maxdepth', '1'];
  return [...ls.dirs, ...depth.map(plainWord)];
}

/** du's short options that take a value (GNU: `-B 1K`, `-d 1`, `-t 1M`, `-X FILE`) and its long ones (`--max-depth 1` or `=1`). */
const DU_VALUED_SHORT = new Set(['B', 'd', 't', 'X']);
const DU_VALUED_LONG = new Set(['--block-size', '--max-depth', '--threshold', '--exclude-from', '--exclude', '--time', '--time-style', '--files0-from']);

/**
 * `du ARGS` as the find that lists the same paths: with `-a` every file and folder at every depth,
 * without it the folders only (`-type d`), `-s` its operands (`-maxdepth 0`), `-d N` /
 * `--max-depth=N` as deep; its operands (`.` without one). Null for `--files0-from` (the names are
 * in a file).
 */
function duAsFind(args: readonly Word[]): Word[] | null {
  const operands: Word[] = [];
  let all = false;
  let summarize = false;
  let depth: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (v.startsWith('--')) {
      const [name, inline] = v.includes('=') ? [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)] : [v, null];
      if (name === '--files0-from') return null;
      if (name === '--all') all = true;
      if (name === '--summarize') summarize = true;
      if (DU_VALUED_LONG.has(name)) {
        const value = inline ?? args[++i]?.value ?? null;
        if (name === '--max-depth') depth = value;
      }
      continue;
    }
    if (v.startsWith('-') && v.length > 1) {
      for (let j = 1; j < v.length; j++) {
        const c = v[j]!;
        if (c === 'a') all = true;
        if (c === 's') summarize = true;
        if (DU_VALUED_SHORT.has(c)) {
          const value = j + 1 < v.length ? v.slice(j + 1) : (args[++i]?.value ?? null);
          if (c === 'd') depth = value;
          break;
        }
      }
      continue;
    }
    operands.push(args[i]!);
  }
  const limit = summarize ? '0' : depth !== null && /^\d+$/.test(depth) ? depth : null;
  return [
    ...(operands.length ? operands : [plainWord('.')]),
    ...(limit !== null ? ['-maxdepth', limit] : []).map(plainWord),
    ...(all || summarize ? [] : ['-type', 'd']).map(plainWord),
  ];
}

/** The folders whose entries a command prints by their bare names: `ls DIRS` (`.` without one); none with `-d`, which prints its operands. */
export function listedFolders(cmd: SimpleCommand): Word[] {
  const [program, ...args] = fromProgram(cmd);
  const ls = program && programName(program.value) === 'ls' ? lsReads(args) : null;
  return ls && !ls.operandsOnly ? ls.dirs : [];
}

/** What `ls ARGS` lists: its operands (`.` without one), only them (`-d`) or everything below them (`-R`). */
function lsReads(args: readonly Word[]): { dirs: Word[]; operandsOnly: boolean; recursive: boolean } {
  const options = args.map((a) => a.value).filter((v) => v.startsWith('-') && v !== '-' && v !== '--');
  const dirs = args.filter((w) => !w.value.startsWith('-') || w.value === '-');
  const short = options.filter((o) => !o.startsWith('--')).join('');
  return {
    dirs: dirs.length ? dirs : [plainWord('.')],
    operandsOnly: short.includes('d') || options.includes('--directory'),
    recursive: short.includes('R') || options.includes('--recursive'),
  };
}

/** The programs whose every line is a path of the project (fd), and those that print paths only with a listing option (`grep -l`, `git ls-files`). */
const PATH_FINDERS = new Set(['fd', 'fdfind']);
const MATCH_LISTERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack']);
/** The searchers' short options that take a value: in a cluster after one of them, an `l` is that value's. */
const SEARCH_VALUED = /[efmABCdDgGt]/;
/** git's subcommands that list paths (`status`: the changed ones, by their names). */
const GIT_LISTINGS = new Set(['ls-files', 'ls-tree', 'status']);
/** `git grep`'s options that make it print the names of the files that match (or do not), not their lines. */
const GIT_GREP_NAMES = new Set(['-l', '-L', '--files-with-matches', '--name-only', '--files-without-match']);

/**
 * Whether what `program ARGS` prints is paths of the project (`git ls-files`, `git diff
 * --name-only`, `grep -rl`, `rg --files`, `fd`): no folder picked from afar. Without a listing
 * option grep and git print lines of a file (`grep -v keep list`, `git show HEAD:dirs.txt`).
 */
function listsProjectPaths(program: string, values: readonly string[]): boolean {
  // fd's search paths after its pattern: one outside the project (`fd -H . ~/.ssh`) prints paths from afar
  if (PATH_FINDERS.has(program)) return !values.slice(1).some((v) => /^(?:\/|~|\.\.(?:\/|$)|\$)/.test(v) || v.includes(UNKNOWN));
  if (MATCH_LISTERS.has(program))
    return values.some(
      (v) =>
        /^--(files|files-with(out)?-matches|files-without-match|name-only)$/.test(v) ||
        (/^-[A-Za-z]/.test(v) && /[lL]/.test(v.slice(1).split(SEARCH_VALUED)[0]!)) ||
        (program === 'ack' && v === '-f'),
    );
  if (program !== 'git') return false;
  const at = gitSubcommandAt(values);
  const sub = values[at];
  if (sub && GIT_LISTINGS.has(sub)) return true;
  const after = values.slice(at + 1);
  return after.some((v) => v === '--name-only' || (sub === 'grep' && (GIT_GREP_NAMES.has(v) || /^-[A-Za-z]*[lL]/.test(v))));
}

/**
 * Whether what `program ARGS` prints is no loss to remove whatever it is: `mktemp` (a folder or
 * file it has just made), `npm root` without `-g` (the node_modules of the nearest package, never
 * the package itself), `date` with a format of no `/` (a name in the folder it runs in), or a
 * package manager's own cache folder (cache-folder-queries.ts: `$(poetry config cache-dir)`).
 */
function printsDisposable(program: string, values: readonly string[]): boolean {
  if (program === 'mktemp') return values.every((v) => !v.includes(UNKNOWN));
  if (program === 'date') return values.every((v) => !v.includes(UNKNOWN) && !v.includes('/'));
  return (program === 'npm' && values[0] === 'root' && values.length === 1) || printsCacheFolder(program, values);
}
