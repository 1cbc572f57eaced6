import { posix } from 'node:path';
import { isSecretName } from '../model/sandbox.ts';
import { type Invocation, SHELLS, shellBody } from './command.ts';
import { UNKNOWN } from './expand.ts';
import { parseArgs, tarExtractDirs, unzipExtractDir } from './families/system-args.ts';
import type { Word } from './syntax.ts';

/**
 * What a command does with the paths it names (docs/safety.md, "Paths"), told by what becomes of
 * each one's content: read out, read out and changed, written in only, removed unread, a folder
 * written into, a mode or owner changed, or nothing at all (a message, a pattern to exclude, `git
 * rm --cached`). The path rules (path-rules.ts) then judge each use: a secret's content may not
 * come out, a denied path may be neither read nor written, a read-only path and axme's own state
 * not changed. A program not described here reads every path it names (and writes them, for the
 * programs that change files).
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
 * - `none`: not opened (a message, an excluded pattern, a secret linked beside itself under another secret name).
 */
export type Access = 'read' | 'edit' | 'write' | 'remove' | 'into' | 'mode' | 'none';

/** Whether a path used so lets its content out: what a secret's name forbids. */
export function readsContent(access: Access): boolean {
  return access === 'read' || access === 'edit';
}

/** Whether a path used so is changed (made, written, removed, moved, written into, its mode set): what a read-only path and axme's own state forbid. */
export function changesPath(access: Access): boolean {
  return access !== 'read' && access !== 'none';
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
}

/** Programs whose words are data, names or settings, not paths they open. */
const DATA_ONLY = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'test',
  '[',
  'export',
  'declare',
  'local',
  'readonly',
  'typeset',
  'alias',
  'unset',
  'type',
  'hash',
]);
/** Programs that write every file they name without reading it, and those that only write their last argument (cp, install, ln and mv: transfer). */
const WRITERS = new Set(['tee', 'touch', 'truncate', 'sponge']);
/** Programs that change a file's mode or owner, not its content. */
const MODERS = new Set(['chmod', 'chown', 'chgrp']);
const REMOVERS = new Set(['rm', 'rmdir', 'unlink', 'shred']);
const WRITES_LAST = new Set(['rsync', 'scp']);
const EDITORS = new Set([
  'vim',
  'vi',
  'nvim',
  'nano',
  'pico',
  'ed',
  'red',
  'ex',
  'emacs',
  'micro',
  'joe',
  'kak',
  'hx',
  'helix',
  'mcedit',
  'vis',
  'mg',
  'jed',
  'ne',
  'code',
  'subl',
  'gedit',
]);
/** Options whose value is a message or a header: text with spaces there is not a path. */
const TEXT_OPTIONS = new Set(['-m', '--message', '-H', '--header', '--subject', '--body', '-t', '--title']);
/** Options whose value is a pattern of paths left out (`rsync --exclude .env`): nothing is opened. */
const EXCLUDES = new Set(['--exclude', '--exclude-dir', '--ignore', '--ignore-dir', '--filter']);
/** rg's and fd's glob filters: a `!pattern` leaves the paths out. */
const GLOB_FILTERS = new Set(['-g', '--glob', '--iglob']);

/** Each path a command names and what it does with it; see the module comment. */
export function pathUses(inv: Invocation): PathUse[] {
  const p = inv.program;
  if (DATA_ONLY.has(p)) return [];
  const special = SPECIAL[p];
  if (special) return special(inv);
  if (EDITORS.has(p)) return inv.args.filter((w) => !w.value.startsWith('-') && !w.value.startsWith('+')).map((w) => use(w, w.value, 'edit'));
  return generic(inv);
}

const use = (word: Word, value: string, access: Access, more: Partial<PathUse> = {}): PathUse => ({ word, value, access, ...more });

