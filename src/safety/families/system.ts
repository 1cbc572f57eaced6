import type { Invocation } from '../command.ts';
import { uudecodeWrites } from '../decoders.ts';
import {
  type FoundFile,
  findRemoves,
  foundBelow,
  foundIn,
  globMatches,
  globSample,
  type NameSample,
  namedSamples,
  TRIED_WORDS_MAX,
} from '../find-expression.ts';
import { writtenWorkTree } from '../git-export-trees.ts';
import { gitSubcommandAt } from '../git-global-options.ts';
import { homeDataFolder } from '../home-data.ts';
import { MODE_LIKE, OWNER_PROGRAMS, OWNER_VALUED } from '../owner-changes.ts';
import type { Access, PathUse } from '../path-access.ts';
import { pathUses } from '../path-uses.ts';
import { OTHER_EXTRACTORS, otherExtractorUses } from '../path-uses-archives.ts';
import { otherHome, resolvePath } from '../paths.ts';
import { isSystemFolder } from '../removal.ts';
import { sedLine } from '../sed-script.ts';
import { UNKNOWN } from '../shell.ts';
import { plainWord, type Redirect, type Word } from '../syntax.ts';
import type { Hit } from './args.ts';
import { removesOnlyAnEmptyFolder } from './empty-folders.ts';
import { foundInvocations } from './found-names.ts';
import { checkAccountRemoval } from './system-account-removals.ts';
import { checkAccounts } from './system-accounts.ts';
import {
  awkInPlaceFiles,
  findRemovalRoots,
  hasFlag,
  parseArgs,
  perlInPlaceFiles,
  rubyInPlaceFiles,
  tarExtractDirs,
  unzipExtractDir,
  valueOf,
} from './system-args.ts';
import { checkBootDisks } from './system-boot-disks.ts';
import { checkContainers } from './system-containers.ts';
import { checkDesktops } from './system-desktops.ts';
import { checkDevices } from './system-devices.ts';
import { checkOwners } from './system-owners.ts';
import { checkPackages } from './system-packages.ts';
import {
  type Guarded,
  guardedAbsolute,
  guardedFoldersBelow,
  guardedGlob,
  guardedPath,
  isDotFolder,
  isRootOrHome,
  KIND,
  pathNamed,
  showPath,
  writeHit,
} from './system-paths.ts';
import { checkProtections } from './system-protections.ts';
import { checkServices } from './system-services.ts';
import { checkToolchains } from './system-toolchains.ts';
import type { FamilyCheck, FamilyContext } from './types.ts';

/**
 * The system family (docs/safety.md): changes to the machine rather than the project — files
 * written, moved or removed in system folders or the user's home dotfiles (system-paths.ts),
 * by redirection, by any program that writes, edits, removes or writes into a path by pathUses
 * (path-uses.ts, the one account of what a program does to the paths it names: cp, tee, curl
 * -o, sort -o, patch, editors, dd of=...), edit them in place (`sed -i`, `perl -i`, `gawk -i
 * inplace`: their scripts are no paths), extract archives into them (`tar -x -C`, `unzip -d`;
 * the home folder itself counts) or delete what `find` finds there; recursive ownership and permission changes
 * there, and permission changes that lock the owner out or open a file to others; the crontab,
 * the firewall, every process at once (system-services.ts); disks written by the tools that
 * partition, wipe or format them, volumes destroyed (system-devices.ts); the system's essential
 * packages removed (system-packages.ts).
 * `rm -r` of a whole system folder or the home folder is removal.ts's checkRemoval.
 */
export const checkSystem: FamilyCheck = (cmd, inv, ctx) =>
  checkRedirects(cmd.redirects, ctx) ?? (inv ? (checkProgram(inv, ctx) ?? checkUudecode(inv, cmd.redirects, ctx)) : null);

/** `uudecode` writes the file `-o` names, or the one the header of a literal it reads names (`begin 644 ~/.bashrc`: decoders.ts uudecodeWrites). */
function checkUudecode(inv: Invocation, redirects: readonly Redirect[], ctx: FamilyContext): Hit | null {
  if (inv.program !== 'uudecode') return null;
  const fed = redirects.findLast((r) => r.input !== null)?.input ?? null;
  const file = uudecodeWrites(inv.args, fed);
  const g = file === null ? null : guardedPath(file, ctx);
  return g && writeHit('uudecode', '`uudecode` writes', g);
}

