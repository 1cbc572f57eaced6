import type { BashContext } from './bash-rules.ts';
import { type Invocation, unwrap } from './command.ts';
import { inlineCodeWords, secretLiterals } from './families/interpreter.ts';
import { parseArgs } from './families/system-args.ts';
import { gitWorkingFolder } from './git-global-options.ts';
import type { Finding } from './git-rules.ts';
import { leadingFolder, xdgDefaultFolder } from './known-folders.ts';
import { type Access, landing, NAME_PRINTERS, type PathUse, redirectAccess } from './path-access.ts';
import { type PathRuleContext, pathFinding, secretNameFinding, TREE_SECRET_PATHS } from './path-rules.ts';
import { pathUses } from './path-uses.ts';
import { independentOfFolder, matchInside, type PathContext, resolvePath, withoutRootBeforeUnknown } from './paths.ts';
import { UNKNOWN, type Word } from './shell.ts';
import { charge, PATH_COST } from './work-budget.ts';

/**
 * The path rules (path-rules.ts) over one shell command: its redirections (written, read with
 * `<`, both with `<>`) and each path its program uses (path-uses.ts: read, edited, written,
 * removed, written into, or not opened at all), and the folders a recursive reader takes whole.
 */
export function checkCommandPaths(inv: Invocation | null, redirects: Array<{ op: string; target: Word | null }>, ctx: BashContext): Finding | null {
  const { policy } = ctx;
  // after a `cd` to a folder only the shell knows, relative paths are known only in part
  const pctx = { cwd: ctx.cwd ?? '/', home: ctx.home, root: ctx.root };
  const rctx = { ...pctx, policy, protectedPaths: ctx.protectedPaths };
  for (const r of redirects) {
    // `2>&1`, `>&-`: duplicating or closing a descriptor names no file
    if (!r.target || r.op.startsWith('<<') || (r.op.endsWith('&') && /^(\d+|-)$/.test(r.target.value))) continue;
    const f = checkPath(ctx, pctx, rctx, r.target, r.target.value, redirectAccess(r.op));
    if (f) return f;
  }
  if (!inv) return null;
  // `git -C DIR add x`: git's paths are DIR's (git-global-options.ts); a DIR only the shell knows leaves them where they were
  const dir =
    inv.program === 'git' && ctx.cwd !== null
      ? gitWorkingFolder(
          inv.args.map((w) => w.value),
          ctx.cwd,
          (v, from) => (v.includes(UNKNOWN) ? null : resolvePath(v, { cwd: from, home: ctx.home })),
        )
      : null;
  if (dir === null || dir === ctx.cwd) return usedPaths(inv, ctx, pctx, rctx);
  // `git -C ~ show HEAD:.aws/credentials`: outside the project, a tree's paths (`HEAD:x`) are the -C folder's repository's, read from that folder
  const root = ctx.root && (dir === ctx.root || dir.startsWith(`${ctx.root}/`)) ? ctx.root : dir;
  return usedPaths(inv, { ...ctx, cwd: dir, root }, { ...pctx, cwd: dir }, { ...rctx, cwd: dir });
}

