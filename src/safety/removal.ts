import { posix } from 'node:path';
import type { BashContext } from './bash-rules.ts';
import type { Invocation } from './command.ts';
import { hasFlag, parseArgs, valueOf } from './families/system-args.ts';
import { type FoundFile, findRemoves, REMOVERS, type Tri } from './find-expression.ts';
import type { Finding } from './git-rules.ts';
import { findsHistory, globFolder, historyPart } from './history-files.ts';
import { findsDocuments, homeDataFolder, userDocument } from './home-data.ts';
import { leadingFolder, leadingSubstitution, ownCommands } from './known-folders.ts';
import { RM_LONG_OPTIONS, spellOut } from './long-options.ts';
import { throughLink } from './made-links.ts';
import { mirrorRemoval } from './mirror-deletes.ts';
import { otherHome, resolvePath, wordPath } from './paths.ts';
import { commandPrints, listedFolders, substitutionPrints, UNKNOWN_NAMES } from './printed-names.ts';
import { removalReading, removesAsRm } from './removers.ts';
import { isDynamic, UNKNOWN, type Word } from './shell.ts';
import { clearedVenvReading } from './venv-folders.ts';
import { WINDOWS_SYSTEM_FOLDERS } from './windows-paths.ts';

/**
 * The removal rule (`rm.root`, always on): what recursive removal, `find -delete`, `rsync
 * --delete` and `mv` must never take away — `/`, the home folders, the system folders, the
 * project, its `.git` and its history — in every spelling the parser can read.
 */

/** Folders whose recursive removal wrecks the machine. */
const SYSTEM_DIRS = new Set([
  '/',
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/home',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/opt',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/snap',
  '/srv',
  '/sys',
  '/usr',
  '/var',
  '/var/lib',
  '/var/log',
  '/System',
  '/Library',
  '/Applications',
  '/Users',
  '/Volumes',
  '/private',
  '/private/etc',
  '/private/var',
  '/nix',
  '/nix/store',
  // a Windows drive's, as windows-paths.ts names them
  ...WINDOWS_SYSTEM_FOLDERS.map((f) => `/${f}`),
]);

/** Whether an absolute path is a system folder whose recursive removal wrecks the machine (`/etc`, `/usr/lib`, `/usr/local`, `/var/lib`). */
export function isSystemFolder(abs: string): boolean {
  return SYSTEM_DIRS.has(abs) || /^\/usr\/[^/]+$/.test(abs);
}

/**
 * `rm` recursive on `/`, `~`, `$HOME`, `/*`, a system folder, the project or its `.git` — in any
 * flag spelling — `find <such a folder> -delete`, and `rsync --delete` into such a folder (from an
 * empty one it removes everything there). `--no-preserve-root` is refused outright.
 */