/** A removal (or move away, truncation) of a guarded file: `rule` like `rm ~/.bashrc`, `mv in /etc`. */
function removeHit(label: string, doing: string, g: Guarded): Hit {
  return { rule: `${label} ${g.shown === g.area ? g.area : `in ${g.area}`}`, reason: `${doing} ${g.shown}, ${KIND[g.kind]}: no copy of it is kept` };
}

/** Redirections that open a file for writing (`2>&1`, `>&-` name no file). */
const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '>&', '<>']);

function checkRedirects(redirects: readonly Redirect[], ctx: FamilyContext): Hit | null {
  for (const r of redirects) {
    if (!r.target || !WRITE_OPS.has(r.op)) continue;
    if (r.op === '>&' && /^(\d+|-)$/.test(r.target.value)) continue;
    const g = guardedPath(pathNamed(r.target, r.target.value), ctx);
    if (g) return writeHit('redirect', `\`${r.op}\` writes`, g);
  }
  return null;
}

/**
 * How the rule names a program's change: the verb (`\`install\` installs`) and whether a
 * written path is lost rather than changed (`truncate`, `shred`). Wording only: what a program
 * changes is path-uses.ts's pathUses, the classification every path rule reads.
 */
const WORDING: Record<string, { doing: string; removes?: boolean }> = {
  ln: { doing: 'creates a link at' },
  install: { doing: 'installs' },
  truncate: { doing: 'truncates', removes: true },
  shred: { doing: 'overwrites and destroys', removes: true },
  dd: { doing: 'writes over' },
};
/** What a path used so has done to it, for the reasons. */
const DOING: Partial<Record<Access, string>> = { write: 'writes', edit: 'edits', into: 'writes into', remove: 'removes' };
/** Programs whose operand `host:path` is on another machine. */
const REMOTE_COPIERS = new Set(['rsync', 'scp']);

function checkProgram(inv: Invocation, ctx: FamilyContext): Hit | null {
  const p = inv.program;
  // `csrutil disable`, `Set-MpPreference -DisableRealtimeMonitoring $true`, `chmod u+s`: a protection switched off (system-protections.ts)
  if (OWNER_PROGRAMS.has(p)) return checkOwners(inv, ctx) ?? checkProtections(inv);
  const off = checkProtections(inv);
  if (off) return off;
  // `sed -i` edits its files; its script's `w FILE` writes one, with -i or without (pathUses)
  if (p === 'sed') return checkSed(inv, ctx) ?? checkChanges(inv, ctx);
  if (p === 'perl') return inPlace('perl -i', perlInPlaceFiles(inv.args), ctx);
  if (p === 'ruby') return inPlace('ruby -i', rubyInPlaceFiles(inv.args), ctx) ?? checkChanges(inv, ctx);
  if (p === 'awk' || p === 'gawk') return inPlace(`${p} -i inplace`, awkInPlaceFiles(inv.args), ctx);
  if (p === 'tar' || p === 'gtar' || p === 'bsdtar') return extraction('tar -x', tarExtractDirs(inv.args), ctx);
  // `git --work-tree=DIR checkout HEAD -- .` writes the tree into DIR as an extraction would (git-export-trees.ts)
  if (p === 'git' && ctx.cwd !== null) {
    const values = inv.args.map((w) => w.value);
    const tree = writtenWorkTree(values[gitSubcommandAt(values)], inv, ctx.cwd, ctx.home);
    const hit = tree === null ? null : extraction('git --work-tree', [tree], ctx);
    if (hit) return hit;
    // the user's own data outside the project (`~/Documents`, another repository): the tree's files written over theirs
    const data = tree === null ? null : homeDataFolder(tree, { home: ctx.home, root: ctx.root });
    if (data)
      return {
        rule: `git --work-tree into ${showPath(tree!, ctx.home)}`,
        reason: `\`git --work-tree=${showPath(tree!, ctx.home)}\` writes the repository's files over ${data}, whose own files they replace: export into a new or temporary folder`,
      };
  }
  // `7z x -o/etc`, `dpkg -x x.deb /`, `(cd / && cpio -idmu)`: the other extractors' folders, as tar's (path-uses-archives.ts)
  if (OTHER_EXTRACTORS.has(p)) {
    const hit = extraction(
      p,
      otherExtractorUses(inv).flatMap((u) => (u.access === 'into' ? [u.value] : [])),
      ctx,
    );
    if (hit) return hit;
  }
  if (p === 'unzip') {
    const dir = unzipExtractDir(inv.args);
    return extraction('unzip', dir === null ? null : [dir], ctx);
  }
  // `find . -fprint ~/.bashrc`: what its actions write is a change as any other (pathUses)
  if (p === 'find') return checkFind(inv, ctx) ?? checkChanges(inv, ctx, (u) => u.access === 'write') ?? checkFound(inv, ctx);
  return (
    checkChanges(inv, ctx) ??
    checkServices(inv) ??
    checkDevices(inv, ctx) ??
    checkBootDisks(inv) ??
    checkDesktops(inv) ??
    checkAccounts(inv) ??
    checkAccountRemoval(inv) ??
    checkPackages(inv) ??
    checkToolchains(inv) ??
    checkContainers(inv, ctx)
  );
}

