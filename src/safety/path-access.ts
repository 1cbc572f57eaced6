import { posix } from 'node:path';
import { backsUpTrees } from './backup-trees.ts';
import { type Invocation, SHELLS, shellBody } from './command.ts';
import { parseArgs, RSYNC_VALUED, SCP_VALUED } from './families/system-args.ts';
import { REMOVAL_PROGRAM_NAMES } from './removers.ts';
import { UNKNOWN } from './shell.ts';
import type { Word } from './syntax.ts';

/**
 * What a command does with the paths it names (docs/safety.md, "Paths"), told by what becomes of
 * each one's content: read out, read out and changed, written in only, removed unread, a folder
 * written into, a mode or owner changed, only shown (ls), or nothing at all (a message, a pattern
 * to exclude, `git rm --cached`). The path rules (path-rules.ts) then judge each use: a secret's content may not
 * come out, a denied path may be neither read nor written, a read-only path and axme's own state
 * not changed. Here: the kinds, and how the words of a program not described in path-uses.ts are
 * read (every path it names read, or written for the programs that write files).
 */

/**
 * What a command does to a path's content:
 * - `read`: it comes out, the path is unchanged (cat, a copy's source, `git add`, an upload);
 * - `edit`: it comes out and the path is changed (editors, `sed -i`, `perl -i`, `patch FILE`, a
 *   move to another folder or to a name that is no secret);
 * - `write`: content goes in only: the path is made, written over, appended to or emptied
 *   (touch, truncate, `>`, `>>`, tee, a copy's destination, `curl -o`);
 * - `remove`: the path is removed or renamed, its content neither read nor written (rm, shred,
 *   a secret renamed beside itself under another secret name);
 * - `into`: a folder written into; `mode`: its mode or owner changed (chmod, chown);
 * - `meta`: its name, size, mode and times shown, nothing of its content (ls, stat);
 * - `env`: its content handed to a program as its environment, which shows none of it (`node
 *   --env-file=.env server.js`, `docker run --env-file .env app`: env-files.ts);
 * - `own`: a credential handed to the program it is for, by the option that names it (`kubectl
 *   --kubeconfig ~/.kube/prod.yaml`): used as from its default place, not shown (own-credentials.ts);
 * - `key`: a key file handed to a tool that signs, verifies, decrypts or logs in with it, by the
 *   option that names the key (`cosign sign-blob --key cosign.key`, `ssh -i deploy.key`): used, not
 *   shown (key-files.ts);
 * - `none`: not opened (a message, an excluded pattern, a secret linked beside itself under another secret name).
 */
export type Access = 'read' | 'edit' | 'write' | 'remove' | 'into' | 'mode' | 'meta' | 'env' | 'own' | 'key' | 'none';

/** Whether a path used so lets its content out: what a secret's name forbids. */
export function readsContent(access: Access): boolean {
  return access === 'read' || access === 'edit';
}

/** Whether a path used so is changed (made, written, removed, moved, written into, its mode set): what a read-only path and axme's own state forbid. */
export function changesPath(access: Access): boolean {
  return access !== 'read' && access !== 'meta' && access !== 'env' && access !== 'own' && access !== 'key' && access !== 'none';
}

/** What a redirection does to its file: `<` (and `<&file`) reads it, `<>` reads and writes it, the others (`>`, `>>`, `>|`, `&>`) write into it. */
export function redirectAccess(op: string): Access {
  return op === '<>' ? 'edit' : op.startsWith('<') ? 'read' : 'write';
}

export interface PathUse {
  word: Word;
  /** the path as named (quotes removed; an option's or assignment's value) */
  value: string;
  access: Access;
  /** reads the whole folder (`grep -r`, `tar c`, a mount) */
  tree?: boolean;
  /** a glob whatever the word was (`find -name` patterns) */
  glob?: boolean;
  /** relative to the top of the working tree, not the current folder (`git show HEAD:path`) */
  fromRoot?: boolean;
  /** what a `find -name` test selects: the glob's `**` enters dot folders too */
  found?: boolean;
  /** a folder the program makes and fills with entries of its own (a virtual environment): no file of its name is written, only what lands inside it */
  made?: boolean;
}

/** Programs that write every file they name without reading it. */
const WRITERS = new Set(['tee', 'touch', 'truncate', 'sponge']);
/**
 * Programs that edit the files they name in place, by the option that says so: `sed -i`, `perl -pi`
 * (`-0pi`: `-0` takes octal digits only), yq's `-i`/`--inplace`, xmlstarlet's `ed -L`/`--inplace`,
 * the npm `json` tool's `-I`.
 */
