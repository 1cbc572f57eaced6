import { posix } from 'node:path';
import { isSecretName } from '../model/sandbox.ts';
import { type Invocation, programName } from './command.ts';
import { envFileRun } from './env-files.ts';
import { UNKNOWN } from './expand.ts';
import { parseArgs, tarExtractDirs, unzipExtractDir } from './families/system-args.ts';
import { REMOVERS, removesSelected } from './find-expression.ts';
import { gitNameUses } from './git-name-queries.ts';
import { configOperands, namesFileOnly } from './git-settings.ts';
import { GIT_LONG_OPTIONS, spelledOut, TRANSFER_LONG_OPTIONS } from './long-options.ts';
import { type Access, backsUp, generic, options, type PathUse, use } from './path-access.ts';
import { mkcert, openssl, sshKeygen, trustStore } from './path-uses-keys.ts';
import { globAlternatives } from './paths.ts';
import { gitGrepWords, gitLogWords, grep, ripgrep } from './search-patterns.ts';
import { sed } from './sed-script.ts';
import type { Word } from './syntax.ts';
import { venvUses } from './venv-folders.ts';

/**
 * Each path a command names and what it does to its content (path-access.ts's kinds): the
 * programs whose words say more than "every path read" — downloaders, sort, patch, dd, cp, mv,
 * ln, install, truncate, touch, sed (sed-script.ts), key generators (openssl, mkcert, ssh-keygen:
 * path-uses-keys.ts), find, containers, git, tar, unzip, editors — each read word by word; a
 * virtual environment's maker by venv-folders.ts; every other program by path-access.ts generic.
 */

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
/** Editors: each file they name is shown, then written back (an edit). */
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
/**
 * Whether an editor opens its files to view only: vim's `-R`, `-M` without commands to run (`-c
 * 'w!'`, `+cmd`, `--cmd`, `-S`, `-s` write anyway), nano's `-v` / `--view`.
 */
function viewsOnly(inv: Invocation): boolean {
  const a = inv.args.map((w) => w.value);
  if (/^(n?vim?|ex)$/.test(inv.program)) return a.some((v) => v === '-R' || v === '-M') && !a.some((v) => /^(-c|--cmd|-S|-s)/.test(v) || v.startsWith('+'));
  if (inv.program === 'nano' || inv.program === 'pico') return a.some((v) => /^-[A-Za-z]*v[A-Za-z]*$/.test(v) || v === '--view');
  return false;
}
/** Each path a command names and what it does with it; see the module comment. */
export function pathUses(inv: Invocation): PathUse[] {
  const uses = usesOf(inv);
  // `node --env-file=.env server.js`: a file handed to a program as its environment, which shows none of it (env-files.ts)
  const run = envFileRun(inv);
  if (!run || run.shows || !run.files.length) return uses;
  return uses.map((u): PathUse => (run.files.includes(u.word) && u.access === 'read' ? { ...u, access: 'env' } : u));
}

