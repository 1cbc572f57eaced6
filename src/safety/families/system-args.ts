import type { Word } from '../syntax.ts';

/** A command's arguments split the way getopt reads them: options, their values, operands. */
export interface ParsedArgs {
  /** short letters given (`-Rf` gives R and f) and long option names (`--recursive`) */
  flags: Set<string>;
  /** values of valued options, by the option as written in `valued` (`-t`, `--target-directory`) */
  values: Map<string, string>;
  /** every valued option given, in order, with the word its value is in (`-ofile`, `--out=f`: the option's own word; `-o f`: the next) */
  valued: Array<{ name: string; word: Word; value: string }>;
  operands: Word[];
}

/**
 * Splits arguments into options and operands: `--` ends the options, `--name=value` and the
 * options listed in `valued` (`-t DIR`, `-tDIR`, `-at DIR`) take a value, `-` alone is an operand.
 * `isOperand` lets a program keep words that look like options (chmod's `-w` mode).
 */
export function parseArgs(args: readonly Word[], valued: ReadonlySet<string>, isOperand?: (value: string) => boolean): ParsedArgs {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const valuedList: ParsedArgs['valued'] = [];
  const operands: Word[] = [];
  const take = (name: string, word: Word | undefined, value: string | undefined) => {
    values.set(name, value ?? '');
    if (word && value !== undefined) valuedList.push({ name, word, value });
  };
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!v.startsWith('-') || v === '-' || isOperand?.(v)) {
      operands.push(w);
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq < 0 ? v : v.slice(0, eq);
      flags.add(name);
      if (eq >= 0) take(name, w, v.slice(eq + 1));
      else if (valued.has(name)) {
        const next = args[++i];
        take(name, next, next?.value);
      }
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const opt = `-${v[k]}`;
      flags.add(v[k]!);
      if (valued.has(opt)) {
        if (k + 1 < v.length) take(opt, w, v.slice(k + 1));
        else {
          const next = args[++i];
          take(opt, next, next?.value);
        }
        break;
      }
    }
  }
  return { flags, values, valued: valuedList, operands };
}

/** Whether a short letter or one of the long names was given. */
export function hasFlag(p: ParsedArgs, letter: string | null, ...long: string[]): boolean {
  return (letter !== null && p.flags.has(letter)) || long.some((l) => p.flags.has(l));
}

/** The value of the first of these options that was given, or null. */
export function valueOf(p: ParsedArgs, ...names: string[]): string | null {
  for (const n of names) {
    const v = p.values.get(n);
    if (v !== undefined) return v;
  }
  return null;
}

/** perl's switches that take the rest of their word, or the next word when nothing follows (`-e code`, `-I dir`). */
const PERL_VALUED = new Set(['e', 'E', 'I']);
/** perl's switches that take the rest of their word only (`-Mstrict`, `-l0`, `-F:`, `-0777`, `-C7`, `-d:Trace`, `-xdir`). */
const PERL_ATTACHED = new Set(['M', 'm', 'l', 'F', '0', 'C', 'd', 'D', 'V', 'x']);

/** ruby's switches that take a value (`-e CODE`, `-r lib`, `-I dir`, `-C dir`) and those that take the rest of their word only (`-Ku`, `-W0`, `-F:`, `-0777`, `-Eutf-8`). */
const RUBY_VALUED = new Set(['e', 'I', 'r', 'C']);
const RUBY_ATTACHED = new Set(['K', 'T', 'W', 'x', 'E', 'F', '0']);

/** `perl -i` (`-pi`, `-i.bak`, `-pi.orig -e`): the files it edits in place, else null. Without `-e` the first operand is the script. */
export function perlInPlaceFiles(args: readonly Word[]): Word[] | null {
  return inPlaceFiles(args, PERL_VALUED, PERL_ATTACHED);
}

/** `ruby -i` (`-pi -e 'gsub(…)' FILE`), read as perl's: the files it edits in place, else null. */
export function rubyInPlaceFiles(args: readonly Word[]): Word[] | null {
  return inPlaceFiles(args, RUBY_VALUED, RUBY_ATTACHED);
}