const IN_PLACE: Record<string, RegExp> = {
  sed: /^(-[A-Za-z]*i|--in-place)/,
  perl: /^(-(?:[A-Za-z]|0[0-7]*)*i|--in-place)/,
  yq: /^(-[A-Za-z]*i|--inplace)/,
  xmlstarlet: /^(-L|--inplace)$/,
  json: /^-[A-Za-z]*I/,
};
/** Programs that change a file's mode or owner, not its content. */
const MODERS = new Set(['chmod', 'chown', 'chgrp']);
const REMOVERS = new Set(['rm', 'rmdir', 'unlink', 'shred', ...REMOVAL_PROGRAM_NAMES]);
/** Programs that write their last operand and read the others (cp, install, ln and mv: path-uses.ts transfer), with their options that take a value. */
const WRITES_LAST = new Map<string, ReadonlySet<string>>([
  ['rsync', RSYNC_VALUED],
  ['scp', SCP_VALUED],
]);
/** Options whose value is a message or a header: text with spaces there is not a path. */
const TEXT_OPTIONS = new Set(['-m', '--message', '-H', '--header', '--subject', '--body', '-t', '--title']);
/** Options whose value is a pattern of paths left out (`rsync --exclude .env`): nothing is opened. */
const EXCLUDES = new Set(['--exclude', '--exclude-dir', '--ignore', '--ignore-dir', '--filter']);
/** The scheme and host of a file URL (`file:///p`, `file://localhost/p`): what is left is the path. */
const FILE_URL = /^file:\/\/(localhost)?(?=\/)/i;
/**
 * Programs that print a name about each operand, not what it holds: `realpath`, `readlink` (where
 * it leads), `du` (its size), `basename`, `dirname`, `expr` (computed on the word alone). What they
 * print may be the operand's name, so a reader handed their lines opens it (`$(realpath .env)`,
 * `| xargs cat`: command-paths.ts, fed-input.ts).
 */
export const NAME_PRINTERS: ReadonlySet<string> = new Set(['du', 'realpath', 'readlink', 'basename', 'dirname', 'expr']);
/** Programs that show a file's name, size, mode and times, not what it holds. */
const LISTERS = new Set(['ls', 'stat', ...NAME_PRINTERS]);
/** A lister's options whose file it reads for names, printing what it cannot find (`du --files0-from=.env`). */
const NAME_LISTS = new Set(['--files0-from', '-X', '--exclude-from']);
/** rg's and fd's glob filters: a `!pattern` leaves the paths out. */
const GLOB_FILTERS = new Set(['-g', '--glob', '--iglob']);

/** A use of `value` (named by `word`) for `access`. */
export const use = (word: Word, value: string, access: Access, more: Partial<PathUse> = {}): PathUse => ({ word, value, access, ...more });

/** Every word a path read (written or edited, for the programs that change files), option values and `VAR=value` included. */
export function generic(inv: Invocation, words: readonly Word[] = inv.args): PathUse[] {
  const p = inv.program;
  // `sed -i`, `perl -i`: each file is read, then written back (`sed -i 'w /dev/stdout'` prints it)
  const inPlace = Object.hasOwn(IN_PLACE, p) && words.some((w) => IN_PLACE[p]!.test(w.value));
  // `rsync -a src/ dst/ --exclude .git`: the destination is the last operand, not an option's value
  const valued = WRITES_LAST.get(p);
  const last = valued ? parseArgs(words, valued).operands.at(-1) : undefined;
  const lastAccess: Access = p === 'rsync' && backsUp(words) ? 'edit' : 'write';
  const trees = readsTrees(inv);
  // `rsync -a .zshrc ~/`: each source lands in a destination that names a folder (a `src/` merges its contents instead)
  const landings: PathUse[] = [];
  if (last && namesFolder(last))
    for (const o of parseArgs(words, valued!).operands) {
      if (o === last || o.value.endsWith('/')) continue;
      const at = o.glob ? globLanding(last.value, o.value) : landing(last.value, o.value);
      if (at !== null) landings.push(use(last, at, lastAccess, o.glob ? { glob: true } : {}));
    }
  // `bash -c '<code>'`: the code is checked as commands, not as a path
  const code = SHELLS.has(p) ? shellBody(inv.args) : null;
  // find: its paths come first; the expression after them (`-exec cmd ...`) is checked as commands
  const firstExpr = p === 'find' ? words.findIndex((w) => /^[-(!]/.test(w.value)) : -1;
  const args = firstExpr >= 0 ? words.slice(0, firstExpr) : words;
  const out: PathUse[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (code !== null && v === code) continue;
    const prev = args[i - 1]?.value;
    // the text of a message or a header (`git commit -m "fix: $(date)"`) names no file
    if (prev !== undefined && TEXT_OPTIONS.has(prev) && /\s/.test(v.replaceAll('\uE000', ''))) continue;
    // `--exclude .env`, `-g '!.env'`: a path left out is not opened
    if (prev !== undefined && (EXCLUDES.has(prev) || (GLOB_FILTERS.has(prev) && v.startsWith('!')))) continue;
    let value = v;
    if (v.startsWith('-')) {
      const eq = v.indexOf('=');
      if (eq < 0) continue;
      const name = v.slice(0, eq);
      value = v.slice(eq + 1);
      if (EXCLUDES.has(name) || (GLOB_FILTERS.has(name) && value.startsWith('!'))) continue;
    } else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) value = v.slice(v.indexOf('=') + 1);
    // `curl -d @.env`: an @ in front names a file to read
    if (value.startsWith('@')) value = value.slice(1);
    // `curl file:///path`: a file URL names the file
    value = value.replace(FILE_URL, '');
    const listed = LISTERS.has(p) && (NAME_LISTS.has(prev ?? '') || NAME_LISTS.has(v.slice(0, v.indexOf('='))));
    out.push(use(w, value, listed ? 'read' : genericAccess(p, inPlace, w === last ? lastAccess : null), trees ? { tree: true } : {}));
  }
  // find's actions that write a file of their own: `-fprint FILE`, `-fprint0 FILE`, `-fls FILE`, `-fprintf FILE FORMAT`
  if (firstExpr >= 0)
    words.forEach((w, i) => {
      const file = words[i + 1];
      if (i >= firstExpr && file && FIND_WRITES.has(w.value)) out.push(use(file, file.value, 'write'));
    });
  return [...out, ...landings];
}