/** `find /dev -name 'sd?' -exec dd of={} \;`: what its `-exec` does to the names find hands on (found-names.ts), as written out. */
function checkFound(inv: Invocation, ctx: FamilyContext): Hit | null {
  for (const found of foundInvocations(inv)) {
    const hit = checkChanges(found, ctx) ?? checkDevices(found, ctx);
    if (hit) return hit;
  }
  return null;
}

/**
 * Every path the program changes by pathUses (written, edited, removed, moved away, written
 * into) that is guarded. `rm` of a folder without -r fails; with -r it removes at least what it
 * removes without (`rm -rf /etc/nginx`, `rm -rf /usr/local/lib/libacme*`), but for the system
 * folders themselves, which the removal rule denies (removal.ts isSystemFolder). An operand
 * `host:path` of rsync or scp is on another machine.
 */
function checkChanges(inv: Invocation, ctx: FamilyContext, only: (u: PathUse) => boolean = () => true): Hit | null {
  const p = inv.program;
  const uses = pathUses(inv).filter(only);
  const removing = p === 'rm' || p === 'unlink';
  const flags = removing ? parseArgs(inv.args, new Set()) : null;
  const recursive = p === 'rm' && flags !== null && (hasFlag(flags, 'r', '--recursive') || hasFlag(flags, 'R'));
  // mv: the destination is the last path named (or the `-t` folder), with where each source lands in it (its word); the others are moved away
  const dest = p === 'mv' ? uses.at(-1) : undefined;
  for (const u of uses) {
    const doing = DOING[u.access];
    if (!doing || (REMOTE_COPIERS.has(p) && /^[^/]*:/.test(u.value))) continue;
    if (removing && !recursive && refusesFolder(u.value)) continue;
    // `mv build/* ~/`: a glob landing in a folder may name a guarded folder there (guardedGlob)
    // `python -m venv ~/.venv`: a folder made and filled with entries of its own is judged by what lands inside it (venv-folders.ts)
    const named = pathNamed(u.word, u.value);
    const g = u.glob ? guardedGlob(u.value, ctx) : guardedPath(u.made ? `${named.replace(/\/+$/, '')}/${MADE_ENTRY}` : named, ctx);
    // `rm -rf /etc`, `rm -rf /usr/local/`: the folder itself, which the removal rule denies first
    if (!g || (recursive && g.kind === 'system' && isSystemFolder(g.shown.replace(/(.)\/+$/, '$1')))) continue;
    // `rmdir ~/.pylint.d`: an empty folder of the home's configuration, nothing lost (empty-folders.ts)
    if (removesOnlyAnEmptyFolder(p, g)) continue;
    if (p === 'mv' && u.word !== dest?.word) return removeHit(p, '`mv` moves away', g);
    const wording = WORDING[p];
    const label = p === 'dd' ? '`dd of=`' : `\`${p}\``;
    if (wording?.removes || u.access === 'remove') return removeHit(p, `${label} ${wording?.doing ?? doing}`, g);
    return writeHit(p, `${label} ${wording?.doing ?? doing}`, g);
  }
  return null;
}

/** An entry a folder's maker writes inside it (a virtual environment's `lib`): where a made folder's writes land. */
const MADE_ENTRY = 'lib';