export function checkRemoval(inv: Invocation, ctx: BashContext): Finding | null {
  // `rimraf ~`, `del-cli '~/**'`, `trash ~`: a removal program is judged as the rm or mv it amounts to (removers.ts);
  // `python -m venv --clear ~` as the `rm -rf ~` it starts with (venv-folders.ts)
  const read = removalReading(inv) ?? clearedVenvReading(inv);
  if (read) return read.program === 'mv' ? checkMovedAway(read, ctx) : checkRemoval(read, ctx);
  // a program only the shell knows (`$(echo rm) -rf /`, `$CMD -rf /`) is checked as if it were rm — but given an option
  // rm refuses (`${SED} -i -re … "$x"`), it is no rm: rm would stop there and remove nothing
  if (inv.program === 'rm' || (inv.program.includes(UNKNOWN) && !inv.args.some(refusedByRm))) {
    let recursive = false;
    let optionsEnd = false;
    const targets: Word[] = [];
    for (const w of inv.args) {
      const v = w.value;
      if (!optionsEnd && v === '--') optionsEnd = true;
      // long options may be abbreviated: `--no-pres`, `--recu`
      else if (!optionsEnd && rmOption(v) === '--no-preserve-root') return { rule: 'rm.root', reason: '`rm --no-preserve-root` is never allowed' };
      else if (!optionsEnd && recursiveFlag(v)) recursive = true;
      else if (!optionsEnd && v.startsWith('-') && v !== '-') continue;
      // an operand the shell made empty (`rm -rf ""`, `"${x%dist}"`) names no file: rm removes nothing there
      else if (v === '' && !w.glob) continue;
      else targets.push(w);
    }
    // `rm -f .git/objects/pack/*.pack`, `rm .git/packed-refs`: files of the history, removed one by one
    if (!recursive) {
      for (const t of targets) {
        const part = !isDynamic(t) && ctx.cwd !== null ? historyPart(resolvePath(globFolder(t.value, t.glob), { cwd: ctx.cwd, home: ctx.home }), ctx) : null;
        if (part)
          return { rule: 'rm.root', reason: `\`rm\` of the project's history (${part}) loses commits; it is never allowed. Use git to drop what you mean` };
        // `rm ~/Documents/thesis.docx`, `rm ~/notes.txt`: the user's documents, one by one (home-data.ts)
        // (a quoted tilde, `rm "~/my notes.txt"`, is a folder named `~` here: paths.ts wordPath)
        const doc = isDynamic(t) ? null : documentNamed(wordPath(t), ctx);
        if (doc) return { rule: 'rm.root', reason: `\`rm\` of ${doc} is never allowed: no copy of it is kept. Ask the user to remove it` };
      }
      return null;
    }
    for (const t of targets) {
      // `rm -rf $(find . -name '*.egg-info')`, `rm -rf $(ls dist)`: what the listing prints, judged as the find that lists it, with `-delete`
      const found = listedBy(t);
      if (found) {
        const f = checkRemoval({ ...inv, program: 'find', args: [...found, { ...found[0]!, value: '-delete', raw: '-delete', subs: [] }] }, ctx);
        if (f) return f;
        continue;
      }
      const why = dangerousTarget(t, ctx);
      if (why) return { rule: 'rm.root', reason: `\`rm -r\` on ${why} is never allowed. Remove the specific files or folders you mean` };
    }
    return null;
  }
  // `rsync --delete`, `rclone sync`, `aws s3 sync --delete`…: what the mirror deletes or moves away (mirror-deletes.ts)
  const mirror = mirrorRemoval(inv);
  if (mirror) {
    for (const dest of mirror.deleted) {
      const why = dangerousTarget(dest, ctx);
      if (why)
        return {
          rule: 'rm.root',
          reason: `\`${mirror.verb}\` into ${why} removes all its source lacks there; it is never allowed. Sync into a folder of its own`,
        };
    }
    // `rsync -a --remove-source-files ~/Documents/ /tmp/h/`: what it sends is taken away from where it was, as `mv` takes it
    for (const w of mirror.moved) {
      const moved = dangerousTarget(w, ctx, true);
      if (moved)
        return {
          rule: 'rm.root',
          reason: `\`${mirror.verb}\` of ${moved} takes it away from where everything expects it; it is never allowed. Copy it without the option`,
        };
    }
    return null;
  }
  if (inv.program === 'find') {
    const a = inv.args;
    const values = a.map((w) => w.value);
    if (!findDestroys(values)) return null;
    const targeted = findTargeted(values);
    // `-empty` in the project selects what holds nothing there (elsewhere an empty folder may be a mount point)
    const emptyOnly = findTargeted(values, 'no');
    // `find -delete` without a folder starts at `.`
    const roots = a.findIndex((w) => /^[-(!]/.test(w.value)) === 0 ? [{ ...a[0]!, value: '.', raw: '.', glob: false, leadingVar: null, subs: [] }, ...a] : a;
    for (const w of targeted ? [] : roots) {
      if (/^[-(!]/.test(w.value)) break;
      if (emptyOnly && !isDynamic(w) && ctx.cwd !== null && resolvePath(w.value, { cwd: ctx.cwd, home: ctx.home }) === ctx.root) continue;
      const why = dangerousTarget(w, ctx);
      if (why) return { rule: 'rm.root', reason: `\`find ... -delete\` on ${why} is never allowed` };
    }
    // `find .git -name '*.pack' -delete`, `find . ! -name '*.ts' -delete`: what the expression selects holds history
    const history = findsHistory(inv.args, ctx);
    if (history) return { rule: 'rm.root', reason: `\`find\` removing ${history} loses commits; it is never allowed. Use git to drop what you mean` };
    // `find ~/Documents -name '*.docx' -delete`: the user's documents, one by one, that the expression selects (home-data.ts)
    const doc = findsDocuments(inv.args, ctx);
    if (doc) return { rule: 'rm.root', reason: `\`find\` removing ${doc} is never allowed: no copy of it is kept. Ask the user to remove it` };
  }
  return null;
}

/** Whether a find's words remove what they select: `-delete`, or `-exec` of a remover (not rmdir, which takes only empty folders). */
function findDestroys(a: readonly string[]): boolean {
  return a.includes('-delete') || a.some((v, i) => (v === '-exec' || v === '-execdir') && REMOVERS.test(a[i + 1] ?? '') && !/rmdir$/.test(a[i + 1]!));
}

/**
 * Whether a find's expression picks what it removes (`a`: its roots, then the expression), read
 * as find evaluates it (find-expression.ts): it removes neither a starting folder itself (`find .
 * -name node_modules -prune -exec rm -rf {} +` does not select `.`; `-prune`, `-maxdepth 0` alone
 * do) nor any file below one whatever its name (`-type f`, `-mindepth 1`, `! -name x`, `-name
 * '.*'` do). `-empty` holds of any file (`yes`) unless `empty` says: with `no`, whether it picks
 * what it removes or takes only what is empty (`-type d -empty`, `-not -path './.git/*' -empty`).
 */
function findTargeted(a: readonly string[], empty: Tri = 'yes'): boolean {
  const start = a.findIndex((v) => /^[-(!]/.test(v));
  const roots = start < 0 ? a : a.slice(0, start);
  const removes = findRemoves(start < 0 ? [] : a.slice(start), { empty });
  for (const root of roots.length ? roots : ['.']) {
    const name = root.replace(/(.)\/+$/, '$1');
    const folder: FoundFile = { path: root, name: name.slice(name.lastIndexOf('/') + 1) || name, dir: true, depth: 0 };
    if (removes(folder, [])) return false;
    // a name no test names: with and without a leading dot, a folder and a file
    const base = root.endsWith('/') ? root : `${root}/`;
    for (const child of ['\u0001', '.\u0001'])
      for (const dir of [true, false]) if (removes({ path: base + child, name: child, dir, depth: 1 }, [folder])) return false;
  }
  return true;
}

/**
 * Whether a command's words (`rm -rf`, `/bin/rm -r --`, `find {} -delete`) remove recursively
 * what they are handed: a recursive rm, or a removing find without a test that picks what it removes.
 */
export function removesRecursively(argv: readonly string[]): boolean {
  if (argv[0] === 'find') return findDestroys(argv) && !findTargeted(argv.slice(1));
  return removesRecursivelyByRm(argv);
}

/** Whether an rm option makes it recursive: `-r`, `-R`, in a cluster (`-rf`), `--recursive` or its abbreviations (`--recu`). */
function recursiveFlag(v: string): boolean {
  return rmOption(v) === '--recursive' || (/^-[A-Za-z]+$/.test(v) && /[rR]/.test(v));
}

/** rm's short options, GNU's and the BSDs' (`-P`, `-W`, `-x`). */
const RM_SHORT_OPTIONS = /^-[fiIrRdvPWx]+$/;

/**
 * Whether rm refuses word `w` as an option before it removes anything (`-e`, `-rn`, `--exclude-dir`):
 * a word only the shell knows in part (`-$FLAGS`) may be any. Words after `--` are not asked about.
 */
function refusedByRm(w: Word, i: number, args: readonly Word[]): boolean {
  const v = w.value;
  if (!v.startsWith('-') || v === '-' || v === '--' || v.includes(UNKNOWN) || args.slice(0, i).some((a) => a.value === '--')) return false;
  if (v.startsWith('--')) return !RM_LONG_OPTIONS.includes(rmOption(v).replace(/=.*$/, ''));
  return !RM_SHORT_OPTIONS.test(v);
}

/** An rm long option spelled out in full as getopt reads it (`--recu` is `--recursive`); any other word as it is. */
function rmOption(v: string): string {
  return v.startsWith('--') ? spellOut(v, RM_LONG_OPTIONS) : v;
}

/** Whether a command's words (`rm -rf`, `/bin/rm -r --`) are a recursive rm. */
function removesRecursivelyByRm(argv: readonly string[]): boolean {
  const program = argv[0]?.slice(argv[0].lastIndexOf('/') + 1) ?? '';
  // `xargs rimraf`, `find … -exec del-cli {} +`: a removal program removes as `rm -rf` does (removers.ts)
  if (removesAsRm(program)) return true;
  if (program !== 'rm') return false;
  const end = argv.indexOf('--');
  return argv.slice(1, end < 0 ? undefined : end).some(recursiveFlag);
}

/**
 * What follows the part of a path only the shell knows, its `..` resolved against the parts
 * before them (`/sub/..` is nothing, `/a/../../b` is `/b`), and whether one climbs out of that
 * part (`/..`: its parent, a folder no better known). Without a `..` it stays as written.
 */
function afterUnknown(rest: string): { rest: string; climbsOut: boolean } {
  if (!/(^|\/)\.\.(\/|$)/.test(rest)) return { rest, climbsOut: false };
  const parts: string[] = [];
  let climbsOut = false;
  for (const part of rest.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') parts.push(part);
    else if (parts.length) parts.pop();
    else climbsOut = true;
  }
  return { rest: parts.length ? `/${parts.join('/')}` : '', climbsOut };
}

/**
 * `/$DIR/*`, `"/$DIR"`: the root before a variable only the shell knows adds nothing to it (paths.ts
 * withoutRootBeforeUnknown), so the word is judged as `$DIR/*`, `"$DIR"` (empty, that is `/*`).
 */
function rootedVariable(w: Word): Word {
  const m = w.leadingVar || !ROOT_BEFORE_VARIABLE_VALUE.test(w.value) ? null : ROOT_BEFORE_VARIABLE.exec(w.raw);
  return m ? { ...w, value: w.value.replace(/^\/+/, ''), leadingVar: m[1]! } : w;
}
const ROOT_BEFORE_VARIABLE = /^"?\/+"?\$\{?([A-Za-z_][A-Za-z0-9_]*)/;
const ROOT_BEFORE_VARIABLE_VALUE = new RegExp(`^/+${UNKNOWN}`);

/**
 * Why removing this target recursively would be a disaster, or null. `moved`: the target is moved
 * away, not removed — a glob in the project (`mv * pkg/`) moves what is in it within it.
 */
function dangerousTarget(given: Word, ctx: BashContext, moved = false): string | null {
  const w = rootedVariable(given);
  let v = wordPath(w);
  // `"$PWD/.git"`, `"$(pwd)"`, `"$(git rev-parse --show-toplevel)"`: a folder the context knows
  const lead = leadingFolder(w, ctx);
  if (lead !== null && !v.slice(1).includes(UNKNOWN)) v = lead + v.slice(1);
  else if (isDynamic(w)) {
    const sub = w.leadingVar ? null : leadingSubstitution(w);
    const printed = sub && substitutionPrints(sub);
    // `rm -rf $(cat dirs.txt)`, `$(< list)`, `$(jq -r … list.json)`: the names a program prints, as `cat dirs.txt | xargs rm -rf`
    if (printed?.names === 'unknown' && v === UNKNOWN) return `${w.raw} (the names \`${printed.program}\` prints, ${UNKNOWN_NAMES})`;
    // `ls ~ | while read f; do rm -rf ~/"$f"`, `rm -rf /$(cat list)`: a name a program prints, in a folder
    const named = namedIn(w, ctx);
    if (named !== undefined) return named;
    // `rm -rf "$(tool print-dir)"` is judged as `rm -rf "$DIR"`: but for a fresh folder (`$(mktemp -d)`), `$(npm root)`, `$(git ls-files -o)`
    // `bash -c "rm -rf $DIR"`, `eval "rm -rf $x"`: a script's word the enclosing shell's expansion starts, which only it knows
    const outer = !w.leadingVar && !sub && w.raw.startsWith(UNKNOWN);
    // `"$X/../.."`: a `..` that climbs out of the folder only the shell knows leaves a folder above it, any folder
    // (`"${X:?}/.."`, `"$(mktemp -d)/.."`, `"$(npm root)/.."` too: what is set or disposable, its parent is not)
    const { rest, climbsOut } = afterUnknown(v.slice(v.indexOf(UNKNOWN) + 1));
    const leaves = climbsOut && !rest;
    if ((!w.leadingVar && !sub && !outer) || (!leaves && (w.guarded || printed?.names === 'disposable')) || (printed?.names === 'project' && v === UNKNOWN))
      return null;
    const what = w.leadingVar ? `$${w.leadingVar}` : outer ? 'what the enclosing shell put there' : 'what the substitution prints';
    const stop = w.leadingVar ? `use "\${${w.leadingVar}:?}" to make the shell stop instead` : 'name the folder';
    const shown = w.raw.replaceAll(UNKNOWN, '…');
    // `rm -rf "$DIR/"`: when DIR is empty or unset this is `rm -rf /`
    // (moving `"$DIR"` away when DIR is empty moves nothing; `"$DIR"/*` moves what / holds)
    // (a quoted `*`, `"$DIR/*"`, is a character of the name: with DIR empty that is the file `/*`, no glob of /)
    if ((w.glob || !rest.includes('*')) && /^(\/+\**|\*+)$/.test(rest.replace(/\/\*$/, '/')) && (!moved || v.endsWith('*')))
      return `${shown} (when ${what} is empty${w.leadingVar ? ' or unset' : ''} that is /; ${stop})`;
    // `rm -rf "$DIR"`: a folder only the shell knows may be any, / and the home folder among them;
    // but for the fresh one mktemp made (`tmp=$(mktemp -d)`: empty when it failed, and `rm -rf ""` removes nothing)
    if (leaves && !moved) return `${shown} (a \`..\` climbs out of a folder only the shell knows: above ${what} may be / or the home folder; name the folder)`;
    if (!moved && !w.fresh && !rest.replaceAll(UNKNOWN, ''))
      return w.leadingVar
        ? `${w.raw} (a folder only the shell knows: $${w.leadingVar} may be / or the home folder; name the folder, or use "\${${w.leadingVar}:?}" if it is set for sure)`
        : `${shown} (a folder only the shell knows: ${what} may be / or the home folder; name the folder)`;
    return null;
  }
  if (ctx.cwd === null && !v.startsWith('/') && /^(\.{1,2}\/?|\.?\/?\*|\*)$/.test(v))
    return `"${v}" in a folder only the shell knows (after a cd to a variable)`;
  if (ctx.cwd === null && !v.startsWith('/')) return null;
  // a glob removes what is inside the folder before its first wildcard
  let p = globFolder(v, w.glob);
  // `~name` is that user's home folder: `~root` is /root, another user's lies beside this one's
  const other = otherHome(p);
  const otherDir = other && (other.name === 'root' ? '/root' : `${posix.dirname(ctx.home)}/${other.name}`);
  if (other) p = `${otherDir}${other.rest}`;
  // `ln -s ~/Documents d; rm -rf d/`: through a link the line made, the folder it points at
  const abs = throughLink(resolvePath(p, { cwd: ctx.cwd ?? '/', home: ctx.home }), p.endsWith('/'), ctx.links);
  const rel = (what: string) => (v === abs ? what : `${what} ("${v}")`);
  if (abs === '/') return rel('/');
  if (abs === ctx.home || abs === posix.dirname(ctx.home)) return rel(`the home folder ${abs}`);
  if (other && abs === otherDir) return rel(`the home folder of ${other.name}`);
  // `/home/bob` beside `/home/u`: another user's home folder, as `~bob` is (not where homes sit at /)
  const homes = posix.dirname(ctx.home);
  if (homes !== '/' && posix.dirname(abs) === homes) return rel(`the home folder of ${posix.basename(abs)}`);
  if (isSystemFolder(abs)) return rel(`the system folder ${abs}`);
  const history = historyPart(abs, ctx);
  if (history) return rel(`the project's history (${history})`);
  if (ctx.commonDir && abs === ctx.commonDir) return rel("the project's .git");
  if (ctx.root && (abs === ctx.root || abs === `${ctx.root}/.git`)) {
    // `rm -rf *.egg-info` in the project removes what the pattern names, not the project: a glob
    // whose last part has letters of its own is targeted; `*`, `.*`, `?*` take everything
    if (abs === ctx.root && w.glob && (moved || targetedGlob(v))) return null;
    return rel(abs === ctx.root ? `the project folder ${abs}` : `the project's .git`);
  }
  // `rm -rf ~/Documents`, `rm -rf ../other-repo`, `mv ~/projects /tmp/`: the user's data outside the project (`~/Downloads/*.zip` names its own)
  const data = homeDataFolder(abs, ctx);
  if (data && !(w.glob && targetedGlob(v))) return rel(data);
  // `rm -rf ~/Documents/old-notes`, `shred ~/Documents/x`, `rimraf ~/Pictures/*.jpg`: the user's documents, one by one (moved, they stay: `mv ~/Documents/a.txt ~/Desktop/`)
  const doc = moved || other ? null : documentNamed(v, ctx);
  return doc ? rel(doc) : null;
}

/** What of the user's documents a path names (home-data.ts userDocument), its pattern kept (`~/Documents/*.docx`), or null. */
function documentNamed(v: string, ctx: BashContext): string | null {
  if (ctx.cwd === null && !/^[/~]/.test(v)) return null;
  return userDocument(resolvePath(v, { cwd: ctx.cwd ?? '/', home: ctx.home }), ctx);
}

/** Whether a glob's last part names something of its own (`*.egg-info`, `old-*`): `*`, `.*`, `?*` take everything. */
export function targetedGlob(v: string): boolean {
  return TARGETED_GLOB.test(
    v
      .replace(/\/+$/, '')
      .split('/')
      .pop()!
      .replace(/\[[^\]]*\]|\{[^}]*\}/g, ''),
  );
}

/**
 * The arguments of the find that lists what a word is the output of, alone (`$(find . -name
 * '*.o')`, `$(ls dist)`: printed-names.ts listingAsFind), its output not sent elsewhere; or null.
 */
function listedBy(w: Word): Word[] | null {
  const sub = w.value === UNKNOWN ? leadingSubstitution(w) : null;
  const own = sub ? ownCommands(sub) : [];
  if (own.length !== 1 || own[0]!.redirects.length) return null;
  const printed = commandPrints(own[0]!);
  return printed.names === 'listed' && printed.find.length ? printed.find : null;
}

/**
 * A word of a literal folder and a name a program prints (`~/"$f"` where `f` is read from `ls ~`,
 * `/$(cat list)`, `"$HOME/$d"` for `d` in `$(ls -A ~)`): any name in that folder when the program
 * is not known (printed-names.ts), each name in it when it lists that very folder — judged as the
 * folder's `*`, so that a removal of the home folder's or /'s entries is that of the home folder or
 * /, as `ls ~ | xargs -I{} rm -rf ~/{}` is. Undefined for any other word.
 */
function namedIn(w: Word, ctx: BashContext): string | null | undefined {
  const cut = w.value.indexOf(UNKNOWN);
  const folder = w.value.slice(0, cut);
  const { cwd, home } = ctx;
  if (cut <= 0 || !folder.endsWith('/') || w.value.slice(cut + 1).replace(/\/+$/, '') !== '' || cwd === null) return undefined;
  const abs = resolvePath(folder, { cwd, home });
  for (const sub of w.subs) {
    for (const cmd of sub.tooDeep ? [] : ownCommands(sub)) {
      const printed = commandPrints(cmd);
      const lists = printed.names === 'listed' && listedFolders(cmd).some((d) => !isDynamic(d) && resolvePath(d.value, { cwd, home }) === abs);
      if (printed.names !== 'unknown' && !lists) continue;
      const why = dangerousTarget({ ...w, value: `${folder}*`, glob: true, leadingVar: null, subs: [] }, ctx);
      return (
        why &&
        (printed.names === 'unknown'
          ? `${w.raw} (a name \`${printed.program}\` prints, which the command line does not tell: any of ${why})`
          : `${w.raw} (each name \`ls\` lists there: ${why})`)
      );
    }
  }
  return undefined;
}

/**
 * `mv` of a folder the removal rule keeps (`mv ~ /tmp/t`, `mv /home/u/proj /tmp/x`): moved away,
 * it leaves its place as a removal does, and where it went (`/tmp`) may be emptied next. Checked
 * after the path rules, whose reason for axme's own folders (`mv .git x`) is the more telling.
 */
export function checkMovedAway(inv: Invocation, ctx: BashContext): Finding | null {
  if (inv.program !== 'mv') return null;
  for (const w of movedAway(inv.args)) {
    const why = dangerousTarget(w, ctx, true);
    if (why)
      return { rule: 'rm.root', reason: `\`mv\` of ${why} takes it away from where everything expects it; it is never allowed. Move the files you mean` };
  }
  return null;
}

/** The operands `mv` moves away: every one with `-t DIR`, else all but the last (the destination). */
function movedAway(args: readonly Word[]): Word[] {
  const p = parseArgs(args, MV_VALUED);
  return valueOf(p, '-t', '--target-directory') === null ? p.operands.slice(0, -1) : p.operands;
}

const MV_VALUED = new Set(['-S', '--suffix', '-t', '--target-directory']);

/** A glob part naming something of its own (a letter, digit, `_` or `-` beside its wildcards). */
const TARGETED_GLOB = /[A-Za-z0-9_-]/;