/** find's actions whose value is a file it writes. */
const FIND_WRITES = new Set(['-fprint', '-fprint0', '-fls', '-fprintf']);

/** A destination that names a folder whatever is on the disk: `~`, `.`, `..`, a path ending in `/`, `/.` or `/..`. */
const FOLDER_NAMED = /^(~|\.{1,2})$|\/(\.{1,2})?$/;

/** Whether a destination word names a folder whatever is on the disk (FOLDER_NAMED), the home folder however written (`~`, `$HOME`, `"${HOME}"`), whose value the parser has expanded. */
export function namesFolder(w: Word): boolean {
  return FOLDER_NAMED.test(w.value) || /^(?:~|"?\$(?:HOME|\{HOME\})"?)$/.test(w.raw);
}

/**
 * Where `source`, copied, moved or linked into folder `folder`, lands: `cp .bashrc ~/` writes
 * `~/.bashrc`, `cp -r templates ~/` `~/templates`, `scp -r host:dir/x ~/` `~/x`; null where its name
 * is not known (only the shell knows it, or it is `.` or `..`: the copy merges into the folder).
 */
export function landing(folder: string, source: string): string | null {
  // `host:dir/x` lands as x, as dir/x does
  const name = posix.basename(source.replace(/^[^/]*:(?!\/\/)/, ''));
  if (name === '' || name === '.' || name === '..' || name.includes(UNKNOWN) || /(^|\/)\.{1,2}\/+$/.test(source)) return null;
  return `${folder.replace(/\/+$/, '')}/${name}`;
}

/**
 * Where what a glob names (`build/*`), copied, moved or linked into folder `folder`, lands: the
 * glob's last name in that folder (`mv build/* ~/` writes `~/*`, a glob), or null where that name
 * has no wildcard of its own (`src/*\/app` lands as `app`: landing) or holds what only the shell knows.
 */