function inPlaceFiles(args: readonly Word[], valuedSwitches: ReadonlySet<string>, attached: ReadonlySet<string>): Word[] | null {
  let inPlace = false;
  let code = false;
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') {
      i++;
      break;
    }
    if (!v.startsWith('-') || v === '-') break;
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (c === 'i') {
        inPlace = true;
        break;
      }
      if (valuedSwitches.has(c)) {
        if (c === 'e' || (c === 'E' && valuedSwitches === PERL_VALUED)) code = true;
        if (k === v.length - 1) i++;
        break;
      }
      // `-0pi`, `-0777 -pi`, `-lpi`: `-0` and `-l` take octal digits (`-0x1F` hex) only, and switches go on after them
      if (c === '0' || (c === 'l' && valuedSwitches === PERL_VALUED)) {
        const digits = /^(x[\da-fA-F]*|[0-7]*)/.exec(v.slice(k + 1))![0];
        k += digits.length;
        continue;
      }
      if (attached.has(c)) break;
    }
  }
  if (!inPlace) return null;
  return args.slice(code ? i : i + 1);
}

const AWK_VALUED = new Set([
  '-f',
  '--file',
  '-v',
  '--assign',
  '-F',
  '--field-separator',
  '-i',
  '--include',
  '-l',
  '--load',
  '-E',
  '--exec',
  '-o',
  '--pretty-print',
  '-p',
  '--profile',
  '-d',
  '--dump-variables',
  '-W',
]);

/** `gawk -i inplace` (`-iinplace`, `--include=inplace`): the files it rewrites, else null. Without `-f`/`-E` the first operand is the program; `var=value` operands are assignments. */
export function awkInPlaceFiles(args: readonly Word[]): Word[] | null {
  const p = parseArgs(args, AWK_VALUED);
  const includes: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') break;
    if (v === '-i' || v === '--include') includes.push(args[i + 1]?.value ?? '');
    else if (v.startsWith('--include=')) includes.push(v.slice(10));
    else if (/^-i./.test(v)) includes.push(v.slice(2));
  }
  if (!includes.some((x) => /^inplace(\.awk)?$/.test(x))) return null;
  const program = valueOf(p, '-f', '--file', '-E', '--exec') !== null;
  return (program ? p.operands : p.operands.slice(1)).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value));
}

/** tar's options that take a value: in a cluster (`-xzf a.tgz`, `xzfC a.tgz dir`) each takes the next word in turn. */
export const TAR_VALUED = new Set(['f', 'C', 'T', 'X', 'b', 'H', 'K', 'L', 'N', 'V', 'g', 'I']);
export const TAR_LONG_VALUED = new Set([
  '--file',
  '--directory',
  '--files-from',
  '--exclude-from',
  '--blocking-factor',
  '--format',
  '--starting-file',
  '--tape-length',
  '--newer',
  '--after-date',
  '--label',
  '--listed-incremental',
  '--use-compress-program',
  '--exclude',
  '--transform',
  '--owner',
  '--group',
  '--mode',
  '--to-command',
  '--info-script',
  '--new-volume-script',
  '--rsh-command',
  '--suffix',
  '--strip-components',
]);

/**
 * Where `tar -x` extracts (`-C dir`, `--directory=dir`, `xf a.tar -C dir`; the current folder
 * when none is given): every folder it is told to change to, else null when it does not extract.
 */