/** The path rules over the paths `inv`'s program uses, and the folders it reads whole. */
function usedPaths(inv: Invocation, ctx: BashContext, pctx: PathContext & { cwd: string }, rctx: PathRuleContext): Finding | null {
  const { policy } = ctx;
  const code = inlineCodeWords(inv);
  const uses = pathUses(inv);
  for (const u of uses) {
    if (u.access === 'none') continue;
    if (code.has(u.word)) {
      // inline code is no path it opens; a secret's name in one of its strings is read (families/interpreter.ts)
      for (const literal of secretLiterals(inv, u.word.value)) {
        const f = checkPath(ctx, pctx, rctx, u.word, literal, 'read');
        if (f) return f;
      }
      continue;
    }
    const f = checkPath(ctx, pctx, rctx, u.word, u.value, u.access, u.glob, u.fromRoot, u.found);
    if (f) return f;
    // `cat $(ls .env.local)`: the names a listing prints into the word are used as the word is
    for (const n of u.word.subs.length ? listedNames(u.word) : []) {
      const f = checkPath(ctx, pctx, rctx, n.word, n.value, u.access, n.glob, false, n.glob);
      if (f) return f;
    }
    // a glob read whole is read as the folders it names (`tar c ~/.mozilla/firefox/*.default-release`): a pattern's wildcard reaches into each
    const globbed = u.glob || u.word.glob;
    if (u.tree && (!globbed || u.access === 'read') && !u.value.includes(UNKNOWN) && u.value && (ctx.cwd !== null || u.value.startsWith('/'))) {
      // a copy's destination is taken whole only where the copy merges into it; else where each source lands in it
      const written = u.access === 'write';
      for (const taken of written ? landings(inv, u, uses) : [u.value]) {
        const abs = resolvePath(taken, pctx);
        // the same program reading the same folder again (patterns anchored at the same folder): the verdict reached before
        const key = `tree${written ? 'w' : 'r'}${inv.program}\0${pctx.root ?? pctx.cwd}\0${abs}`;
        let f = ctx.seen.get(key);
        if (f === undefined) {
          f = treeFinding(inv.program, abs, policy.deniedPaths, pctx, written);
          ctx.seen.set(key, f);
        }
        if (f) return f;
      }
    }
    // a folder read whole that the context knows though the line does not spell it (`tar c "$(cd ~ && pwd)"`, `zip -r h "$(realpath ~)"`: known-folders.ts)
    const lead = u.tree && u.access === 'read' && !globbed && u.value === u.word.value ? leadingFolder(u.word, { ...ctx, cwd: pctx.cwd }) : null;
    if (lead !== null && !u.value.slice(1).includes(UNKNOWN)) {
      const f = treeFinding(inv.program, resolvePath(lead + u.value.slice(1), pctx), policy.deniedPaths, pctx);
      if (f) return f;
    }
    // a folder read whole below a folder only the shell knows (`tar c "$X/.ssh"`, `cd "$X" && tar c .ssh`): the home folder among them
    const inFolder = ctx.cwd === null && !independentOfFolder(u.value) ? `${UNKNOWN}/${u.value}` : u.value;
    const rest = u.tree && u.access === 'read' && !globbed ? belowUnknownFolder(inFolder) : null;
    if (rest) {
      const f = treeFinding(inv.program, resolvePath(`~/${rest}`, pctx), policy.deniedPaths, pctx);
      if (f) return f;
    }
    // a folder read whole below whole folders only the shell knows (`tar c ~/$WS/.gnupg`): they may be none
    const none = u.tree && u.access === 'read' && !globbed ? withoutMiddleUnknownFolders(u.value) : null;
    if (none) {
      const f = treeFinding(inv.program, resolvePath(none, pctx), policy.deniedPaths, pctx);
      if (f) return f;
    }
  }
  return null;
}

