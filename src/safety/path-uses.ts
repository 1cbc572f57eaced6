import { CLIENT_CONFIG_USES } from './client-config-commands.ts';
import { type Invocation, programName } from './command.ts';
import { containerBinds } from './container-cli.ts';
import { envFileRun } from './env-files.ts';
import { unzipExtractDir } from './families/system-args.ts';
import { REMOVERS, removesSelected } from './find-expression.ts';
import { keyFileUses } from './key-files.ts';
import { ownCredentialUses } from './own-credentials.ts';
import { type Access, generic, options, type PathUse, use } from './path-access.ts';
import { extracts, otherExtractorUses, tarUses } from './path-uses-archives.ts';
import { curl, wget } from './path-uses-downloads.ts';
import { gitPathUses } from './path-uses-git.ts';
import { jqUses } from './path-uses-jq.ts';
import { ageKeygen, certtool, keytool, minisign, step } from './path-uses-key-makers.ts';
import { mkcert, openssl, sshKeygen, trustStore } from './path-uses-keys.ts';
import { transfer } from './path-uses-transfers.ts';
import { grep, ripgrep } from './search-patterns.ts';
import { filledFileUses } from './secret-file-writers.ts';
import { sed } from './sed-script.ts';
import { SQL_FILE_USES } from './sql-file-reads.ts';
import { storedFilePath } from './stored-file-settings.ts';
import type { Word } from './syntax.ts';
import { settingsFileUses } from './tool-settings.ts';
import { TRANSFER_SCRIPT_USES } from './transfer-scripts.ts';
import { venvUses } from './venv-folders.ts';

/**
 * Each path a command names and what it does to its content (path-access.ts's kinds): the
 * programs whose words say more than "every path read" — downloaders (path-uses-downloads.ts),
 * sort, patch, dd, cp, mv, ln, install (path-uses-transfers.ts), truncate, touch, sed
 * (sed-script.ts), key generators (openssl, mkcert, ssh-keygen: path-uses-keys.ts), find,
 * containers, git (path-uses-git.ts), tar (path-uses-archives.ts), unzip, editors — each read word by word; a virtual
 * environment's maker by venv-folders.ts; every other program by path-access.ts generic.
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
/**
 * pathUses' answers by invocation: the path rules, the history rule and the system family each
 * ask for every command's (three times an invocation on the guard's battery), and an invocation is
 * not changed once peeled (command.ts unwrap).
 */
const usesByInvocation = new WeakMap<Invocation, readonly PathUse[]>();

/** Each path a command names and what it does with it; see the module comment. Asked again for the same invocation, the same list (read-only by its type: frozen, a long one's elements would turn to a slow dictionary). */
export function pathUses(inv: Invocation): readonly PathUse[] {
  let uses = usesByInvocation.get(inv);
  if (!uses) usesByInvocation.set(inv, (uses = pathUsesAnew(inv)));
  return uses;
}

