import { shellQuote } from '../model/shell-quote.ts';
import { argvOf } from './bash-rules.ts';
import { type Invocation, programName, SHELLS } from './command.ts';
import { printedBy } from './expand.ts';
import type { Finding } from './git-rules.ts';
import { parallelLine, parallelScripts } from './parallel.ts';
import { removesRecursively } from './removal.ts';
import { parseShell, type SimpleCommand, UNKNOWN } from './shell.ts';

/**
 * What one stage of a pipeline feeds the next, where the command line itself tells it: the text
 * a static stage writes (`echo …`, `printf …`, `cat <<EOF`), and the commands xargs and GNU
 * parallel build from the words they read (`echo / | xargs rm -rf`, `find ~ | parallel rm -rf`).
 */

/**
 * The text a pipeline stage writes when it is static: `echo "..."`, `printf '...'` (as expand.ts
 * printedBy reads them; a format it does not read, its words side by side), `cat <<EOF`, `tee
 * FILE <<< '...'` (tee passes its input on).
 */
export function fedText(cmd: SimpleCommand, inv: Invocation | null): string | null {
  const input = cmd.redirects.find((r) => r.input !== null)?.input;
  if (input && (!inv || inv.program === 'cat' || inv.program === 'tee')) return input;
  if (inv?.program !== 'echo' && inv?.program !== 'printf') return null;
  const args = inv.args.map((a) => a.value);
  return printedBy(inv.program, args) ?? args.map((v) => v.replace(/\\n/g, '\n')).join(' ');
}

/** Programs that write some of the lines they read, unchanged: what xargs then reads are still the lines of the stage before them. */
export const LINE_FILTERS = new Set(['grep', 'egrep', 'fgrep', 'sort', 'head', 'tail', 'uniq', 'shuf', 'tac', 'cat', 'tee']);

/**
 * The commands `inv` runs with the words it reads on stdin, when it is xargs's command or GNU
 * parallel with no `:::`: from the text `feeder` (the stage before, `feederInv` its program)
 * writes or a here-string, else, after a `find` (`finderInv`: the stage before any
 * `LINE_FILTERS`), as `find … -exec` would run them. Empty for any other command.
 */
export function fedArgumentScripts(
  inv: Invocation,
  cmd: SimpleCommand,
  feeder: SimpleCommand | undefined,
  feederInv: Invocation | null,
  finderInv: Invocation | null = feederInv,
): string[] {
  const out: string[] = [];
  const text = () => (feeder && fedText(feeder, feederInv)) ?? cmd.redirects.find((r) => r.input !== null)?.input ?? null;
  // `echo / | xargs rm -rf`, `xargs cat <<< .env`: the words xargs reads become arguments
  if (inv.via.includes('xargs')) {
    const fed = text();
    if (fed) out.push(...xargsScripts(inv, fed));
    else {
      // `find / -maxdepth 1 | xargs rm -rf`, `ls / | xargs rm -rf`: what find or ls prints xargs hands on, as `find … -exec` would
      const found = feeder && findExecScript(finderInv, argvOf(inv));
      if (found) out.push(found);
    }
  }
  // `echo ~ | parallel rm -rf`: with no `:::`, GNU parallel runs its command for each line it reads, as xargs does
  if (inv.program === 'parallel') {
    const line = parallelLine(inv.args.map((a) => a.value));
    const fed = line.groups ? null : text();
    if (fed) out.push(...parallelScripts(line, fed.split('\n').filter(Boolean)));
    else if (!line.groups && line.command.length > 1) {
      const found = feeder && findExecScript(finderInv, line.command);
      if (found) out.push(found);
    }
  }
  return out;
}

/**
 * The commands `xargs <program> <args>` runs for the words it reads: each word in place of `{}`
 * when the arguments hold it (`-I {}`), else all of them appended (a few dozen words at most).
 */