/** A path with whole folders only the shell knows between known names, those folders left out (`~/$WS/.gnupg` gives `~/.gnupg`), or null. */
function withoutMiddleUnknownFolders(value: string): string | null {
  if (!MIDDLE_UNKNOWN.test(value)) return null;
  const rest = value.replace(MIDDLE_UNKNOWN_ALL, '$1/');
  return /[*?[\uE000]/.test(rest) ? null : rest;
}
const MIDDLE_UNKNOWN = new RegExp(`[^/]/(${UNKNOWN}+/)+[^/${UNKNOWN}]`);
const MIDDLE_UNKNOWN_ALL = new RegExp(`([^/])/(${UNKNOWN}+/)+`, 'g');

/** The literal rest of a path whose leading folder only the shell knows (`$X/.ssh` gives `.ssh`), or null. */
function belowUnknownFolder(value: string): string | null {
  if (!value.startsWith(`${UNKNOWN}/`)) return null;
  const rest = resolvePath(value.slice(1), { cwd: '/', home: '/' }).slice(1);
  return rest && !/[*?[\uE000]/.test(rest) ? rest : null;
}

/** The options of ls, stat and find whose value is no name they list (`stat -c %n`, `ls -I '*.o'`). */
const LISTING_VALUED = new Set(['-c', '--format', '--printf', '-I', '--ignore', '--hide', '-w', '--width', '-T', '--tabsize', '--time-style', '--block-size']);

/**
 * The names the substitutions in `w` print when their commands list them: an `ls`, `stat` or a
 * name printer (path-access.ts NAME_PRINTERS) prints its operands (`$(ls .env.local)`, `` `stat -c
 * %n id_ed25519` ``, `$(realpath .env)`), git's name queries
 * the paths they show (`$(git ls-files .env)`), a `find` what its name
 * tests select (`$(find . -name '*.p12')`, as a glob reaching dot names). What `echo` and `printf`
 * print is in the word's value already (expand.ts substituted).
 */
function listedNames(w: Word): Array<{ word: Word; value: string; glob: boolean }> {
  const out: Array<{ word: Word; value: string; glob: boolean }> = [];
  for (const sub of w.subs) {
    for (const c of sub.commands) {
      const [head, ...args] = c.words;
      const program = head?.value.slice(head.value.lastIndexOf('/') + 1);
      if (program === 'ls' || program === 'stat' || (program !== undefined && NAME_PRINTERS.has(program)))
        for (const o of parseArgs(args, LISTING_VALUED).operands) out.push({ word: o, value: o.value, glob: o.glob });
      else if (program === 'git') {
        // `$(git ls-files .env)`, `$(git check-ignore .env)`: a name query prints the names it is asked about (git-name-queries.ts)
        const inv = unwrap(c).invocation;
        for (const u of inv ? pathUses(inv) : []) if (u.access === 'meta') out.push({ word: u.word, value: u.value, glob: u.word.glob });
      } else if (program === 'find')
        args.forEach((a, i) => {
          const pattern = args[i + 1];
          if (/^-i?name$/.test(a.value) && pattern) out.push({ word: pattern, value: `**/${pattern.value}`, glob: true });
        });
    }
  }
  return out;
}

/**
 * The folders a recursive copy (`cp -r`, `rsync`, `scp -r`, `ln`) writes whole in its destination
 * `dest`: where each source lands (`cp -r templates ~/` writes ~/templates, `cp -r .ssh ~/` ~/.ssh),
 * or `dest` itself where the copy merges into it — `rsync -a src/ ~/`, `cp -r src/. ~/`,
 * `cp -rT src ~`, a source the shell expands or only the shell knows.
 */
function landings(inv: Invocation, dest: PathUse, uses: readonly PathUse[]): string[] {
  const sources = uses.filter((s) => s !== dest && s.access === 'read' && s.word !== dest.word);
  const merges = inv.args.some((w) => /^-[A-Za-z]*T/.test(w.value) || w.value === '--no-target-directory');
  const out: string[] = [];
  for (const s of sources) {
    const at = merges || s.word.glob || s.glob || (inv.program === 'rsync' && s.value.endsWith('/')) ? null : landing(dest.value, s.value);
    if (at === null) return [dest.value];
    out.push(at);
  }
  return out.length ? out : [dest.value];
}

/** What a recursive read of folder `abs` by `program` (a write into it: `written`) would take along that is protected, or null. */
function treeFinding(program: string, abs: string, deniedPaths: readonly string[], pctx: PathContext, written = false): Finding | null {
  const denied = matchInside(abs, deniedPaths, pctx);
  const inside = denied ?? matchInside(abs, TREE_SECRET_PATHS, pctx);
  return inside
    ? {
        rule: `${denied ? 'filesystem.deniedPaths' : 'secrets.paths'}: ${inside.pattern}`,
        reason: `\`${program}\` would ${written ? 'write into' : 'read'} all of ${abs}, which holds protected files (${inside.pattern}); name the files you need instead`,
      }
    : null;
}

/** The path rules on one path a command uses, remembered per command line in `ctx.seen` and charged to its budget once. */
function checkPath(
  ctx: BashContext,
  pctx: PathContext & { cwd: string },
  rctx: PathRuleContext,
  w: Word,
  given: string,
  access: Access,
  forceGlob = false,
  fromRoot = false,
  found = false,
): Finding | null {
  if (!given || given.includes('://') || given === UNKNOWN) return null;
  // `/$X/a` is `$X/a` (paths.ts withoutRootBeforeUnknown)
  const value = withoutRootBeforeUnknown(given);
  // `"$PWD/.claude"`, `"$(pwd)/.husky"`, `~+/x`: the folder the context knows, as for the removal rule (known-folders.ts)
  // (where a cd moved the command, that folder); and, that passing, as a folder only the shell knows, as before
  // `$XDG_CONFIG_HOME/gh/hosts.yml`: the folder the variable names when unset (`~/.config`), then as one only the shell knows
  const lead = value === w.value ? (leadingFolder(w, { ...ctx, cwd: pctx.cwd }) ?? xdgDefaultFolder(w, ctx.home)) : null;
  if (lead !== null && !value.slice(1).includes(UNKNOWN)) {
    const known = checkPath(ctx, pctx, rctx, w, lead + value.slice(1), access, forceGlob, fromRoot, found);
    if (known) return known;
  }
  // a leading folder only the shell knows may be the home folder, where the rest is written out (`$X/.aws/credentials`)
  const rest = lead === null && !forceGlob && !w.glob ? belowUnknownFolder(value) : null;
  if (rest) {
    const home = checkPath(ctx, pctx, rctx, w, `~/${rest}`, access, false, false, found);
    if (home) return home;
  }
  const abs =
    fromRoot && ctx.root
      ? resolvePath(value, { cwd: ctx.root, home: ctx.home })
      : ctx.cwd === null && !independentOfFolder(value)
        ? `${UNKNOWN}/${value}`
        : resolvePath(value, pctx);
  const glob = forceGlob || w.glob || abs.includes(UNKNOWN);
  const key = `${access}${glob ? 'g' : 'l'}${found ? 'f' : ''}${abs}`;
  let f = ctx.seen.get(key);
  if (f === undefined) {
    // the one place a path's work is charged: where its rules run (it throws when the budget has run out)
    charge(ctx.budget, PATH_COST);
    f = pathFinding(abs, access, glob, rctx, found);
    // a symbolic link to a protected file is that file (`ln -s ~/.ssh s; cat s/id_rsa`)
    const real = !f && !glob && ctx.realpath ? ctx.realpath(abs) : null;
    if (real && real !== abs) f = pathFinding(real, access, false, rctx);
    if (!f) f = secretNameFinding(abs, access, glob, found) ?? (real && real !== abs ? secretNameFinding(real, access) : null);
    ctx.seen.set(key, f);
  }
  return f;
}
