import type { Invocation } from './command.ts';
import { globAlternatives } from './paths.ts';
import { plainWord, type Word } from './syntax.ts';

/**
 * The programs of the npm world and the desktop that remove what they are handed, read as the
 * command whose rules they get: `rimraf`, `del-cli` and `del` are `rm -rf` of their operands (a
 * quoted pattern is theirs to expand: `del-cli '~/**'`), and so are the secure-deletion tools
 * `srm` and `wipe`; a trash (`trash` of trash-cli, `trash-put`)
 * moves its operands into the bin, taken away from where they were as `mv` takes them.
 */

/** How each removal program is read: its options that take a value, and what it does to its operands. */
const REMOVAL_PROGRAMS: Record<string, { valued: readonly string[]; reads: 'rm' | 'mv' }> = {
  rimraf: { valued: ['--impl'], reads: 'rm' },
  'del-cli': { valued: [], reads: 'rm' },
  del: { valued: [], reads: 'rm' },
  // the secure-deletion tools: secure-delete's `srm`, `wipe`, overwriting what they remove
  srm: { valued: [], reads: 'rm' },
  wipe: { valued: ['-Q', '-R', '-S', '-M', '-l', '-o', '-x'], reads: 'rm' },
  trash: { valued: [], reads: 'mv' },
  'trash-put': { valued: ['--trash-dir'], reads: 'mv' },
};

/**
 * Programs that take their operands away only when an option says so, read as the rm or mv they
 * then amount to: an archiver that moves what it packs into the archive (`zip -m`, `zip -rm`,
 * `tar --remove-files`: the files are gone from where they were), and `shred`, which overwrites
 * each file it is handed for good (`shred -u ~/Documents/*` as `rm -rf ~/Documents/*`), 7-Zip's
 * `-sdel` (as `zip -m`), and the duplicate finders told to delete (`fdupes -d`, `jdupes -d`,
 * `rdfind -deleteduplicates true`, `czkawka_cli dup --delete-method AEN`), read as `rm -rf` of
 * the folders they search: which files go is theirs to choose. Not in
 * REMOVAL_PROGRAM_NAMES: what else they name they read or write.
 */
interface RemovingWithOption {
  valued: readonly string[];
  reads: 'rm' | 'mv';
  /** whether the words before `--` (options and their values) say the program removes */
  removes: (words: readonly string[]) => boolean;
  /** options whose value is a folder the program works on, an operand as the others are (`czkawka_cli dup -d DIR`) */
  operandOptions?: readonly string[];
  /** its first operand is a subcommand, not a path (`czkawka_cli dup`) */
  subcommand?: true;
}

/** A duplicate finder's options that delete: the value of `name` among the words, not `none`. */
const deletes = (words: readonly string[], names: readonly string[], keep: RegExp) =>
  words.some((v, i) => {
    const eq = v.indexOf('=');
    const [name, value] = eq > 0 ? [v.slice(0, eq), v.slice(eq + 1)] : [v, words[i + 1]];
    return names.includes(name) && value !== undefined && !keep.test(value);
  });

const SEVEN_ZIP: RemovingWithOption = { valued: [], reads: 'mv', removes: (w) => w.includes('-sdel') };
/** fdupes' and jdupes' `-d` (`--delete`, in a cluster: `-rdN`): every duplicate but the first of each set deleted, without asking given `-N`. */
const DUPES_DELETE: RemovingWithOption = {
  valued: ['-x', '--exclude', '-o', '--order', '-X', '--ext-filter', '-y', '--hash-db', '-P', '--print', '-l', '--log'],
  reads: 'rm',
  removes: (w) => w.some((v) => v === '--delete' || /^-[A-Za-z]*d/.test(v)),
};

