import { posix } from 'node:path';
import { braceAlternatives, braceCover, type GlobMatcher, globMatcher } from '../model/glob.ts';
import { GLOBSTAR, intersects, type Token, tokens } from './glob-tokens.ts';
import { UNKNOWN, type Word } from './shell.ts';

/**
 * Path patterns of `filesystem.deniedPaths` / `readOnlyPaths`, matched the way AXME documents
 * them — a pattern matches the full path, a folder holding it, or (without a `/`) a file or
 * folder name — with globs on both sides: a path given to a shell may itself be a glob
 * (`cat ~/.ssh/*`) or hold an unknown expansion (`cat "$DIR/.env"`).
 */

export interface PathContext {
  cwd: string;
  home: string;
  /** where relative patterns are anchored (the project root; cwd when unknown) */
  root?: string | undefined;
}

/**
 * resolvePath's answers by home, folder and path (nested: no key is built and hashed per call),
 * up to REMEMBERED_MAX of them (then forgotten all at once).
 */
const resolved = new Map<string, Map<string, Map<string, string>>>();
let remembered = 0;
const REMEMBERED_MAX = 10_000;
const REMEMBERED_KEY_MAX = 8_192;

/**
 * Expands `~` and `$HOME`, resolves against `cwd` and normalises `..` and `.`; a path through
 * a process's view of the file system is the path it names (`/proc/self/root/etc/shadow` is
 * `/etc/shadow`, `/proc/self/cwd/.env` is `<cwd>/.env`). Remembered: the rules of one command
 * resolve each of its arguments again (the removal rule, the path rules, the system families: about
 * three times each), and a long generated command repeats its paths. Measured against no memo
 * (docs/benchmarks.md, "The memo of resolved paths, measured"): 8% less CPU on the guard's
 * battery, 30% more on one command of 150,000 distinct paths (denied as too long either way).
 */
export function resolvePath(p: string, ctx: PathContext): string {
  const known = resolved.get(ctx.home)?.get(ctx.cwd)?.get(p);
  if (known !== undefined) return known;
  const abs = resolveAnew(p, ctx);
  // a path longer than a system's PATH_MAX names no file: not worth its memory
  if (ctx.home.length + ctx.cwd.length + p.length + 2 <= REMEMBERED_KEY_MAX) {
    if (remembered >= REMEMBERED_MAX) {
      resolved.clear();
      remembered = 0;
    }
    let inHome = resolved.get(ctx.home);
    if (!inHome) resolved.set(ctx.home, (inHome = new Map()));
    let inFolder = inHome.get(ctx.cwd);
    if (!inFolder) inHome.set(ctx.cwd, (inFolder = new Map()));
    inFolder.set(p, abs);
    remembered++;
  }
  return abs;
}

/** A path with no `.` or `..` name, no empty name (`//`) and no closing `/` (but `/` itself): resolving it against a folder that is such a path is joining them. */
const NOT_NORMAL = /(^|\/)\.\.?(\/|$)|\/\/|.\/$/;

function resolveAnew(p: string, ctx: PathContext): string {
  let s = p;
  if (s === '~' || s.startsWith('~/')) s = ctx.home + s.slice(1);
  else if (s === '$HOME' || s.startsWith('$HOME/')) s = ctx.home + s.slice(5);
  else if (s === '${HOME}' || s.startsWith('${HOME}/')) s = ctx.home + s.slice(7);
  let abs = joined(ctx.cwd, s) ?? posix.resolve(ctx.cwd, s);
  for (let m = PROC_VIEW.exec(abs); m; m = PROC_VIEW.exec(abs)) abs = posix.resolve(m[1] === 'root' ? '/' : ctx.cwd, `.${abs.slice(m[0].length)}`);
  return abs;
}

/** Whether resolvePath reads `p` without the working folder: an absolute path, or one in the home folder (`~/x`, `$HOME/x`). */
export function independentOfFolder(p: string): boolean {
  return p.startsWith('/') || /^(~|\$HOME|\$\{HOME\})(\/|$)/.test(p);
}