/** Top system folders that are never symbolic links on Linux: `rm /etc` without -r fails (unlike `rm /lib` on a merged /usr). */
const REAL_FOLDERS = new Set(['/etc', '/usr', '/var', '/boot', '/opt', '/srv', '/root', '/sys', '/proc', '/System', '/Library']);

/** Whether a non-recursive rm of this path is refused: a folder (`rm /etc`, `rm /usr/lib/`). */
function refusesFolder(value: string): boolean {
  return value.endsWith('/') || REAL_FOLDERS.has(value);
}

/** `perl -i`, `gawk -i inplace`: the files it edits in place. */
function inPlace(label: string, files: Word[] | null, ctx: FamilyContext): Hit | null {
  for (const w of files ?? []) {
    const g = guardedPath(w.value, ctx);
    if (g) return writeHit(label, `\`${label}\` edits`, g);
  }
  return null;
}

/** `/`, the home folder (or a folder above it) or another user's (`~name`) as an absolute path or `~name`, shown; else null. */
function homeOrRoot(value: string, ctx: FamilyContext): { shown: string; root: boolean } | null {
  const other = otherHome(value);
  if (other) return other.rest ? null : { shown: `~${other.name}`, root: false };
  if (value.startsWith(UNKNOWN) || value.includes(UNKNOWN) || (ctx.cwd === null && !value.startsWith('/'))) return null;
  const abs = resolvePath(value, { cwd: ctx.cwd ?? '/', home: ctx.home });
  return isRootOrHome(abs, ctx.home) ? { shown: showPath(abs, ctx.home), root: abs !== ctx.home } : null;
}

/** `tar -x -C ~`, `unzip -d /etc`: an archive extracted into a guarded place, or into the home folder or `/` themselves. */
function extraction(label: string, dirs: string[] | null, ctx: FamilyContext): Hit | null {
  for (const d of dirs ?? []) {
    const top = homeOrRoot(d, ctx);
    if (top) {
      const what = top.root
        ? 'the top of the machine, where its files land in the system folders'
        : "the home folder itself, where the archive's dotfiles (.bashrc, .ssh/...) replace the user's own";
      return { rule: `${label} into ${top.shown}`, reason: `\`${label}\` extracts into ${top.shown}, ${what}: the files it replaces are kept nowhere` };
    }
    const g = guardedPath(d, ctx);
    if (g) return { rule: `${label} into ${g.area}`, reason: `\`${label}\` extracts into ${g.shown}, ${KIND[g.kind]}: the files it replaces are kept nowhere` };
  }
  return null;
}

/**
 * A removing find (`-delete`, `-exec rm`): what its expression may remove, read as find evaluates
 * it (find-expression.ts), in a guarded place at or below each starting point — the start itself,
 * what a name test selects in it and in any folder below (`find /etc -name '*.conf' -delete`,
 * `find ~ -name .bashrc -delete`, `find / -name hosts -delete` reaching `/etc/hosts`, `find ~
 * -name known_hosts -delete` reaching `~/.ssh/known_hosts`) and a file no test names (`find
 * ~/.ssh -type f -delete`). A start known only in part counts by its known folder.
 */