export function tarExtractDirs(args: readonly Word[]): string[] | null {
  let extract = false;
  const dirs: string[] = [];
  const pending: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    // the values the letters of a cluster asked for, in order
    if (pending.length) {
      if (pending.shift() === 'C') dirs.push(v);
      continue;
    }
    if (v === '--') break;
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq < 0 ? v : v.slice(0, eq);
      if (name === '--extract' || name === '--get') extract = true;
      if (eq < 0 && TAR_LONG_VALUED.has(name)) {
        if (name === '--directory') dirs.push(args[i + 1]?.value ?? '');
        i++;
      } else if (name === '--directory') dirs.push(v.slice(eq + 1));
      continue;
    }
    // the old style: the first word a cluster without a dash (`tar xzf a.tgz`)
    const old = i === 0 && /^[A-Za-z]+$/.test(v);
    if (!old && (!v.startsWith('-') || v === '-')) continue;
    for (let k = old ? 0 : 1; k < v.length; k++) {
      const c = v[k]!;
      if (c === 'x') extract = true;
      if (!TAR_VALUED.has(c)) continue;
      if (old) pending.push(c);
      else {
        const value = k + 1 < v.length ? v.slice(k + 1) : (args[++i]?.value ?? '');
        if (c === 'C') dirs.push(value);
        break;
      }
    }
  }
  return extract ? (dirs.length ? dirs : ['.']) : null;
}

/** Where `unzip` extracts (`-d dir`, `-ddir`; the current folder without it), else null when it only lists, tests or prints. */
export function unzipExtractDir(args: readonly Word[]): string | null {
  let dir = '.';
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (!v.startsWith('-') || v === '-' || v.startsWith('--')) continue;
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if ('lvtpzZ'.includes(c)) return null;
      if (c === 'd') {
        dir = k + 1 < v.length ? v.slice(k + 1) : (args[++i]?.value ?? '');
        break;
      }
    }
  }
  return dir;
}

/** Programs that remove what `find -exec` hands them. */
const FIND_REMOVERS = /(^|\/)(rm|unlink|shred|rmdir)$/;

/** `find <roots> ... -delete` or `-exec rm {} +`: the starting points it removes under (none: the current folder), else null. */
export function findRemovalRoots(args: readonly Word[]): Word[] | null {
  const removes = args.some((w, i) => w.value === '-delete' || (/^-(exec|execdir|ok|okdir)$/.test(w.value) && FIND_REMOVERS.test(args[i + 1]?.value ?? '')));
  if (!removes) return null;
  const roots: Word[] = [];
  let i = 0;
  // -H -L -P, -D debugopts, -O3 come before the starting points
  while (i < args.length && /^-([HLP]|D|O\d*)$/.test(args[i]!.value)) i += args[i]!.value === '-D' ? 2 : 1;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (/^[-(!]/.test(v) && v !== '-') break;
    roots.push(args[i]!);
  }
  return roots;
}

/** scp's options that take a value (`-P 22`, `-i key`): the word after them is no operand. */
export const SCP_VALUED: ReadonlySet<string> = new Set(['-c', '-F', '-i', '-J', '-l', '-o', '-P', '-S', '-D', '-X']);

/** rsync's options that take a separate value (`-e ssh`, `--exclude .env`). */
export const RSYNC_VALUED: ReadonlySet<string> = new Set([
  '-e',
  '--rsh',
  '-f',
  '--filter',
  '-B',
  '--block-size',
  '-T',
  '--temp-dir',
  '-M',
  '--remote-option',
  '--rsync-path',
  '--exclude',
  '--include',
  '--exclude-from',
  '--include-from',
  '--files-from',
  '--log-file',
  '--password-file',
  '--compare-dest',
  '--copy-dest',
  '--link-dest',
  '--partial-dir',
  '--backup-dir',
  '--suffix',
  '--chmod',
  '--chown',
  '--timeout',
  '--port',
  '--out-format',
  '--bwlimit',
  '--max-size',
  '--min-size',
  '--max-delete',
  '--info',
  '--debug',
]);

/**
 * The destination `rsync --delete` (`--del`, `--delete-after`...) empties of what its source
 * lacks — from an empty folder, all of it; null without such an option or for a remote one.
 */
export function rsyncDeleteDest(args: readonly Word[]): Word | null {
  const p = parseArgs(args, RSYNC_VALUED);
  if (![...p.flags].some((f) => f === '--del' || f.startsWith('--delete'))) return null;
  const dest = p.operands.length >= 2 ? p.operands.at(-1)! : null;
  return dest && !/^[^/]*:/.test(dest.value) ? dest : null;
}