function pathUsesAnew(inv: Invocation): PathUse[] {
  // `mvn -s ~/.m2/settings.xml package`: a build tool handed its own settings (tool-settings.ts)
  // `kubectl --kubeconfig ~/.kube/prod.yaml get ns`: a credential handed to the program it is for (own-credentials.ts)
  // `cosign sign-blob --key cosign.key artifact`: a key handed to the tool that signs with it (key-files.ts)
  // `vercel env pull .env.local`: a file a program fills with secrets is written, not read (secret-file-writers.ts)
  const uses = filledFileUses(inv, keyFileUses(inv, ownCredentialUses(inv, settingsFileUses(inv, usesOf(inv)))));
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
  // `poetry config certificates.x.cert ca.pem`: a CA bundle's path stored, not read (stored-file-settings.ts)
  const stored = storedFilePath(inv);
  return stored
    ? generic(
        inv,
        inv.args.filter((w) => w !== stored),
      )
    : generic(inv);
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
/**
 * mktemp: makes a file (or, `-d`, a folder) of a new name, its template's X's replaced by random
 * characters, and fails where that name is taken: nothing that was there is read or written over.
 * The template is a file made, as touch's operand; `-p DIR`, `--tmpdir=DIR` the folder it is made in.
 */
function mktemp(inv: Invocation): PathUse[] {
  const out: PathUse[] = [];
  // `--tmpdir` takes its folder only as `--tmpdir=DIR`: the word after it is the template
  const operands = options(inv.args, 'p', new Set(['--suffix']), (name, w, value) => {
    if (name === '-p') out.push(use(w, value, 'into'));
  });
  for (const w of inv.args) if (w.value.startsWith('--tmpdir=')) out.push(use(w, w.value.slice('--tmpdir='.length), 'into'));
  return [...out, ...operands.filter((w) => !w.value.startsWith('-')).map((w) => use(w, w.value, 'write'))];
}
/** dd: `of=` written, `if=` read. */
function dd(inv: Invocation): PathUse[] {
  return inv.args.flatMap((w) =>
    w.value.startsWith('of=') ? [use(w, w.value.slice(3), 'write')] : w.value.startsWith('if=') ? [use(w, w.value.slice(3), 'read')] : [],
  );
}

/** `find <roots> … -delete` removes its roots' contents (without a name test); `-name X -exec cmd` reads what the name selects. */
function find(inv: Invocation): PathUse[] {
  const uses = generic(inv);
  const a = inv.args;
  const roots = uses.filter((u) => !u.word.value.startsWith('-'));
  const rootValues = roots.length ? roots.map((u) => u.value) : ['.'];
  const deletes = a.some((w, i) => w.value === '-delete' || (/^-(exec|execdir|ok|okdir)$/.test(w.value) && REMOVERS.test(a[i + 1]?.value ?? '')));
  const runs = a.some((w) => /^-(exec|execdir|ok|okdir)$/.test(w.value));
  // removing, what a test names is removed unless the expression keeps it out (find-expression.ts removesSelected);
  // running a program, what it names is handed to it unless kept out likewise (`-not -path '*/.*' -exec grep …`)
  const expression = a.slice(roots.length ? a.indexOf(roots.at(-1)!.word) + 1 : 0).map((w) => w.value);
  const reading = { empty: 'no' as const, everyExec: !deletes };
  const excludes = (i: number) => (deletes || runs) && rootValues.every((root) => !removesSelected(expression, a[i]!.value, a[i + 1]!.value, root, reading));
  const named = a.flatMap((w, i) => (/^-i?(name|path|wholename)$/.test(w.value) && a[i + 1] && !excludes(i) ? [{ word: a[i + 1]!, test: w.value }] : []));
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

/** `docker run -v ~/.ssh:/k`, `--mount type=bind,source=…` (container-cli.ts containerBinds): a host folder mounted is read whole. */
function container(inv: Invocation): PathUse[] {
  const mounts: PathUse[] = [];
  // a named volume is docker's, not a host path
  for (const b of containerBinds(
    inv.program,
    inv.args.map((w) => w.value),
  ))
    if (/^[/~.\uE000$]/.test(b.source)) mounts.push(use(inv.args[b.at]!, b.source, 'read', { tree: true }));
  return [...mounts, ...generic(inv)];
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
  // `claude mcp add --scope project …`: the client's own settings file written (client-config-commands.ts)
  ...CLIENT_CONFIG_USES,
  // `lftp -e 'put .env; bye' h`: the files a transfer client's command script uploads (transfer-scripts.ts)
  ...TRANSFER_SCRIPT_USES,
  // `psql -c "\\copy t from '.env'"`, `mysql -e "LOAD DATA LOCAL INFILE …"`: a file the client reads and sends to the server (sql-file-reads.ts)
  ...SQL_FILE_USES,
  git: gitPathUses,
  // `jq '.env' package.json`: its filter is a program, not a path (path-uses-jq.ts)
  jq: jqUses,
  gojq: jqUses,
  jaq: jqUses,
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
  mktemp,
  openssl,
  // GmSSL, an openssl fork with its options (`gmssl sm2 -genkey -out key.pem`)
  gmssl: openssl,
  mkcert,
  'ssh-keygen': sshKeygen,
  // step certificate create, minisign -G, age-keygen -o, certtool --outfile, keytool -genkeypair: the keys they make (path-uses-key-makers.ts)
  step,
  keytool,
  minisign,
  'age-keygen': ageKeygen,
  certtool,
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
  tar: tarUses,
  gtar: tarUses,
  bsdtar: tarUses,
  unzip: extracts(unzipExtractDir),
  '7z': otherExtractorUses,
  '7za': otherExtractorUses,
  '7zz': otherExtractorUses,
  '7zr': otherExtractorUses,
  cpio: otherExtractorUses,
  dpkg: otherExtractorUses,
  'dpkg-deb': otherExtractorUses,
  unrar: otherExtractorUses,
  rar: otherExtractorUses,
  zstd: otherExtractorUses,
  unzstd: otherExtractorUses,
  lz4: otherExtractorUses,
  docker: container,
  podman: container,
  nerdctl: container,
};