function checkFind(inv: Invocation, ctx: FamilyContext): Hit | null {
  const roots = findRemovalRoots(inv.args);
  if (!roots) return null;
  const expression = inv.args.slice(roots.length ? inv.args.indexOf(roots.at(-1)!) + 1 : 0).map((w) => w.value);
  const removes = expression.length > TRIED_WORDS_MAX ? () => true : findRemoves(expression, { empty: 'maybe' });
  const samples = namedSamples(expression);
  // a file somewhere deeper is removed only where one directly inside is, unless a path test tells them apart
  const deeper = expression.some((v) => /^-i?(path|wholename|regex)$/.test(v));
  for (const word of roots.length ? roots : [plainWord('.')]) {
    const root = word.value;
    const abs = root.includes(UNKNOWN) || (ctx.cwd === null && !/^[/~]/.test(root)) ? null : resolvePath(root, { cwd: ctx.cwd ?? '/', home: ctx.home });
    if (abs === null) {
      const g = guardedPath(root, ctx);
      if (g) return findHit(root, 'in', g);
      continue;
    }
    // `find /* -name hosts -delete`: each folder the shell may expand the pattern to is a start
    if (word.glob && /[*?[]/.test(abs)) {
      const hit = checkFindGlob(inv, word, abs, ctx);
      if (hit) return hit;
      continue;
    }
    for (const folder of [abs, ...guardedFoldersBelow(abs, ctx)]) {
      for (const p of probes(folder, foundBelow(root, abs, folder, true), samples, deeper)) {
        const g = guardedAbsolute(p.target, ctx);
        // a top-level dot folder whose contents are not guarded (`~/.cache`, `~/.npm`) is cleaned, not configured
        if (!g || (p.target === abs && g.kind === 'dotfile' && g.shown === g.area && !isDotFolder(g))) continue;
        if (removes(p.file, p.above)) return findHit(root, folder === abs && guardedAbsolute(abs, ctx) ? 'in' : 'of', g, p.sample);
      }
    }
  }
  return null;
}

/**
 * A removing find whose start is a pattern (`/*`, `~/.*`, `/e*`): judged from each guarded folder,
 * and each guarded file it names in its literal folder, that the pattern may name — as the find
 * from that start.
 */
function checkFindGlob(inv: Invocation, word: Word, pattern: string, ctx: FamilyContext): Hit | null {
  const cut = pattern.search(/[*?[]/);
  const parent = pattern.slice(0, pattern.lastIndexOf('/', cut)) || '/';
  const last = pattern.slice(parent === '/' ? 1 : parent.length + 1).split('/')[0]!;
  const named = globSample(last);
  const starts = [parent, ...guardedFoldersBelow(parent, ctx), ...(named ? [`${parent === '/' ? '' : parent}/${named}`] : [])];
  for (const start of starts) {
    if (start === parent || !globMatches(pattern, start, false) || !guardedAbsolute(start, ctx)) continue;
    const hit = checkFind({ ...inv, args: inv.args.map((w) => (w === word ? plainWord(start) : w)) }, ctx);
    if (hit) return hit;
  }
  return null;
}

/** A file a find's expression is tried on: its path, the file and the folders above it as find meets them, the sample name it ends with. */
interface Probe {
  target: string;
  file: FoundFile;
  above: FoundFile[];
  sample?: NameSample;
}

/**
 * The files of a folder (`at`: as find meets it) a find's expression is tried on: the folder,
 * each sample name in it, and (`deeper`) each somewhere below it.
 */
function probes(folder: string, at: { file: FoundFile; above: FoundFile[] }, samples: readonly NameSample[], deeper: boolean): Probe[] {
  const out: Probe[] = [{ target: folder, ...at }];
  const base = folder === '/' ? '' : folder;
  const inside = [...at.above, at.file];
  const mid = foundIn(at.file, '\u0001', true);
  for (const sample of samples)
    for (const dir of [true, false]) {
      out.push({ target: `${base}/${sample.name}`, file: foundIn(at.file, sample.name, dir), above: inside, sample });
      if (deeper)
        out.push({ target: `${base}/\u0001/${sample.name}`, file: { ...foundIn(mid, sample.name, dir), under: folder }, above: [...inside, mid], sample });
    }
  return out;
}

/** `find -delete in /etc` (a guarded start), `find -delete of ~/.*rc` (a guarded place below it, the name shown as the test's glob). */
function findHit(root: string, where: 'in' | 'of', g: Guarded, sample?: NameSample): Hit {
  const show = (path: string) => (sample && path.endsWith(`/${sample.name}`) ? path.slice(0, -sample.name.length) + sample.shown : path);
  const what = where === 'in' || g.shown.includes('\u0001') ? `what it finds under ${g.area}` : show(g.shown);
  return {
    rule: `find -delete ${where} ${show(g.area)}`,
    reason: `\`find ${root} ... -delete\` (or \`-exec rm\`) may remove ${what}, ${KIND[g.kind]}: no copy of it is kept`,
  };
}

/** `sed -i` (`-i.bak`, `-Ei`, `--in-place`): the files it edits, not its script (sed-script.ts reads the line). */
function checkSed(inv: Invocation, ctx: FamilyContext): Hit | null {
  const line = sedLine(inv.args);
  if (!line.inPlace) return null;
  for (const w of line.inputs) {
    const g = guardedPath(w.value, ctx);
    if (g) return writeHit('sed -i', '`sed -i` edits', g);
  }
  return null;
}