/** posix.resolve(cwd, s) where nothing needs normalising (an absolute or a relative path in an absolute folder, both normal), else null. */
function joined(cwd: string, s: string): string | null {
  if (!s || NOT_NORMAL.test(s)) return null;
  if (s.startsWith('/')) return s;
  if (!cwd.startsWith('/') || NOT_NORMAL.test(cwd)) return null;
  return cwd === '/' ? `/${s}` : `${cwd}/${s}`;
}

/**
 * A shell word's value as the path it names: a leading `~` written quoted or escaped (`'~'`,
 * `\~`, `"~/x"`), which the shell leaves alone, is a file named `~` in the working folder, not
 * the home folder. (One from a variable, `f="-rf ~"; rm $f`, is left alone too, but is still
 * read as the home folder: the safe side for a tilde moved through a variable.)
 */
export function wordPath(w: Pick<Word, 'value' | 'raw'>): string {
  return w.value.startsWith('~') && /^(['"]~|\\~|\$'~)/.test(w.raw) ? `./${w.value}` : w.value;
}

/** `~name` or `~name/rest`: another user's home folder (the shell expands it; its place is the system's). */
export function otherHome(value: string): { name: string; rest: string } | null {
  const m = /^~([A-Za-z_][A-Za-z0-9_.-]*)(\/.*)?$/.exec(value);
  return m ? { name: m[1]!, rest: (m[2] ?? '').replace(/^\/+$/, '') } : null;
}

/** `/proc/<pid>/root` and `/proc/<pid>/cwd` (any pid, `self`, `thread-self`, a glob or an unknown): the root and the working folder. */
const PROC_VIEW = /^\/proc\/[^/]+\/(root|cwd)(?=\/|$)/;

/**
 * A pattern as a matcher over literal paths: the fast path for file tools and plain arguments.
 * Linear in the path whatever the pattern (model/glob.ts): the patterns come from the synced
 * rules file. Anchored (a pattern with a `/`): the path or anything under it; else a run of the
 * path's names, from the start of one to the end of one. `**` is anything, `*` and `?` stay in one name.
 */
const matcherCache = new Map<string, GlobMatcher>();
function patternMatcher(full: string, anchored: boolean): GlobMatcher {
  const key = `${anchored ? 'A' : 'N'}${full}`;
  let m = matcherCache.get(key);
  if (!m) {
    m = globMatcher(full, { braces: false, emptyGlobstar: false, from: anchored ? 'start' : 'folder', to: 'folder' });
    if (matcherCache.size < 5_000) matcherCache.set(key, m);
  }
  return m;
}

/** What is at a path on the disk: a folder (a use of it reaches everything under it) or a file. */
export type PathKind = 'folder' | 'file';

export interface PathMatch {
  pattern: string;
}

/**
 * The first pattern that `path` falls under, or null. `path` is absolute; with `isGlob` its glob
 * characters are wildcards (a shell argument, a Glob pattern), otherwise it is literal (a tool's
 * file path). Unknown expansions (UNKNOWN) stand for anything (in a file name: anything but a `.`).
 */
export function matchPath(given: string, patterns: readonly string[], ctx: PathContext, isGlob = false, found = false): PathMatch | null {
  // the parent of a folder only the shell knows is one too (`cd "$X" && ln -s ../_build/a .`); a folder
  // named with a closing slash (`cd "$X" && cp a dist/`) is that folder, not something inside it
  const path = withoutRootBeforeUnknown(given).replace(UNKNOWN_PARENTS, `${UNKNOWN}/`).replace(UNKNOWN_CLOSING_SLASHES, '');
  const entries = anchoredList(patterns, ctx);
  const dynamic = path.includes(UNKNOWN);
  if (!isGlob && !dynamic) {
    for (const entry of entries)
      if ((entry.matcher ??= patternMatcher(entry.full ?? entry.pattern, entry.full !== null)).test(path)) return { pattern: entry.pattern };
    return null;
  }
  // `found`: what `find -name` selects — its `**` enters dot folders, and it names files, not what is inside them
  // whole folders only the shell knows between known names in the home folder (`~/$D/contrib`): some non-dot folders, or none
  // (glob-tokens.ts); elsewhere (`/etc/$X/hosts`, a cd's folder and a variable after it) any folders
  const middleUnknown = path.startsWith(`${ctx.home}/`) && path.indexOf(UNKNOWN) > ctx.home.length && MIDDLE_UNKNOWN_FOLDERS.test(path);
  const arg = tokens(path, !isGlob, !found, middleUnknown ? ctx.home.length : Number.POSITIVE_INFINITY);
  // an argument whose file name is only wildcards (`dir/*`, `$X`) names no file in particular
  const name = path.slice(path.lastIndexOf('/') + 1);
  const nameIsWild = !name.replace(/[*?[\]\uE000]/g, '');
  // a name in a folder only the shell knows, every folder of it unknown (`cd "$X" && cat id_rsa`,
  // `cd "$X" && ls > "$D/$N.zip"`), is matched by name only: its unknown folders would stand for
  // the folder of every slash pattern (a `.zip` read as possibly inside `/etc/passwd`)
  const folderUnknown = ALL_FOLDERS_UNKNOWN.test(path);
  // a path in a folder only the shell knows, then known parts (`cd "$X" && cat a/b`): the unknown
  // folder is some folder, the known parts its `a/b` — they can be a pattern's last parts
  // (`.ssh/id_rsa`), not something inside a file the pattern names (`/etc/passwd/a/b`)
  const underUnknown = LEADING_UNKNOWN_FOLDERS.test(path);
  const known = literalPrefix(path);
  for (const entry of entries) {
    const { pattern, full } = entry;
    if (full !== null) {
      if (folderUnknown) continue;
      // both start with their literal parts: unless one is the other's beginning, nothing matches both
      const b = (entry.literalPrefix ??= literalPrefix(full));
      if (!known.startsWith(b) && !b.startsWith(known)) continue;
      const pt = (entry.tokens ??= tokens(full, false));
      if (middleUnknown && !namesAfterUnknown(path, full)) continue;
      if (intersects(arg, pt)) return { pattern };
      if (found || middleUnknown) continue;
      if (underUnknown ? knownPartsEndAt(path, full, pt, isGlob) : intersects(arg, (entry.below ??= [...pt, '/', GLOBSTAR]))) return { pattern };
    } else if (!nameIsWild) {
      if (closingStarSuppliesExtension(name, pattern)) continue;
      // a path known only in part is checked by its file name: `$DIR/.env`, `*.pem`
      const named = (entry.tokens ??= [GLOBSTAR, '/', ...tokens(pattern, false)]);
      if (intersects(arg, named)) return { pattern };
      // a folder holding what the glob names: for an extension pattern, one of the glob's folder names
      if (dynamic || found) continue;
      if (EXTENSION_PATTERN.test(pattern) ? folderNameMeets(path, pattern) : intersects(arg, (entry.below ??= [...named, '/', GLOBSTAR]))) return { pattern };
    }
  }
  return null;
}

/** A path whose folders are each only unknown expansions, then a name: `\uE000/x`, `\uE000/\uE000/\uE000.zip`. */
const ALL_FOLDERS_UNKNOWN = new RegExp(`^(${UNKNOWN}+/)+[^/]*$`);
/**
 * Whether `path` (unknown folders, then known names `a/b/c`) can lie inside what pattern `full`
 * (tokens `pt`) names with the unknown folders standing for the pattern's beginning: some first
 * known names (`a`, `a/b`) are the pattern's last parts, one of them a name the pattern spells out
 * (`.ssh` of `~/.ssh/*`). The unknown folders swallowing the pattern (`$X` = `/etc/passwd` or
 * `~/.ssh`, then `a/b` inside it) would put every such path under every pattern.
 */
function knownPartsEndAt(path: string, full: string, pt: Token[], isGlob: boolean): boolean {
  const known = path.slice(path.search(LEADING_KNOWN_NAME)).split('/');
  const parts = full.split('/');
  for (let i = 1; i < known.length; i++) {
    const ends = parts.slice(-i);
    if (!ends.some((p) => p !== '' && !/[*?[]/.test(p))) continue;
    // with an expansion among the names (`_build/x.$A`), a known one is what the pattern spells out (`.aws`)
    const names = known.slice(0, i);
    if (names.some((k) => k.includes(UNKNOWN)) && !names.some((k) => !k.includes(UNKNOWN) && ends.includes(k))) continue;
    if (intersects([GLOBSTAR, '/', ...tokens(known.slice(0, i).join('/'), !isGlob)], pt)) return true;
  }
  return false;
}
const LEADING_KNOWN_NAME = new RegExp(`(?<=^(${UNKNOWN}+/)+)[^/${UNKNOWN}]`);

/**
 * A path with whole folders of only unknown expansions between known names: `/home/u/\uE000/contrib`.
 * In the home folder they may be a pattern's middle folders (namesAfterUnknown), not the pattern's
 * own file with `contrib` inside it.
 */
const MIDDLE_UNKNOWN_FOLDERS = new RegExp(`[^/]/(${UNKNOWN}+/)+[^/${UNKNOWN}]`);

/**
 * Whether a known name after the whole unknown folders of `path` (MIDDLE_UNKNOWN_FOLDERS) is one
 * pattern `full` spells out past the path's known beginning: `~/$D/.ssh/keys` meets `~/.ssh/*` by
 * `.ssh`; `~/$D/contrib` meets `~/Library/Keychains/*` only through its `*`, the variable standing
 * for the pattern's own folders — which no name of the command line says.
 */
function namesAfterUnknown(path: string, full: string): boolean {
  const cut = path.indexOf(UNKNOWN);
  const before = new Set(path.slice(0, cut).split('/'));
  const after = path.slice(path.lastIndexOf(UNKNOWN) + 1).split('/');
  return full.split('/').some((p) => p !== '' && !before.has(p) && !/[*?[]/.test(p) && after.includes(p));
}

/** Folders of only unknown expansions, a known name, more names: `\uE000/a/b`, `\uE000/_build/x.\uE000/lib.dll`. */
const LEADING_UNKNOWN_FOLDERS = new RegExp(`^(${UNKNOWN}+/)+[^/${UNKNOWN}]+(/[^/]+)+$`);
/** The closing slashes of a path an unknown expansion is part of: `\uE000/dist/`. */
const UNKNOWN_CLOSING_SLASHES = new RegExp(`(?<=${UNKNOWN}.*[^/])/+$`);
/**
 * A path without the root's slashes before a first folder of only unknown expansions: `/$X/a` is
 * `$X/a` (`$X` may start at the root already), read as any path through folders only the shell
 * knows is, not as a protected file with `a` inside it (`/etc/passwd/a`).
 */
export function withoutRootBeforeUnknown(path: string): string {
  return path.replace(ROOT_BEFORE_UNKNOWN, '');
}
const ROOT_BEFORE_UNKNOWN = new RegExp(`^/+(?=${UNKNOWN}+/)`);
/** Unknown folders, then their parents: `\uE000/../`. */
const UNKNOWN_PARENTS = new RegExp(`^(${UNKNOWN}+/)+(\\.\\./)+`);

/**
 * The first pattern naming something inside folder `dir` (a slash pattern below it): what a
 * recursive read of the folder (`grep -r`, `tar c`, `cp -r`) would take along.
 */
export function matchInside(dir: string, patterns: readonly string[], ctx: PathContext): PathMatch | null {
  const prefix = dir === '/' ? '/' : `${dir}/`;
  for (const entry of anchoredList(patterns, ctx)) {
    const { pattern, full } = entry;
    if (full === null) continue;
    const literalPart = (entry.literalPart ??= full.slice(0, full.search(/[*?[]|$/)));
    // `~/.gnupg/*` names everything in `~/.gnupg` itself
    if (literalPart.startsWith(prefix) && (literalPart.length > prefix.length || literalPart.length < full.length)) return { pattern };
    // `~/.mozilla/firefox/*/logins.json` reaches into `~/.mozilla/firefox/x.default-release` through its wildcard
    if (literalPart.length < full.length && prefix.startsWith(literalPart.slice(0, literalPart.lastIndexOf('/') + 1)) && reachesBelow(entry, dir))
      return { pattern };
  }
  return null;
}

/**
 * Whether a pattern names something below the folder `dir` (absolute, literal) by a wildcard
 * between them: its leading folders match `dir`'s one by one (a `**` among them matches the rest),
 * and it goes on below.
 */
function reachesBelow(entry: PlacedPattern, dir: string): boolean {
  const parts = (entry.parts ??= entry.full!.split('/').map((p) => (p === '**' ? GLOBSTAR : /[*?[]/.test(p) ? globMatcher(p, { braces: false }) : p)));
  const names = dir === '/' ? [''] : dir.split('/');
  for (let i = 0; i < names.length; i++) {
    const part = parts[i];
    if (part === undefined) return false;
    if (part === GLOBSTAR) return true;
    if (typeof part === 'string' ? part !== names[i] : !part.test(names[i]!)) return false;
  }
  return parts.length > names.length;
}

/**
 * One pattern of a list as matchPath and matchInside read it from one place: a slash pattern
 * anchored (`full`), and what a check needed of it, kept once computed: its matcher (a literal
 * path), its tokens and literal prefix (a glob or a path known in part).
 */
interface PlacedPattern {
  pattern: string;
  /** a slash pattern as an absolute path, without a trailing `/`; null for a name pattern */
  full: string | null;
  matcher?: GlobMatcher;
  /** `full` before its first wildcard or unknown (matchPath) */
  literalPrefix?: string;
  /** `full` before its first wildcard (matchInside) */
  literalPart?: string;
  /** `full`'s folder names, a wildcard one as its matcher (matchInside: what a pattern reaches below a folder) */
  parts?: Array<string | GlobMatcher | typeof GLOBSTAR>;
  /** the tokens a glob is matched against: `full`'s, or for a name pattern any folder then the name (`**\/.env`) */
  tokens?: Token[];
  /** `tokens` and anything below them */
  below?: Token[];
}

/** Each pattern list's entries by the place they are anchored at (home, then project root): lists are read-only (Policy's type), so cached by identity. */
const anchoredLists = new WeakMap<readonly string[], Map<string, Map<string, PlacedPattern[]>>>();

/** The non-empty patterns of `patterns`, each anchored at `ctx` once (a command line checks many paths against the same lists). */
function anchoredList(patterns: readonly string[], ctx: PathContext): PlacedPattern[] {
  let byHome = anchoredLists.get(patterns);
  if (!byHome) anchoredLists.set(patterns, (byHome = new Map()));
  let byRoot = byHome.get(ctx.home);
  if (!byRoot) byHome.set(ctx.home, (byRoot = new Map()));
  const root = ctx.root ?? ctx.cwd;
  let entries = byRoot.get(root);
  if (!entries) {
    entries = patterns.filter(Boolean).map((pattern) => ({ pattern, full: pattern.includes('/') ? anchoredPattern(pattern, ctx).replace(/\/$/, '') : null }));
    if (byHome.size < 64 && byRoot.size < 64) byRoot.set(root, entries);
  }
  return entries;
}

/** A slash pattern as an absolute path: `~` is the home folder, a relative one starts at the project root (cwd when unknown). */
function anchoredPattern(pattern: string, ctx: PathContext): string {
  return resolvePath(pattern, { cwd: ctx.root ?? ctx.cwd, home: ctx.home });
}

/** The part of a path before its first wildcard or unknown expansion. */
export function literalPrefix(path: string): string {
  const i = path.search(/[*?[\uE000]/);
  return i < 0 ? path : path.slice(0, i);
}

/** Why writing `abs` would change axme's own state (`protectedPaths`), or null. */
export function protectedHit(abs: string, ctx: { protectedPaths?: string[] | undefined }): string | null {
  const p = (ctx.protectedPaths ?? []).find((x) => abs === x || abs.startsWith(`${x}/`));
  return p ? `${abs} is axme's own state (${p}): agents may not change it; ask the user` : null;
}

/**
 * Whether a name-glob reaches an extension pattern (`*.pem`: a `*` and then a literal `.ext`) only
 * through its closing `*` or unknown expansion: `app-*`, `syslog.*`, `test-*` and
 * `app.$(date +%F)` were written for other files, as `dir/*` was, though `app-x.pem` could exist. One that writes part of the extension out
 * (`*.p*`, `key.pem*`) still reaches it, and any other kind of pattern is matched as before
 * (`.env*` names `.env`, `id_*` names `id_rsa`).
 */
function closingStarSuppliesExtension(name: string, pattern: string): boolean {
  if (!(name.endsWith('*') || name.endsWith(UNKNOWN))) return false;
  const ext = EXTENSION_PATTERN.exec(pattern)?.[1];
  if (!ext) return false;
  const stem = name.replace(/[*\uE000]+$/, '');
  for (let k = 2; k <= ext.length; k++) if (stem.endsWith(ext.slice(0, k))) return false;
  return true;
}

/** A name pattern that is a `*` and an extension (`*.pem`): what closingStarSuppliesExtension and folderNameMeets read. */
const EXTENSION_PATTERN = /^\*(\.[^*?[\]{}/\\]+)$/;

/**
 * Whether a folder a shell glob names by one of its folder names matches extension pattern
 * `pattern` (`*.pem`), each name read as nameGlobMatch reads a file's: a name whose closing `*`
 * would have to supply the whole extension, a name only of wildcards among them (`**`, `*`),
 * names no such folder, as `dir/*` and `app-*` name no such file. So `**` + `/*.ts`
 * names no `x.pem/` folder (the extension is fixed on both sides and differs), while `x.pem/*.ts`,
 * `*.pem/*.ts` and `x.p*` + `/*.ts` do.
 */
function folderNameMeets(path: string, pattern: string): boolean {
  const names = path.split('/');
  names.pop();
  return names.some((name) => name !== '' && !closingStarSuppliesExtension(name, pattern) && intersects(tokens(name, false, true), nameTokensOf(pattern)));
}

/** Name patterns by their tokens (a handful: the secret file names). */
const nameTokens = new Map<string, Token[]>();

/** A name pattern's tokens, kept. */
function nameTokensOf(pattern: string): Token[] {
  let pt = nameTokens.get(pattern);
  if (!pt) nameTokens.set(pattern, (pt = tokens(pattern, false)));
  return pt;
}

/**
 * The first of `patterns` (globs over a file's name, as the shell reads them) that some file a
 * name-glob could be matches, or null: `.env.l*`, `"$X".p12` (an unknown expansion inside a name
 * adds no `.`), a `find -name` pattern (`found`). A name only of wildcards (`*`, `$X`) names no
 * file in particular and matches none.
 */
export function nameGlobMatch(name: string, patterns: readonly string[], found = false): string | null {
  if (!name.replace(/[*?[\]\uE000]/g, '')) return null;
  const arg = tokens(name, false, !found);
  for (const pattern of patterns) {
    if (closingStarSuppliesExtension(name, pattern)) continue;
    if (intersects(arg, nameTokensOf(pattern))) return pattern;
  }
  return null;
}

/**
 * Whether some path a glob (absolute) names is `target` — or, with `inside`, lies below it. A
 * shell glob's `**` enters no dot folder; `find`'s (`deep`) enters every folder.
 */
export function globNames(glob: string, target: string, inside: boolean, deep = false): boolean {
  const arg = tokens(glob, false, !deep);
  const pt = tokens(target, true);
  return intersects(arg, pt) || (inside && intersects(arg, [...pt, '/', GLOBSTAR]));
}

/** The most globs a glob's `{a,b}` groups may stand for and be listed one by one; past it, braceCover's reading. */
const MAX_GLOB_ALTERNATIVES = 64;

/**
 * The globs a glob with braces stands for, as ripgrep and the Grep tool expand them
 * (`{.env.local,x}`, `*.{ts,tsx}`); a glob without a `{,}` group is itself. Past
 * MAX_GLOB_ALTERNATIVES combinations, one glob per alternative written, the other groups
 * wildcards (model/glob.ts braceCover): never the first ones alone.
 */
export function globAlternatives(glob: string): string[] {
  if (!glob.includes('{')) return [glob];
  return braceAlternatives(glob, MAX_GLOB_ALTERNATIVES) ?? braceCover(glob);
}