function xargsScripts(inv: Invocation, text: string): string[] {
  // `xargs -0` reads names ended by NUL: a NUL ends one either way
  const words = text
    .split(/[\s\0]+/)
    .filter(Boolean)
    .slice(0, 64);
  if (!words.length) return [];
  const argv = argvOf(inv);
  if (argv.includes('{}')) return words.map((word) => argv.map((a) => shellQuote(a === '{}' ? word : a)).join(' '));
  return [[...argv, ...words].map(shellQuote).join(' ')];
}

/**
 * `find ROOTS EXPR | xargs PROGRAM ARGS` (`argv`: what xargs or parallel runs) as the one command
 * it amounts to, `find ROOTS EXPR -exec PROGRAM ARGS {} +` (`{}` where `-I {}` put it), so that
 * the rules for `find -exec` judge what it does with the paths; null when the stage before is no
 * find or ls, or has words only the shell knows.
 */
function findExecScript(finder: Invocation | null, argv: string[]): string | null {
  const args = finder && !finder.args.some((a) => a.value.includes(UNKNOWN)) ? findArgs(finder) : null;
  if (!args) return null;
  const exec = argv.includes('{}') ? [...argv, ';'] : [...argv, '{}', '+'];
  return ['find', ...args, '-exec', ...exec].map(shellQuote).join(' ');
}

/**
 * The find that lists what `finder` lists: a find itself; `ls DIRS` (`.` without one) as `find DIRS
 * -mindepth 1 -maxdepth 1` — what is in them, by their names — `ls -d` as `-maxdepth 0`, `ls -R`
 * as every depth; `stat FILES` as `find FILES -maxdepth 0`. Null for any other program.
 */