/** Every word a path read (written or edited, for the programs that change files), option values and `VAR=value` included. */
function generic(inv: Invocation, words: readonly Word[] = inv.args): PathUse[] {
  const p = inv.program;
  // `sed -i`, `perl -i`: each file is read, then written back (`sed -i 'w /dev/stdout'` prints it)
  const inPlace = (p === 'sed' || p === 'perl') && words.some((w) => /^-[A-Za-z]*i/.test(w.value) || w.value.startsWith('--in-place'));
  const operands = words.filter((w) => !w.value.startsWith('-'));
  const last = WRITES_LAST.has(p) ? operands.at(-1) : undefined;
  const lastAccess: Access = p === 'rsync' && backsUp(words) ? 'edit' : 'write';
  const trees = readsTrees(inv);
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
    const access: Access = REMOVERS.has(p) ? 'remove' : MODERS.has(p) ? 'mode' : inPlace ? 'edit' : w === last ? lastAccess : WRITERS.has(p) ? 'write' : 'read';
    out.push(use(w, value, access, trees ? { tree: true } : {}));
  }
  return out;
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
      return true;
    case 'tar':
      return inv.args.some((w) => /^-?[A-Za-z]*c[A-Za-z]*$/.test(w.value)) || flags.includes('--create');
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
      return false;
  }
}

/**
 * Options of a command line, read the getopt way: `-oFILE`, `-o FILE`, `-sSo FILE` (a valued
 * letter at the end of a cluster takes the next word), `--output=FILE`, `--output FILE`. `on`
 * gets each valued option's name and value; the words that are not options are returned.
 */
function options(args: readonly Word[], shortValued: string, longValued: ReadonlySet<string>, on: (name: string, word: Word, value: string) => void): Word[] {
  const p = parseArgs(args, new Set([...longValued, ...[...shortValued].map((c) => `-${c}`)]));
  for (const o of p.valued) on(o.name, o.word, o.value);
  return p.operands;
}

const CURL_LONG = new Set([
  '--data',
  '--data-binary',
  '--data-raw',
  '--data-ascii',
  '--data-urlencode',
  '--json',
  '--form',
  '--form-string',
  '--upload-file',
  '--config',
  '--output',
  '--dump-header',
  '--cookie-jar',
  '--cookie',
  '--trace',
  '--trace-ascii',
  '--stderr',
  '--output-dir',
  '--cert',
  '--key',
  '--cacert',
  '--netrc-file',
  '--header',
  '--user',
  '--user-agent',
  '--referer',
  '--request',
  '--write-out',
  '--proxy',
  '--max-time',
  '--range',
  '--url',
]);
const CURL_WRITES = new Set(['-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar', '--trace', '--trace-ascii', '--stderr']);
const CURL_FILES = new Set(['-T', '--upload-file', '-K', '--config', '-E', '--cert', '--key', '--cacert', '--netrc-file']);

/** curl: what it uploads (`-d @f`, `-F 'x=<f'`, `-T f`), what it writes (`-o f`), the folder it writes into (`--output-dir`). */
function curl(inv: Invocation): PathUse[] {
  const out: PathUse[] = [];
  const operands = options(inv.args, 'dFTKoDcbEHuAexXwrmC', CURL_LONG, (name, w, value) => {
    if (CURL_WRITES.has(name)) {
      if (value !== '-') out.push(use(w, value, 'write'));
    } else if (name === '--output-dir') out.push(use(w, value, 'into'));
    else if (CURL_FILES.has(name)) out.push(use(w, value, 'read'));
    else if (name === '-d' || name.startsWith('--data') || name === '--json') {
      const at = value.indexOf('@');
      if (at === 0 || (name === '--data-urlencode' && at > 0)) out.push(use(w, value.slice(at + 1), 'read'));
    } else if (name === '-F' || name === '--form') {
      const m = /^[^=]*=[@<]([^;]*)/.exec(value);
      if (m) out.push(use(w, m[1]!, 'read'));
    } else if ((name === '-b' || name === '--cookie') && !value.includes('=')) out.push(use(w, value, 'read'));
  });
  return [...out, ...generic(inv, operands)];
}