export function globLanding(folder: string, source: string): string | null {
  const name = posix.basename(source);
  if (!/[*?[]/.test(name) || name.includes(UNKNOWN)) return landing(folder, source);
  return `${folder.replace(/\/+$/, '')}/${name}`;
}

/** What a program not described in path-uses.ts does to a path it names; `last`: what it does to its last operand, for the programs that write that one (rsync, scp). */
function genericAccess(program: string, inPlace: boolean, last: Access | null): Access {
  if (REMOVERS.has(program)) return 'remove';
  if (MODERS.has(program)) return 'mode';
  if (LISTERS.has(program)) return 'meta';
  if (inPlace) return 'edit';
  return last ?? (WRITERS.has(program) ? 'write' : 'read');
}

/** Programs that read whole folders: `grep -r ~`, `tar czf k.tgz ~/.ssh`, `cp -r ~/.ssh /tmp` take protected files along. */
function readsTrees(inv: Invocation): boolean {
  const flags = inv.args.filter((w) => w.value.startsWith('-')).map((w) => w.value);
  const short = (c: string) => flags.some((f) => /^-[A-Za-z]+$/.test(f) && f.includes(c));
  switch (inv.program) {
    case 'rg':
    case 'ag':
    case 'rsync':
    case 'zip':
    // `ln -s ~/.ssh /tmp/s` opens a folder of protected files under another name
    case 'ln':
    // the other archivers and image makers, which pack the folders they are handed whole (`7z a k.7z ~/.gnupg`, `ditto -c -k ~/.ssh k.zip`)
    case '7z':
    case '7za':
    case '7zr':
    case '7zz':
    case 'rar':
    case 'ditto':
    case 'mksquashfs':
    case 'mkisofs':
    case 'genisoimage':
      return true;
    case 'tar':
    case 'bsdtar':
    case 'gtar':
      return inv.args.some((w) => /^-?[A-Za-z]*c[A-Za-z]*$/.test(w.value)) || flags.includes('--create');
    case 'pax':
      return short('w');
    case 'find':
      // `find ~/.ssh -exec cat {} +` reads what it finds
      return flags.some((f) => /^-(exec|execdir|ok|okdir|fprint|fls)$/.test(f));
    case 'cp':
    case 'scp':
      return short('r') || short('R') || short('a') || flags.includes('--recursive') || flags.includes('--archive');
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return short('r') || short('R') || flags.includes('--recursive') || flags.includes('--dereference-recursive');
    default:
      // `borg create ::x ~/.ssh`, `restic backup ~/.aws`, `croc send ~/.gnupg`: folders backed up, synced or shared whole (backup-trees.ts)
      if (
        backsUpTrees(
          inv.program,
          inv.args.map((w) => w.value),
        )
      )
        return true;
      return (
        CLOUD_CLIENTS.has(inv.program) &&
        uploadsTrees(
          inv.program,
          inv.args.map((w) => w.value),
        )
      );
  }
}

/**
 * The cloud storage clients sending whole folders off the machine: `aws s3 sync`, `aws s3 cp
 * --recursive`, `gsutil [-m] cp -r`, `gsutil rsync`, `gcloud storage cp -r` / `rsync`, `rclone`
 * copy, sync, move, `s3cmd sync` / `put -r`, `azcopy copy --recursive` / `sync`, `mc cp -r` / `mirror`.
 */
const CLOUD_CLIENTS = new Set(['aws', 'gsutil', 'gcloud', 'rclone', 's3cmd', 'azcopy', 'mc']);

function uploadsTrees(program: string, a: string[]): boolean {
  const recursive = a.some((x) => x === '-r' || x === '-R' || x === '--recursive' || /^-[A-Za-z]*[rR][A-Za-z]*$/.test(x));
  const verb = (skip: number) => a.filter((x) => !x.startsWith('-'))[skip];
  switch (program) {
    case 'aws':
      return verb(0) === 's3' && (verb(1) === 'sync' || (verb(1) === 'cp' && recursive));
    case 'gsutil':
      return verb(0) === 'rsync' || (verb(0) === 'cp' && recursive);
    case 'gcloud':
      return verb(0) === 'storage' && (verb(1) === 'rsync' || (verb(1) === 'cp' && recursive));
    case 'rclone':
      return ['copy', 'sync', 'move', 'copyto', 'moveto', 'bisync'].includes(verb(0) ?? '');
    case 's3cmd':
      return verb(0) === 'sync' || (verb(0) === 'put' && recursive);
    case 'azcopy':
      return verb(0) === 'sync' || (verb(0) === 'copy' && recursive);
    case 'mc':
      return verb(0) === 'mirror' || (verb(0) === 'cp' && recursive);
    default:
      return false;
  }
}

/**
 * Options of a command line, read the getopt way: `-oFILE`, `-o FILE`, `-sSo FILE` (a valued
 * letter at the end of a cluster takes the next word), `--output=FILE`, `--output FILE`. `on`
 * gets each valued option's name and value; the words that are not options are returned.
 */
export function options(
  args: readonly Word[],
  shortValued: string,
  longValued: ReadonlySet<string>,
  on: (name: string, word: Word, value: string) => void,
): Word[] {
  const p = parseArgs(args, new Set([...longValued, ...[...shortValued].map((c) => `-${c}`)]));
  for (const o of p.valued) on(o.name, o.word, o.value);
  return p.operands;
}

/**
 * Whether a copy, move or link keeps what it writes over under another name (`-b`, `--backup`,
 * `-S`/`--suffix`; rsync's `--backup-dir`): `client.p12~`, `.netrc.txt` are named as no secret,
 * so the destination's content comes out.
 */
export function backsUp(args: readonly Word[]): boolean {
  return args.some((w) => /^-[A-Za-z]*[bS]/.test(w.value) || /^--(backup|suffix)/.test(w.value));
}