function usesOf(inv: Invocation): PathUse[] {
  const p = inv.program;
  if (DATA_ONLY.has(p)) return [];
  const venv = venvUses(inv);
  if (venv) return venv;
  const special = SPECIAL[p];
  if (special) return special(inv);
  if (EDITORS.has(p)) {
    const access = viewsOnly(inv) ? 'read' : 'edit';
    return inv.args.filter((w) => !w.value.startsWith('-') && !w.value.startsWith('+')).map((w) => use(w, w.value, access));
  }
  return generic(inv);
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

/** truncate and touch: each operand written (emptied, cut or made); `-r FILE` only gives a size or times, `-d`/`-t` a time. */
function sizesOrTimes(inv: Invocation): PathUse[] {
  const out: PathUse[] = [];
  const touch = inv.program === 'touch';
  const operands = options(inv.args, touch ? 'rdt' : 'sr', new Set(['--size', '--reference', '--date']), (name, w, value) => {
    if (name === '-r' || name === '--reference') out.push(use(w, value, 'meta'));
  });
  return [...out, ...operands.map((w) => use(w, w.value, 'write'))];
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
  const args = spelledOut(inv.args, TRANSFER_LONG_OPTIONS[p] ?? []);
  let into: PathUse | undefined;
  const operands = options(args, p === 'install' ? 'tSmog' : 'tS', TRANSFER_LONG, (name, w, value) => {
    if (name === '-t' || name === '--target-directory') into = use(w, value, 'into');
  });
  const uses = generic(inv, operands);
  // `install -d a b` makes every operand a folder
  if (p === 'install' && inv.args.some((w) => /^-[A-Za-z]*d/.test(w.value) || w.value === '--directory'))
    return uses.map((u): PathUse => ({ ...u, access: 'write' }));
  // `ln -s /etc/hosts` links ./hosts: the one operand is what the link names
  if (p === 'ln' && !into && uses.length === 1) {
    const source = uses[0]!;
    const here = use(source.word, `./${source.value.replace(/\/+$/, '').split('/').pop()}`, 'write');
    return [keptSecret(source.value, here) ? { ...source, access: 'none' } : source, here];
  }
  const dest = into ? undefined : uses.at(-1);
  const kept = dest !== undefined && uses.length === 2 && keptSecret(uses[0]!.value, dest);
  const source: Access = p === 'mv' ? (kept ? 'remove' : 'edit') : p === 'ln' && kept ? 'none' : 'read';
  const destAccess: Access = backsUp(args) ? 'edit' : 'write';
  const out = uses.map((u): PathUse => ({ ...u, access: u === dest ? destAccess : source }));
  return into ? [...out, into] : out;
}

/** Whether what `from` names, moved or linked to `to`, stays beside it under a secret name: the same folder as written (no `..` in `to`), `to` a plain path named as a secret. */
function keptSecret(from: string, to: PathUse): boolean {
  const name = to.value;
  // `x/..` is the folder above where x's link leads, which may be anywhere
  if (to.word.glob || name.includes(UNKNOWN) || name.endsWith('/') || /(^|\/)\.\.(\/|$)/.test(name) || !isSecretName(posix.basename(name))) return false;
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
  const deletes = a.some((w, i) => w.value === '-delete' || (/^-(exec|execdir|ok|okdir)$/.test(w.value) && REMOVERS.test(a[i + 1]?.value ?? '')));
  // removing, what a test names is removed unless the expression keeps it out (find-expression.ts removesSelected)
  const expression = a.slice(roots.length ? a.indexOf(roots.at(-1)!.word) + 1 : 0).map((w) => w.value);
  const excludes = (i: number) => deletes && rootValues.every((root) => !removesSelected(expression, a[i]!.value, a[i + 1]!.value, root));
  const named = a.flatMap((w, i) => (/^-i?(name|path|wholename)$/.test(w.value) && a[i + 1] && !excludes(i) ? [{ word: a[i + 1]!, test: w.value }] : []));
  const runs = a.some((w) => /^-(exec|execdir|ok|okdir)$/.test(w.value));
  const out = deletes && !named.length ? uses.map((u) => ({ ...u, access: 'remove' as const })) : uses;
  if (runs || deletes) {
    for (const n of named) {
      for (const root of rootValues) {
        const value = /path$/.test(n.test) ? n.word.value : `${root.replace(/\/+$/, '')}/**/${n.word.value}`;
        out.push(use(n.word, value, deletes ? 'remove' : handedAccess(inv), { glob: true, found: true }));
      }
    }
  }
  return out;
}

/** What find's `-exec CMD … {}` commands do to the files handed them (`-exec mv {} /tmp/ \;` moves them away: edited, as mv's sources), the strongest; read when none says more. */
function handedAccess(inv: Invocation): Access {
  const a = inv.args;
  let strongest: Access = 'read';
  a.forEach((w, i) => {
    if (!/^-(exec|execdir|ok|okdir)$/.test(w.value) || !a[i + 1]) return;
    const end = a.findIndex((x, k) => k > i && (x.value === ';' || x.value === '+'));
    const words = a.slice(i + 1, end < 0 ? undefined : end);
    const program = programName(words[0]!.value);
    const handed: Invocation = { program, args: words.slice(1), via: [], runners: [], chdir: null, command: { ...inv.command, words } };
    for (const u of pathUses(handed))
      if (u.value.includes('{}') && HANDED_STRENGTH.indexOf(u.access) > HANDED_STRENGTH.indexOf(strongest)) strongest = u.access;
  });
  return strongest;
}

/** The accesses of a file handed to `-exec`, weakest first: the strongest of them is what the find does to what it names. */
const HANDED_STRENGTH: readonly Access[] = ['read', 'mode', 'write', 'edit', 'remove'];

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
/** The options of git checkout and restore that take a value (`-b NAME`, `-s REV`): a letter after one in a cluster is its value. */
const GIT_WRITER_VALUED = new Set(['-b', '-B', '-s', '--source', '--orphan', '--conflict', '--pathspec-from-file']);

/**
 * git: `rm` removes (`--cached` only untracks), `mv` moves (as mv does), `checkout`/`restore`
 * write paths (with `-p` they show them first), `show REV:path` reads one; `check-ignore`,
 * `ls-files`, `status` only show a name (git-name-queries.ts); git grep's and git log's patterns
 * are no paths (search-patterns.ts).
 */
function git(inv: Invocation): PathUse[] {
  const a = inv.args;
  let i = 0;
  while (i < a.length && a[i]!.value.startsWith('-')) i += GIT_VALUED.has(a[i]!.value) ? 2 : 1;
  const sub = a[i]?.value;
  const long = sub !== undefined && Object.hasOwn(GIT_LONG_OPTIONS, sub) ? GIT_LONG_OPTIONS[sub] : undefined;
  const rest = long ? spelledOut(a.slice(i + 1), long) : a.slice(i + 1);
  const values = rest.map((w) => w.value);
  // git's short options cluster (`-qp`) and its long ones may be abbreviated (`--patc`)
  const given = long ? parseArgs(rest, GIT_WRITER_VALUED).flags : new Set<string>();
  const patchMode = given.has('p') || given.has('--patch');
  const operands = () => {
    const dash = values.indexOf('--');
    return dash >= 0 ? rest.slice(dash + 1) : rest.filter((w) => !w.value.startsWith('-'));
  };
  const named = sub === undefined ? null : gitNameUses(inv, sub, rest);
  if (named) return named;
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
      if ((given.has('S') || given.has('--staged')) && !(given.has('W') || given.has('--worktree'))) return [];
      const source = values.findIndex((v) => v === '-s' || v === '--source');
      return operands()
        .filter((w) => w !== rest[source + 1] || source < 0)
        .map((w) => use(w, w.value, patchMode ? 'edit' : 'write'));
    }
    case 'show':
    case 'cat-file':
    case 'archive':
    case 'grep': {
      // git grep's pattern is no path; its pattern file is read (search-patterns.ts)
      const searched = sub === 'grep' ? gitGrepWords(rest) : { words: rest, reads: [] };
      const objects = searched.words.flatMap((w) => {
        const m = /^[^:\s]*:(?!\/\/)(.+)$/.exec(w.value);
        return m && !w.value.startsWith('-') ? [use(w, m[1]!, 'read', { fromRoot: !/^\.\.?\//.test(m[1]!) })] : [];
      });
      return [...searched.reads, ...objects, ...generic(inv, searched.words)];
    }
    case 'log':
      return generic(inv, gitLogWords(rest));
    // `git config trailer.sign.key x`: the setting's name is no path (its value and `--file` may be)
    case 'config': {
      const at = configOperands(values);
      // `git config core.excludesFile .env.local`: a setting whose file git never shows only names it (git-settings.ts namesFileOnly)
      const skip = at[0] === undefined ? [] : namesFileOnly(values[at[0]]!) ? at.slice(0, 2) : [at[0]];
      return generic(
        inv,
        rest.filter((_, j) => !skip.includes(j)),
      );
    }
    default:
      return sub === undefined ? [] : generic(inv, rest);
  }
}

/**
 * bash's `history -w FILE` (or `-a`) writes the history into FILE, `-r`/`-n` read it; `-p`/`-s`
 * words and `-d`'s offset are no paths, and the default history file (`~/.bash_history`, where
 * plain `history -w` writes) is none to judge.
 */
function history(inv: Invocation): PathUse[] {
  const flags = inv.args
    .filter((w) => /^-[a-z]+$/.test(w.value))
    .map((w) => w.value)
    .join('');
  const file = inv.args.find((w) => !w.value.startsWith('-'));
  if (!file || /[psd]/.test(flags) || /^(~|\$HOME|\$\{HOME\})\/\.bash_history$/.test(file.raw.replace(/"/g, ''))) return [];
  return /[wa]/.test(flags) ? [use(file, file.value, 'write')] : /[rn]/.test(flags) ? [use(file, file.value, 'read')] : [];
}

const SPECIAL: Record<string, (inv: Invocation) => PathUse[]> = {
  git,
  history,
  cp: transfer,
  install: transfer,
  ln: transfer,
  mv: transfer,
  curl,
  wget,
  sort,
  sed,
  patch,
  dd,
  truncate: sizesOrTimes,
  touch: sizesOrTimes,
  openssl,
  mkcert,
  'ssh-keygen': sshKeygen,
  'update-ca-certificates': trustStore,
  'update-ca-trust': trustStore,
  trust: trustStore,
  security: trustStore,
  rg: ripgrep,
  grep,
  egrep: grep,
  fgrep: grep,
  rgrep: grep,
  find,
  tar: extracts(tarExtractDirs),
  gtar: extracts(tarExtractDirs),
  bsdtar: extracts(tarExtractDirs),
  unzip: extracts(unzipExtractDir),
  docker: container,
  podman: container,
  nerdctl: container,
};