const WGET_LONG = new Set([
  '--output-document',
  '--output-file',
  '--append-output',
  '--directory-prefix',
  '--input-file',
  '--post-file',
  '--body-file',
  '--load-cookies',
  '--save-cookies',
  '--certificate',
  '--private-key',
  '--ca-certificate',
  '--execute',
  '--user-agent',
  '--header',
  '--tries',
  '--timeout',
]);

/** wget: `-O f` / `-o log` written, `-P dir` written into, `--post-file f` / `-i f` read. */
function wget(inv: Invocation): PathUse[] {
  const out: PathUse[] = [];
  const operands = options(inv.args, 'OoaPietTwQlARDIXUB', WGET_LONG, (name, w, value) => {
    if (['-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '--save-cookies'].includes(name)) {
      if (value !== '-') out.push(use(w, value, 'write'));
    } else if (name === '-P' || name === '--directory-prefix') out.push(use(w, value, 'into'));
    else if (['-i', '--input-file', '--post-file', '--body-file', '--load-cookies', '--certificate', '--private-key', '--ca-certificate'].includes(name))
      out.push(use(w, value, 'read'));
  });
  return [...out, ...generic(inv, operands)];
}

/** `sort -o f`: written; its operands read. */
function sort(inv: Invocation): PathUse[] {
  const out: PathUse[] = [];
  const operands = options(
    inv.args,
    'okStT',
    new Set(['--output', '--key', '--buffer-size', '--field-separator', '--temporary-directory', '--files0-from']),
    (name, w, value) => {
      if (name === '-o' || name === '--output') out.push(use(w, value, 'write'));
      else if (name === '--files0-from') out.push(use(w, value, 'read'));
    },
  );
  return [...out, ...generic(inv, operands)];
}

/** `patch [file [patchfile]]`: the file edited (read, then written; its rejects and `-o` hold its text), the patch read; `-o` written, `-i` read, `-d` written into. */
function patch(inv: Invocation): PathUse[] {
  const out: PathUse[] = [];
  const operands = options(
    inv.args,
    'oidrpFDVzYBg',
    new Set(['--output', '--input', '--directory', '--reject-file', '--strip', '--fuzz', '--ifdef', '--prefix', '--basename-prefix', '--suffix']),
    (name, w, value) => {
      if (name === '-o' || name === '--output' || name === '-r' || name === '--reject-file') out.push(use(w, value, 'write'));
      else if (name === '-i' || name === '--input') out.push(use(w, value, 'read'));
      else if (name === '-d' || name === '--directory') out.push(use(w, value, 'into'));
    },
  );
  if (operands[0]) out.push(use(operands[0], operands[0].value, 'edit'));
  if (operands[1]) out.push(use(operands[1], operands[1].value, 'read'));
  return out;
}

/** dd: `of=` written, `if=` read. */
function dd(inv: Invocation): PathUse[] {
  return inv.args.flatMap((w) =>
    w.value.startsWith('of=') ? [use(w, w.value.slice(3), 'write')] : w.value.startsWith('if=') ? [use(w, w.value.slice(3), 'read')] : [],
  );
}

/** The options of cp, install, ln and mv that take the next word: the target folder, a backup suffix, install's mode and owner. */
const TRANSFER_LONG = new Set(['--target-directory', '--suffix', '--mode', '--owner', '--group', '--strip-program', '--no-preserve']);

/**
 * cp, install, ln, mv: the destination written, or (`-t DIR`) the folder written into; the
 * sources read (cp, install, ln) or moved away (mv: read out and changed). A secret renamed or
 * linked beside itself under another secret name (`mv .env.local .env.local.bak`, `ln -s
 * .env.development .env.local`) is not read: mv only removes its old name, ln opens nothing.
 */
function transfer(inv: Invocation): PathUse[] {
  const p = inv.program;
  let into: PathUse | undefined;
  const operands = options(inv.args, p === 'install' ? 'tSmog' : 'tS', TRANSFER_LONG, (name, w, value) => {
    if (name === '-t' || name === '--target-directory') into = use(w, value, 'into');
  });
  const uses = generic(inv, operands);
  const dest = into ? undefined : uses.at(-1);
  const kept = dest !== undefined && uses.length === 2 && keptSecret(uses[0]!.value, dest);
  const source: Access = p === 'mv' ? (kept ? 'remove' : 'edit') : p === 'ln' && kept ? 'none' : 'read';
  const destAccess: Access = backsUp(inv.args) ? 'edit' : 'write';
  const out = uses.map((u): PathUse => ({ ...u, access: u === dest ? destAccess : source }));
  return into ? [...out, into] : out;
}

/**
 * Whether a copy, move or link keeps what it writes over under another name (`-b`, `--backup`,
 * `-S`/`--suffix`; rsync's `--backup-dir`): `client.p12~`, `.netrc.txt` are named as no secret,
 * so the destination's content comes out.
 */
function backsUp(args: readonly Word[]): boolean {
  return args.some((w) => /^-[A-Za-z]*[bS]/.test(w.value) || /^--(backup|suffix)/.test(w.value));
}

/** Whether what `from` names, moved or linked to `to`, stays beside it under a secret name: the same folder as written, `to` a plain path named as a secret. */
function keptSecret(from: string, to: PathUse): boolean {
  const name = to.value;
  if (to.word.glob || name.includes(UNKNOWN) || name.endsWith('/') || !isSecretName(posix.basename(name))) return false;
  return posix.normalize(posix.dirname(from)) === posix.normalize(posix.dirname(name));
}

/** tar and unzip: `-C dir` / `-d dir` written into when they extract; the rest as any reader. */
function extracts(dirs: (args: readonly Word[]) => string[] | string | null): (inv: Invocation) => PathUse[] {
  return (inv) => {
    const d = dirs(inv.args);
    const into =
      d === null
        ? []
        : (Array.isArray(d) ? d : [d]).map(
            (value): PathUse => ({ word: inv.args.find((w) => w.value === value || w.value.endsWith(value)) ?? inv.args[0]!, value, access: 'into' }),
          );
    return [...into, ...generic(inv)];
  };
}

/** `find <roots> … -delete` removes its roots' contents (without a name test); `-name X -exec cmd` reads what the name selects. */
function find(inv: Invocation): PathUse[] {
  const uses = generic(inv);
  const a = inv.args;
  const roots = uses.filter((u) => !u.word.value.startsWith('-'));
  const rootValues = roots.length ? roots.map((u) => u.value) : ['.'];
  const named = a.flatMap((w, i) => (/^-i?(name|path|wholename)$/.test(w.value) && a[i + 1] ? [{ word: a[i + 1]!, test: w.value }] : []));
  const deletes = a.some(
    (w, i) => w.value === '-delete' || (/^-(exec|execdir|ok|okdir)$/.test(w.value) && /(^|\/)(rm|unlink|shred|rmdir)$/.test(a[i + 1]?.value ?? '')),
  );
  const runs = a.some((w) => /^-(exec|execdir|ok|okdir)$/.test(w.value));
  const out = deletes && !named.length ? uses.map((u) => ({ ...u, access: 'remove' as const })) : uses;
  if (runs || deletes) {
    for (const n of named) {
      for (const root of rootValues) {
        const value = /path$/.test(n.test) ? n.word.value : `${root.replace(/\/+$/, '')}/**/${n.word.value}`;
        out.push(use(n.word, value, deletes ? 'remove' : 'read', { glob: true, found: true }));
      }
    }
  }
  return out;
}

/** `docker run -v ~/.ssh:/k`, `--mount type=bind,source=…`: a host folder mounted is read whole. */
function container(inv: Invocation): PathUse[] {
  const uses = generic(inv);
  const a = inv.args;
  const sub = a.findIndex((w) => !w.value.startsWith('-'));
  const runs = a[sub]?.value === 'run' || a[sub]?.value === 'create' || (a[sub]?.value === 'container' && /^(run|create)$/.test(a[sub + 1]?.value ?? ''));
  if (!runs) return uses;
  const mounts: PathUse[] = [];
  for (let i = sub + 1; i < a.length; i++) {
    const v = a[i]!.value;
    let spec: string | null = null;
    let w = a[i]!;
    if (v === '-v' || v === '--volume' || v === '--mount') {
      w = a[i + 1] ?? w;
      spec = v === '--mount' ? `mount:${w.value}` : w.value;
      i++;
    } else if (v.startsWith('--volume=') || v.startsWith('-v=')) spec = v.slice(v.indexOf('=') + 1);
    else if (v.startsWith('--mount=')) spec = `mount:${v.slice(8)}`;
    else if (/^-v./.test(v)) spec = v.slice(2);
    if (spec === null) continue;
    const source = spec.startsWith('mount:') ? (/(?:^|,)(?:source|src)=([^,]*)/.exec(spec.slice(6))?.[1] ?? null) : spec.split(':')[0]!;
    // a named volume is docker's, not a host path
    if (source && /^[/~.\uE000$]/.test(source)) mounts.push(use(w, source, 'read', { tree: true }));
  }
  return [...mounts, ...uses];
}

const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path']);

/** git: `rm` removes (`--cached` only untracks), `mv` moves, `checkout`/`restore` write paths, `show REV:path` reads one. */
function git(inv: Invocation): PathUse[] {
  const a = inv.args;
  let i = 0;
  while (i < a.length && a[i]!.value.startsWith('-')) i += GIT_VALUED.has(a[i]!.value) ? 2 : 1;
  const sub = a[i]?.value;
  const rest = a.slice(i + 1);
  const values = rest.map((w) => w.value);
  const patchMode = values.some((v) => v === '-p' || v === '--patch');
  const operands = () => {
    const dash = values.indexOf('--');
    return dash >= 0 ? rest.slice(dash + 1) : rest.filter((w) => !w.value.startsWith('-'));
  };
  switch (sub) {
    case 'rm':
      return values.includes('--cached') ? [] : operands().map((w) => use(w, w.value, 'remove'));
    case 'mv': {
      const ops = operands().map((w) => use(w, w.value, 'write'));
      const dest = ops.at(-1);
      const source: Access = dest && ops.length === 2 && keptSecret(ops[0]!.value, dest) ? 'remove' : 'edit';
      return ops.map((u) => (u === dest ? u : { ...u, access: source }));
    }
    case 'checkout':
      // `-p` shows each change before it is undone
      return operands().map((w) => use(w, w.value, patchMode ? 'edit' : 'write'));
    case 'restore': {
      if (values.some((v) => v === '--staged' || v === '-S') && !values.some((v) => v === '--worktree' || v === '-W')) return [];
      const source = values.findIndex((v) => v === '-s' || v === '--source');
      return operands()
        .filter((w) => w !== rest[source + 1] || source < 0)
        .map((w) => use(w, w.value, patchMode ? 'edit' : 'write'));
    }
    case 'show':
    case 'cat-file':
    case 'archive':
    case 'grep': {
      const objects = rest.flatMap((w) => {
        const m = /^[^:\s]*:(?!\/\/)(.+)$/.exec(w.value);
        return m && !w.value.startsWith('-') ? [use(w, m[1]!, 'read', { fromRoot: !/^\.\.?\//.test(m[1]!) })] : [];
      });
      return [...objects, ...generic(inv, rest)];
    }
    default:
      return sub === undefined ? [] : generic(inv, rest);
  }
}

const SPECIAL: Record<string, (inv: Invocation) => PathUse[]> = {
  git,
  cp: transfer,
  install: transfer,
  ln: transfer,
  mv: transfer,
  curl,
  wget,
  sort,
  patch,
  dd,
  find,
  tar: extracts(tarExtractDirs),
  gtar: extracts(tarExtractDirs),
  bsdtar: extracts(tarExtractDirs),
  unzip: extracts(unzipExtractDir),
  docker: container,
  podman: container,
  nerdctl: container,
};