function findArgs(finder: Invocation): string[] | null {
  const values = finder.args.map((a) => a.value);
  if (finder.program === 'find') return values;
  // `stat -c %n .env.local`: what it prints is about its operands, each by its name
  if (finder.program === 'stat') {
    const named = values.filter((v, i) => !v.startsWith('-') && !/^(-c|--format|--printf)$/.test(values[i - 1] ?? ''));
    return named.length ? [...named, '-maxdepth', '0'] : null;
  }
  if (finder.program !== 'ls') return null;
  const options = values.filter((v) => v.startsWith('-') && v !== '-' && v !== '--');
  const dirs = values.filter((v) => !v.startsWith('-') || v === '-');
  const short = options.filter((o) => !o.startsWith('--')).join('');
  const depth =
    short.includes('d') || options.includes('--directory')
      ? ['-maxdepth', '0']
      : short.includes('R') || options.includes('--recursive')
        ? ['-mindepth', '1']
        : ['-mindepth', '1', '-maxdepth', '1'];
  return [...(dirs.length ? dirs : ['.']), ...depth];
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
 * Whether what `inv` prints is paths of the project (`git ls-files`, `git diff --name-only`, `grep
 * -rl`, `rg --files`, `fd`): what it feeds xargs is no folder picked from afar. Without a listing
 * option grep and git print lines of a file (`grep -v keep list`, `git show HEAD:dirs.txt`): unknown names.
 */
function listsProjectPaths(inv: Invocation): boolean {
  const values = inv.args.map((a) => a.value);
  if (PATH_FINDERS.has(inv.program)) return true;
  if (MATCH_LISTERS.has(inv.program))
    return values.some(
      (v) =>
        /^--(files|files-with(out)?-matches|files-without-match|name-only)$/.test(v) ||
        (/^-[A-Za-z]/.test(v) && /[lL]/.test(v.slice(1).split(SEARCH_VALUED)[0]!)) ||
        (inv.program === 'ack' && v === '-f'),
    );
  if (inv.program !== 'git') return false;
  const sub = values.find((v, i) => !v.startsWith('-') && !/^(-C|-c|--git-dir|--work-tree|--namespace)$/.test(values[i - 1] ?? ''));
  if (sub && GIT_LISTINGS.has(sub)) return true;
  const after = values.slice(sub ? values.indexOf(sub) + 1 : values.length);
  return after.some((v) => v === '--name-only' || (sub === 'grep' && (GIT_GREP_NAMES.has(v) || /^-[A-Za-z]*[lL]/.test(v))));
}

/**
 * The words of a recursive removal `argv` runs: itself, or for a shell given a script (`sh -c 'rm
 * -rf {}'`, `bash -c 'rm -rf "$1"' _`) the recursive rm in that script that takes the names it is
 * handed (`{}` or a variable). Null where no recursive removal takes them.
 */
function recursiveRemoval(argv: string[]): string[] | null {
  if (removesRecursively(argv)) return argv;
  const c = argv.indexOf('-c');
  if (!SHELLS.has(programName(argv[0] ?? '')) || c < 0 || argv[c + 1] === undefined) return null;
  // the home folder does not matter here: only the rm's options and whether it takes the handed names
  for (const cmd of parseShell(argv[c + 1]!, { home: '/' }).commands) {
    const words = cmd.words.map((w) => w.value);
    if (removesRecursively(words) && words.slice(1).some((v) => v.includes('{}') || v.includes(UNKNOWN))) return words;
  }
  return null;
}

/**
 * `cat dirs.txt | xargs rm -rf`, `xargs rm -rf < list`, `xargs -a list rm -rf`, `cat list | parallel
 * rm -rf`: a recursive removal of names read from a file or a program whose output the command
 * line does not tell — any folder, `/` and the home folder among them, as for `rm -rf "$DIR"`.
 * Null where the names are known (a static text, a find, an ls: fedArgumentScripts reads them),
 * come from a listing of the project's paths (listsProjectPaths), or where nothing feeds the command.
 */
export function unknownNamesRemoval(inv: Invocation, cmd: SimpleCommand, feeder: SimpleCommand | undefined, finderInv: Invocation | null): Finding | null {
  const parallel = inv.program === 'parallel' ? parallelLine(inv.args.map((a) => a.value)) : null;
  // `parallel CMD :::: list`: the arguments read from a file (words after `:::` are known, parallelScripts reads them)
  const fileGroups = parallel?.groups && inv.args.some((a) => a.value === '::::' || a.value === '::::+');
  const argv = parallel ? (parallel.groups && !fileGroups ? null : parallel.command) : inv.via.includes('xargs') ? argvOf(inv) : null;
  const removal = argv && recursiveRemoval(argv);
  // `xargs rm -rf <<< build`: a static text's words are known (fedArgumentScripts); `<<< "$DIRS"` is a variable's
  const fed = cmd.redirects.find((r) => r.input !== null);
  const fedInput = fed?.input ?? null;
  // a here-document's text is kept as written: with its delimiter unquoted, `$DIRS` or `` `cmd` `` there is the shell's
  const shellKnows =
    fedInput !== null &&
    (fedInput.includes(UNKNOWN) || (fed!.op.startsWith('<<') && fed!.op !== '<<<' && !/['"\\]/.test(fed!.target?.raw ?? '') && /[$`]/.test(fedInput)));
  if (!removal || (fedInput !== null && !shellKnows)) return null;
  const words = cmd.words.map((w) => w.value);
  const fromFile = fileGroups || cmd.redirects.some((r) => r.op === '<' && r.target) || words.some((v) => /^(-a|--arg-file)(=|$)|^-a./.test(v));
  const source = fromFile
    ? 'a file'
    : fedInput !== null
      ? 'a variable in a here-string or here-document'
      : feeder &&
          finderInv &&
          !listsProjectPaths(finderInv) &&
          !findArgs(finderInv) &&
          // a static echo's words are known (fedArgumentScripts); `echo "$DIRS"` is a variable's, as `rm -rf $DIRS`
          (!(finderInv.program === 'echo' || finderInv.program === 'printf') || finderInv.args.some((a) => a.value.includes(UNKNOWN)))
        ? `\`${finderInv.program}\``
        : null;
  if (!source) return null;
  return {
    rule: 'rm.root',
    reason: `\`${removal.join(' ')}\` of the names ${source} prints, which the command line does not tell: any folder, / and the home folder among them; name the folders, or list them with find or git ls-files`,
  };
}
