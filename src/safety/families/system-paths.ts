import { globMatcher } from '../../model/glob.ts';
import { programName } from '../argv.ts';
import { leadingSubstitution, ownCommands } from '../known-folders.ts';
import { otherHome, resolvePath, withoutRootBeforeUnknown } from '../paths.ts';
import { UNKNOWN, type Word } from '../shell.ts';
import { WINDOWS_SYSTEM_FOLDERS } from '../windows-paths.ts';
import { homePlaceBelowUnknown } from './home-places.ts';
import type { FamilyContext } from './types.ts';

/**
 * The places the system family guards (docs/safety.md): system folders (`/etc`, `/usr`, `/var`
 * but its temporary folders, disk devices...) and the user's home dotfiles (`~/.bashrc`, all of
 * `~/.ssh/` and `~/.config/`...). The project and the temporary folders are never guarded, even
 * when the project lives under `/opt` or `/srv`.
 */

/** A guarded place a path falls in: `area` names it for the rule (`/etc`, `~/.bashrc`), `kind` for the reason. */
export interface Guarded {
  /** the path as shown: absolute, or `~/...` in the home folder */
  shown: string;
  area: string;
  kind: 'system' | 'device' | 'dotfile';
}

/** Top folders that are the operating system's, not a project's. */
const SYSTEM_TOPS = new Set(['etc', 'usr', 'bin', 'sbin', 'boot', 'opt', 'var', 'srv', 'root', 'sys', 'proc', 'System', 'Library', ...WINDOWS_SYSTEM_FOLDERS]);
/** The user's runtime folder of systemd units, where a unit file is started as one in `~/.config/systemd` is (`/run` itself is not guarded). */
const RUNTIME_UNITS = /^\/run\/user\/[^/]+\/systemd(?=\/|$)/;
/** Temporary folders inside them (macOS keeps $TMPDIR under /var/folders). */
const TEMP_PREFIXES = ['/var/tmp', '/var/folders', '/private/var/tmp', '/private/var/folders', '/private/tmp', '/proc/self/fd'];
/**
 * `/dev/...` names of whole disks and partitions, software RAID (`md0`, `md/name`), device-mapper
 * volumes (`dm-0`, `mapper/vg-root`), loop and network block devices, and the stable names of
 * disks under `/dev/disk/by-*`; and a pattern of `/dev` whose name starts with a wildcard
 * (`/dev/*`: what `find /dev -type b -exec … {}` hands on), which matches them all.
 */