const REMOVING_WITH_OPTION: Record<string, RemovingWithOption> = {
  zip: {
    valued: ['-b', '-n', '-t', '-tt', '-x', '-i', '-O', '--out', '-P', '--password', '-Z'],
    reads: 'mv',
    removes: (o) => o.some((v) => v === '--move' || /^-[^-]*m/.test(v)),
  },
  tar: {
    valued: ['-f', '--file', '-C', '--directory', '-T', '--files-from', '-X', '--exclude-from', '-H', '--format'],
    reads: 'mv',
    removes: (o) => o.includes('--remove-files'),
  },
  shred: { valued: ['-n', '--iterations', '-s', '--size', '--random-source'], reads: 'rm', removes: () => true },
  // 7-Zip's `-sdel`: the files packed are deleted after
  '7z': SEVEN_ZIP,
  '7za': SEVEN_ZIP,
  '7zz': SEVEN_ZIP,
  // the duplicate finders told to delete: what they delete is anything under the folders they search
  fdupes: DUPES_DELETE,
  jdupes: DUPES_DELETE,
  rdfind: {
    valued: [
      '-ignoreempty',
      '-minsize',
      '-maxsize',
      '-followsymlinks',
      '-removeidentinode',
      '-checksum',
      '-deterministic',
      '-makesymlinks',
      '-makehardlinks',
      '-makeresultsfile',
      '-outputname',
      '-deleteduplicates',
      '-sleep',
      '-dryrun',
      '-n',
    ],
    reads: 'rm',
    removes: (w) => deletes(w, ['-deleteduplicates'], /^false$/i) && !deletes(w, ['-dryrun', '-n'], /^false$/i),
  },
  czkawka_cli: {
    valued: [
      '-d',
      '--directories',
      '-e',
      '--excluded-directories',
      '-E',
      '--excluded-items',
      '-x',
      '--allowed-extensions',
      '-D',
      '--delete-method',
      '-t',
      '--search-method',
      '-f',
      '--file-to-save',
      '-s',
      '--minimal-file-size',
      '-i',
      '--maximal-file-size',
      '-m',
      '-l',
      '--hash-type',
    ],
    reads: 'rm',
    removes: (w) => deletes(w, ['-D', '--delete-method'], /^none$/i),
    operandOptions: ['-d', '--directories'],
    subcommand: true,
  },
};

/** The names of the removal programs: what they name, they remove (path-access.ts). */
export const REMOVAL_PROGRAM_NAMES: readonly string[] = Object.keys(REMOVAL_PROGRAMS);

/** The removal programs that remove what they are handed as `rm -rf` does (`rimraf`, `del-cli`, `del`). */
export const RM_LIKE_PROGRAMS: readonly string[] = REMOVAL_PROGRAM_NAMES.filter((p) => REMOVAL_PROGRAMS[p]!.reads === 'rm');

/** Whether `program` (a base name) is one of them: for what xargs or find -exec hands it. */
export function removesAsRm(program: string): boolean {
  return RM_LIKE_PROGRAMS.includes(program);
}

/**
 * A removal program's command as the command it amounts to: `rimraf a b` as `rm -rf -- a b`
 * (with `--no-preserve-root` kept), `trash a` as `mv -t <the bin> -- a`, `zip -m x.zip a` as `mv -t
 * <the bin> -- x.zip a`; null for any other program, and for zip and tar without their option.
 */
export function removalReading(inv: Invocation): Invocation | null {
  const optional = Object.hasOwn(REMOVING_WITH_OPTION, inv.program) ? REMOVING_WITH_OPTION[inv.program]! : undefined;
  const end = inv.args.findIndex((w) => w.value === '--');
  const removing = optional?.removes((end < 0 ? inv.args : inv.args.slice(0, end)).map((w) => w.value));
  const spec: { valued: readonly string[]; reads: 'rm' | 'mv'; operandOptions?: readonly string[]; subcommand?: true } | undefined = Object.hasOwn(
    REMOVAL_PROGRAMS,
    inv.program,
  )
    ? REMOVAL_PROGRAMS[inv.program]
    : removing
      ? optional
      : undefined;
  if (!spec) return null;
  const operands: Word[] = [];
  let noPreserveRoot = false;
  let optionsEnd = false;
  let subcommand = spec.subcommand === true;
  for (let i = 0; i < inv.args.length; i++) {
    const w = inv.args[i]!;
    if (!optionsEnd && w.value === '--') optionsEnd = true;
    else if (!optionsEnd && w.value === '--no-preserve-root') noPreserveRoot = true;
    else if (!optionsEnd && spec.operandOptions?.includes(w.value) && inv.args[i + 1]) operands.push(inv.args[++i]!);
    else if (!optionsEnd && spec.valued.includes(w.value)) i++;
    else if (subcommand && !w.value.startsWith('-')) subcommand = false;
    else if (!optionsEnd && w.value.startsWith('-') && w.value !== '-') continue;
    // a pattern the program expands itself is a glob, quoted or not, each of its brace alternatives one (find's `{}` is no pattern)
    else if (/[*?[]|\{[^}]*,/.test(w.value)) for (const value of globAlternatives(w.value)) operands.push({ ...w, value, glob: /[*?[]/.test(value) });
    else operands.push(w);
  }
  const flags =
    spec.reads === 'rm' ? [plainWord('-rf'), ...(noPreserveRoot ? [plainWord('--no-preserve-root')] : [])] : [plainWord('-t'), plainWord('/dev/null')];
  return { ...inv, program: spec.reads, args: [...flags, plainWord('--'), ...operands] };
}