const BLOCK_DEVICE = /^\/dev\/(?:(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|loop|nbd)[^/]*|md\/[^/]+|mapper\/[^/]+|disk\/by-[^/]+\/[^/]+|[*?[][^/]*)$/;
/** Dot folders of the home folder that are guarded with everything inside them: keys, settings, shell start-up snippets, IPython's and Jupyter's start-up code. */
const DEEP_DOT_DIRS = new Set(['.ssh', '.config', '.gnupg', '.aws', '.kube', '.docker', '.claude', '.bashrc.d', '.zshrc.d', '.ipython', '.jupyter']);
/**
 * Folders of the home folder that are guarded with everything inside them: they are on PATH (the
 * user's, each language's installer's, a version manager's shims), and a program planted there
 * (`cp evil ~/bin/git`) runs as a command later. The tools that own them write there themselves
 * (`cargo install`, `go install`, `npm i -g`), which names no path. Then the start-up places that
 * `~/.config` (systemd's and the desktop's autostart) does not hold.
 */
const DEEP_DOT_PATHS = [
  '.local/bin',
  'bin',
  'go/bin',
  '.cargo/bin',
  '.bun/bin',
  '.deno/bin',
  '.npm-global/bin',
  '.volta/bin',
  '.yarn/bin',
  '.pyenv/shims',
  '.rbenv/shims',
  // start-up places: what a file there names runs at login, on a click or on a D-Bus request (a unit,
  // a launcher overriding an application's, a launchd agent), outside the session
  '.local/share/systemd',
  '.local/share/applications',
  '.local/share/dbus-1',
  'Library/LaunchAgents',
  // interpreters' start-up code (IPython's and Jupyter's folders are whole dotfolders above): Julia's startup.jl
  '.julia/config',
];
/**
 * Places of the home folder named by a pattern, guarded as those are: each node's `bin` of nvm, and
 * Python's start-up files in any site-packages there (a `.pth` line starting `import`,
 * `usercustomize.py`, `sitecustomize.py` run at every start of Python). The pattern's first match
 * is the area.
 */
const DEEP_HOME_PATTERNS = [/^\.nvm\/versions\/[^/]+\/[^/]+\/bin(?=\/|$)/, /^.*\/site-packages\/(?:[^/]+\.pth|(?:user|site)customize\.py)$/];

/**
 * Files the desktop leaves in every folder it shows, configuring nothing: Finder's `.DS_Store` and
 * AppleDouble `._*` files, Windows Explorer's `Thumbs.db` and `desktop.ini`. In the user's own
 * home folder they are no dotfile: `rm ~/.DS_Store`, `find ~ -name .DS_Store -delete` pass.
 */
const DESKTOP_JUNK = /^(\.ds_store|\._.+|thumbs\.db|desktop\.ini)$/i;

/** The guarded place an absolute path falls in, or null; `root` (the project) and the temporary folders are never guarded. */
export function guardedAbsolute(abs: string, ctx: FamilyContext): Guarded | null {
  if (abs === '/tmp' || abs.startsWith('/tmp/')) return null;
  if (projectHolds(abs, ctx)) return null;
  for (const t of TEMP_PREFIXES) if (abs === t || abs.startsWith(`${t}/`)) return null;
  const home = ctx.home;
  if (abs.startsWith(`${home}/`)) {
    if (home !== OTHER_HOME && DESKTOP_JUNK.test(abs.slice(abs.lastIndexOf('/') + 1))) return null;
    const rel = abs.slice(home.length + 1);
    const slash = rel.indexOf('/');
    const first = slash < 0 ? rel : rel.slice(0, slash);
    // `~/.bashrc`, `~/.cache` itself; inside only the folders that hold keys and settings
    if (first.startsWith('.') && first !== '.' && first !== '..' && (slash < 0 || DEEP_DOT_DIRS.has(first))) {
      return { shown: `~/${rel}`, area: `~/${first}`, kind: 'dotfile' };
    }
    const deep = DEEP_DOT_PATHS.find((d) => rel === d || rel.startsWith(`${d}/`)) ?? DEEP_HOME_PATTERNS.map((p) => p.exec(rel)?.[0]).find((m) => m);
    return deep ? { shown: `~/${rel}`, area: `~/${deep}`, kind: 'dotfile' } : null;
  }
  if (BLOCK_DEVICE.test(abs)) return { shown: abs, area: abs, kind: 'device' };
  // the user's runtime units (`$XDG_RUNTIME_DIR/systemd/user`, `…/transient`): systemd starts what a file there names
  const runtimeUnits = RUNTIME_UNITS.exec(abs)?.[0];
  if (runtimeUnits) return { shown: abs, area: runtimeUnits, kind: 'system' };
  const top = abs.slice(1, (abs.indexOf('/', 1) + 1 || abs.length + 1) - 1);
  if (SYSTEM_TOPS.has(top) || top.startsWith('lib')) return { shown: abs, area: `/${top}`, kind: 'system' };
  if (top === 'private' && (abs === '/private/etc' || abs.startsWith('/private/etc/') || abs === '/private/var' || abs.startsWith('/private/var/'))) {
    return { shown: abs, area: abs.slice(0, 12), kind: 'system' };
  }
  return null;
}

/**
 * The folders below `abs` (a starting point, absolute) in which guardedAbsolute guards what they
 * hold: the system folders below `/`, and the home folder (its dot entries) and its guarded dot
 * folders below the home folder or any folder above it. `find / -name hosts -delete` reaches them.
 */
export function guardedFoldersBelow(abs: string, ctx: FamilyContext): string[] {
  const home = ctx.home;
  const tops = abs === '/' ? [...SYSTEM_TOPS, ...LIB_TOPS].map((t) => `/${t}`) : [];
  if (abs === '/' || abs === '/private') tops.push('/private/etc', '/private/var');
  const homes = isRootOrHome(abs, home) ? [home, ...[...DEEP_DOT_DIRS, ...DEEP_DOT_PATHS].map((d) => `${home}/${d}`)] : [];
  return [...tops, ...homes];
}

/** The `lib` folders of the top of the machine (any top folder starting so is guarded). */
const LIB_TOPS = ['lib', 'lib32', 'lib64', 'libx32', 'libexec'];

/** Whether the project folder holds `abs` (a project at `/`, or at or above the home folder, holds nothing here). */
function projectHolds(abs: string, ctx: FamilyContext): boolean {
  const root = ctx.root;
  if (!root || root === '/' || ctx.home === root || ctx.home.startsWith(`${root}/`)) return false;
  return abs === root || abs.startsWith(`${root}/`);
}

/**
 * The guarded place a shell argument names, or null. Relative paths count only when the folder
 * is known (`ctx.cwd`); a path known only in part (`/etc/$NAME`, `~/.$X`) counts by its known
 * folder.
 */
export function guardedPath(given: string, ctx: FamilyContext): Guarded | null {
  if (!given || given.includes('://')) return null;
  const value = withoutRootBeforeUnknown(given);
  const other = otherHome(value);
  if (other) {
    // `~root/...` is /root; `~name/...` another user's home, whose dotfiles count like the user's own
    if (other.name === 'root') return guardedPath(`/root${other.rest}`, ctx);
    const g = other.rest ? guardedPath(`~${other.rest}`, { ...ctx, home: OTHER_HOME, root: undefined }) : null;
    const mark = (s: string) => `~${other.name}${s.slice(1)}`;
    return g && { ...g, shown: mark(g.shown), area: mark(g.area) };
  }
  const cut = value.indexOf(UNKNOWN);
  if (cut === 0) return startupBelowUnknown(value);
  const known = cut < 0 ? value : value.slice(0, cut);
  if (ctx.cwd === null && !known.startsWith('/') && !known.startsWith('~')) return null;
  const abs = resolvePath(known, { cwd: ctx.cwd ?? '/', home: ctx.home });
  if (cut < 0) return guardedAbsolute(abs, ctx);
  // `/etc/$X`: a name in a known folder; `~/.$X`: a dot name in the home folder
  const slash = known.lastIndexOf('/');
  if (slash < 0) return null;
  const dir = resolvePath(known.slice(0, slash) || '/', { cwd: ctx.cwd ?? '/', home: ctx.home });
  const name = known.slice(slash + 1);
  if (dir === ctx.home && name.startsWith('.')) return { shown: `~/${name}…`, area: `~/${name}…`, kind: 'dotfile' };
  const inDir = guardedAbsolute(`${dir === '/' ? '' : dir}/${name}x`, ctx);
  return inDir && { ...inDir, shown: `${dir === '/' ? '' : dir}/${name}…` };
}

/**
 * The guarded place a glob written into a folder may name (`mv build/* ~/` writes `~/*`), or null:
 * as guardedPath reads it (a dot name in the home folder: `~/.*`), then, for a glob at the top of
 * the home folder or of the machine, the guarded folders there its name matches — `*` and `b*`
 * name `~/bin`, `*` names `/etc`; `*.pdf` names none.
 */
export function guardedGlob(value: string, ctx: FamilyContext): Guarded | null {
  const g = guardedPath(value, ctx);
  const slash = value.lastIndexOf('/');
  const name = value.slice(slash + 1);
  if (g || slash < 0 || !/[*?[]/.test(name) || value.includes(UNKNOWN) || (ctx.cwd === null && !/^[/~]/.test(value))) return g;
  const dir = resolvePath(value.slice(0, slash) || '/', { cwd: ctx.cwd ?? '/', home: ctx.home });
  const tops = dir === ctx.home ? HOME_TOPS : dir === '/' ? [...SYSTEM_TOPS, ...LIB_TOPS] : [];
  const matcher = tops.length ? globMatcher(name, { braces: false }) : null;
  const top = tops.find((t) => matcher?.test(t));
  const hit = top === undefined ? null : guardedAbsolute(`${dir === '/' ? '' : dir}/${top}`, ctx);
  return hit && { ...hit, shown: showPath(`${dir === '/' ? '' : dir}/${name}`, ctx.home) };
}

/** The first folders of the home folder's guarded places that are no dot name (`bin`, `go`, `Library`): what a glob not starting with `.` there may name. */
const HOME_TOPS = [...new Set(DEEP_DOT_PATHS.map((d) => d.split('/')[0]!).filter((t) => !t.startsWith('.')))];

/**
 * A path below folders only the shell knows that names the home folder's start-up files or
 * credential stores (home-places.ts) is guarded as the home folder's: those folders may be it
 * (`rm -rf "$X/.ssh"`, `echo … >> "$X/.bashrc"`); any other name there is the folder's own.
 */
function startupBelowUnknown(value: string): Guarded | null {
  const hit = homePlaceBelowUnknown(value);
  return hit && { shown: `…/${hit.rest} (a folder only the shell knows, which may be the home folder)`, area: `~/${hit.place}`, kind: 'dotfile' };
}

/** Python code that prints the user's site-packages folder: `print(site.getusersitepackages())`, `print(site.USER_SITE)`. */
const PRINTS_USER_SITE = /\bprint\s*\(\s*(site\.)?(getusersitepackages\s*\(\s*\)|USER_SITE)\s*\)/;

/**
 * The path a word names (`value`, the word's own or an option's value in it), where a
 * substitution it starts with prints the user's site-packages folder — `$(python3 -m site
 * --user-site)`, `$(python3 -c 'import site;print(site.getusersitepackages())')` — read as that
 * folder (`~/.local/lib/python…/site-packages`), so that a `.pth` file written there is one.
 */
export function pathNamed(w: Word, value: string): string {
  if (value !== w.value || !value.startsWith(UNKNOWN)) return value;
  const sub = leadingSubstitution(w);
  const own = sub ? ownCommands(sub) : [];
  const words = own.length === 1 ? own[0]!.words.map((x) => x.value) : [];
  if (!/^python[\d.]*$/.test(programName(words[0] ?? ''))) return value;
  const m = words.indexOf('-m');
  const c = words.indexOf('-c');
  const userSite = (m > 0 && words[m + 1] === 'site' && words[m + 2] === '--user-site') || (c > 0 && PRINTS_USER_SITE.test(words[c + 1] ?? ''));
  return userSite ? `~/.local/lib/python…/site-packages${value.slice(1)}` : value;
}

/** Whether a guarded place is one of the dot folders itself (`~/.ssh`, `~/.local/bin`): a folder, whose search permission matters. */
export function isDotFolder(g: Guarded): boolean {
  const rel = g.area.slice(g.area.indexOf('/') + 1);
  return g.kind === 'dotfile' && g.shown === g.area && (DEEP_DOT_DIRS.has(rel) || DEEP_DOT_PATHS.includes(rel));
}

/** A home folder no path names: where `~name/...` is resolved to find its dotfiles. */
const OTHER_HOME = '/\u0000home';

/** Whether `abs` is `/`, the home folder or a folder above it: recursive ownership changes there take the machine along. */
export function isRootOrHome(abs: string, home: string): boolean {
  return abs === '/' || abs === home || home.startsWith(`${abs}/`);
}

/** A path as the rule shows it: `~/...` in the home folder. */
export function showPath(abs: string, home: string): string {
  return abs === home ? '~' : abs.startsWith(`${home}/`) ? `~${abs.slice(home.length)}` : abs;
}

/** What a guarded place is, for the reasons. */
export const KIND: Record<Guarded['kind'], string> = {
  system: 'a system path outside the project that programs across the machine rely on',
  device: 'a disk device, whose data is overwritten for good',
  dotfile: "the user's own configuration in the home folder, which shells, keys and tools outside the project rely on",
};

/** A write into a guarded place: `rule` like `tee into /etc`. */
export function writeHit(label: string, doing: string, g: Guarded): { rule: string; reason: string } {
  return { rule: `${label} into ${g.area}`, reason: `${doing} ${g.shown}, ${KIND[g.kind]}: the change outlives the task and the old content is kept nowhere` };
}
