import { posix } from 'node:path';
import { accountHome } from './account-homes.ts';
import { programName } from './command.ts';
import { resolvePath } from './paths.ts';
import { printedHome } from './printed-homes.ts';
import { isDynamic, type Script, type SimpleCommand, UNKNOWN, type Word } from './shell.ts';

/**
 * The folder a word starts with when it is one the context knows though the command line does
 * not spell it: `$PWD` and `$(pwd)` (the folder the command runs in), `$(git rev-parse
 * --show-toplevel)` (the project, where the command runs inside it), `--git-dir`,
 * `--git-common-dir`, `--git-path X` and `--show-cdup`, and what `dirname`, `realpath`, `readlink
 * -f`, `echo` and `cd X && pwd` make of such a folder or of a literal path — in the spellings
 * people write: options and `--` anywhere, stderr sent away (`2>/dev/null`), substitutions nested
 * (`$(dirname "$(pwd)")`), `cd` alone (the home folder) and cds one after another, and the user's
 * own home an account query or an interpreter one-liner prints (account-homes.ts: `getent passwd
 * "$USER" | cut -d: -f6`; printed-homes.ts: `python3 -c 'print(Path.home())'`). The removal
 * rule judges `rm -rf "$(git rev-parse --show-toplevel)"` as `rm -rf` of the project.
 */

/** Where a command runs: the folders of bash-rules.ts's BashContext, spelled out so that the rules there may use this file. */
type FolderContext = { cwd: string | null; home: string; root: string | undefined; commonDir?: string | undefined };
type KnownContext = FolderContext & { cwd: string };

/** The absolute folder `w` starts with (the rest of its value follows it), or null when the context does not know it. */
export function leadingFolder(w: Word, ctx: FolderContext): string | null {
  if (ctx.cwd === null || !w.value.startsWith(UNKNOWN)) return null;
  if (w.leadingVar === 'PWD') return ctx.cwd;
  const sub = leadingSubstitution(w);
  return sub ? printedFolder(sub, { ...ctx, cwd: ctx.cwd }) : null;
}

/**
 * The XDG base folders' defaults below the home folder: where a program looks when the variable is
 * unset, so what a word starting with one names at least (`$XDG_CONFIG_HOME/gh/hosts.yml` is
 * `~/.config/gh/hosts.yml`).
 */
const XDG_DEFAULTS: Readonly<Record<string, string>> = {
  XDG_CONFIG_HOME: '.config',
  XDG_DATA_HOME: '.local/share',
  XDG_STATE_HOME: '.local/state',
  XDG_CACHE_HOME: '.cache',
};

/**
 * The default folder of the XDG base folder variable `w` starts with (XDG_DEFAULTS), or null.
 * `$XDG_RUNTIME_DIR` is the user's runtime folder, `/run/user/<uid>` (its uid only the shell
 * knows: one folder, named here `$UID`), where RUNTIME_CREDENTIALS live (`$XDG_RUNTIME_DIR/containers/auth.json`).
 */
export function xdgDefaultFolder(w: Word, home: string): string | null {
  if (!w.leadingVar || !w.value.startsWith(UNKNOWN)) return null;
  if (w.leadingVar === 'XDG_RUNTIME_DIR') return '/run/user/$UID';
  const below = Object.hasOwn(XDG_DEFAULTS, w.leadingVar) ? XDG_DEFAULTS[w.leadingVar] : undefined;
  return below ? `${home}/${below}` : null;
}

/** The substitution a word starts with (`"$(…)"`, `` `…` ``), or null. */
export function leadingSubstitution(w: Word): Script | null {
  const sub = w.value.startsWith(UNKNOWN) && /^"?(\$\(|`)/.test(w.raw) ? w.subs[0] : undefined;
  return sub && !sub.tooDeep ? sub : null;
}

/**
 * The commands a substitution runs itself, in order, without those of the substitutions nested in
 * their words (the parser lists those first: `$(dirname "$(pwd)")` is `pwd`, then `dirname`).
 */
export function ownCommands(sub: Script): SimpleCommand[] {
  const nested = new Set<SimpleCommand>();
  for (const c of sub.commands) {
    for (const w of c.words) for (const s of w.subs) for (const n of s.commands) nested.add(n);
    for (const r of c.redirects) for (const s of [...(r.subs ?? []), ...(r.target?.subs ?? [])]) for (const n of s.commands) nested.add(n);
  }
  return sub.commands.filter((c) => !nested.has(c));
}

/** The folder a substitution prints, when its commands are cds and then one of the printers above. */
function printedFolder(sub: Script, ctx: KnownContext): string | null {
  const own = ownCommands(sub);
  const account = accountHome(own, ctx.home) ?? printedHome(own, ctx.home);
  if (account !== null) return account;
  let cwd: string | null = ctx.cwd;
  // `cd X && pwd`, `cd; pwd`, `cd ..; cd ..; pwd`: each cd moves where the last command prints
  for (const cd of own.slice(0, -1)) {
    const words = commandWords(cd);
    if (words?.[0]?.value !== 'cd' || !cwd) return null;
    // `cd -` goes back to where the shell was before, which the context does not tell
    const target = words.some((w) => w.value === '-') ? null : operands(words.slice(1));
    cwd = !target ? null : target.length === 0 ? ctx.home : target.length === 1 ? wordFolder(target[0]!, { ...ctx, cwd }) : null;
  }
  const words = own.length && cwd ? commandWords(own[own.length - 1]!) : null;
  if (!words?.length || !cwd) return null;
  const here = { ...ctx, cwd };
  const program = programName(words[0]!.value);
  const args = words.slice(1);
  const end = args.findIndex((a) => a.value === '--');
  const options = (end < 0 ? args : args.slice(0, end)).filter((a) => a.value.startsWith('-')).map((a) => a.value);
  const rest = operands(args);
  switch (program) {
    case 'pwd':
      return rest.length === 0 && options.every((a) => /^-[LP]+$/.test(a)) ? cwd : null;
    case 'echo':
      return rest.length === 1 && options.length === 0 ? wordFolder(rest[0]!, here) : null;
    case 'realpath':
      return rest.length <= 1 &&
        options.every((a) => /^-[eLPsmqz]+$|^--(canonicalize-(existing|missing)|logical|physical|strip|no-symlinks|quiet|zero)$/.test(a))
        ? rest[0]
          ? wordFolder(rest[0], here)
          : cwd
        : null;
    case 'readlink':
      return rest.length === 1 &&
        options.some((a) => /^-[a-z]*[efm]|^--canonicalize/.test(a)) &&
        options.every((a) => /^-[efmnqsvz]+$|^--(canonicalize(-existing|-missing)?|no-newline|quiet|silent|verbose|zero)$/.test(a))
        ? wordFolder(rest[0]!, here)
        : null;
    case 'dirname': {
      const of = rest.length === 1 && options.length === 0 ? wordFolder(rest[0]!, here) : null;
      return of && posix.dirname(of);
    }
    case 'git':
      return gitFolder(args, here);
    default:
      return null;
  }
}

/**
 * A command's words from its program on — `builtin`, `command`, `env` and assignments before it
 * dropped — or null when it writes its output elsewhere (a redirection other than of stderr to
 * /dev/null or stdout: the parser keeps no descriptor, so any such target counts as stderr's).
 */
function commandWords(cmd: SimpleCommand): Word[] | null {
  if (!cmd.redirects.every((r) => ((r.op === '>' || r.op === '>>') && r.target?.value === '/dev/null') || (r.op === '>&' && r.target?.value === '1')))
    return null;
  const words = [...cmd.words];
  for (;;) {
    const first = words[0]?.value;
    if (first === 'builtin' || first === 'command' || first === 'env' || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]?.raw ?? '')) words.shift();
    else return words;
  }
}

/** The operands among a command's arguments: the words not starting with `-`, and all after `--`. */
function operands(args: readonly Word[]): Word[] {
  const end = args.findIndex((a) => a.value === '--');
  const before = end < 0 ? args : args.slice(0, end);
  const after = end < 0 ? [] : args.slice(end + 1);
  return [...before.filter((a) => !a.value.startsWith('-')), ...after];
}

/** Where `git rev-parse --git-path X` is: in the common git folder for what the worktrees share. */
const SHARED_GIT_PATHS = /^(objects|refs|packed-refs|logs\/refs|lfs|modules|config|hooks|info|shallow|worktrees)(\/|$)/;

/**
 * `git [-C DIR] [--no-pager] [-c k=v] rev-parse [-q] [--path-format=…] QUERY [--]` run inside the
 * project, QUERY one of `--show-toplevel`, `--show-cdup` (the path from here up to it), `--git-dir`,
 * `--absolute-git-dir`, `--git-common-dir`, `--git-path X`.
 */
function gitFolder(args: readonly Word[], ctx: KnownContext): string | null {
  let dir: string | null = ctx.cwd;
  let i = 0;
  for (; i < args.length && args[i]!.value.startsWith('-'); i++) {
    const v = args[i]!.value;
    if (v === '-C') dir = args[i + 1] && dir ? wordFolder(args[++i]!, { ...ctx, cwd: dir }) : null;
    else if (v === '-c') i++;
    else if (!/^(--no-pager|-P|--no-replace-objects|--no-optional-locks|--literal-pathspecs|--no-lazy-fetch|-c.+)$/.test(v)) return null;
  }
  const [sub, ...flags] = args.slice(i).map((a) => a.value);
  const { root } = ctx;
  if (sub !== 'rev-parse' || !root || !dir || (dir !== root && !dir.startsWith(`${root}/`))) return null;
  const queries = flags.filter((f, k) => !/^(-q|--quiet|--path-format=(absolute|relative)|--)$/.test(f) && flags[k - 1] !== '--git-path');
  const gitDir = `${root}/.git`;
  const asked = flags[flags.indexOf('--git-path') + 1];
  if (queries.length === 1 && queries[0] === '--git-path' && asked !== undefined && !asked.includes(UNKNOWN)) {
    const path = posix.normalize(asked);
    if (path.startsWith('/') || path.startsWith('..')) return null;
    return `${SHARED_GIT_PATHS.test(path) ? (ctx.commonDir ?? gitDir) : gitDir}/${path}`.replace(/\/\.$/, '');
  }
  if (queries.length !== 1) return null;
  if (queries[0] === '--show-toplevel') return root;
  // `--show-cdup` prints `../../` (or nothing at the top): the project, with the slash the rest follows
  if (queries[0] === '--show-cdup') return `${root}/`;
  if (queries[0] === '--git-dir' || queries[0] === '--absolute-git-dir') return gitDir;
  if (queries[0] === '--git-common-dir') return ctx.commonDir ?? gitDir;
  return null;
}

/** The absolute folder a word names: a literal path resolved, or a known leading folder and a literal rest. */
function wordFolder(w: Word, ctx: KnownContext): string | null {
  if (!isDynamic(w)) return w.glob ? null : resolvePath(w.value, ctx);
  const lead = leadingFolder(w, ctx);
  const rest = w.value.slice(1);
  return lead !== null && !rest.includes(UNKNOWN) && !w.glob ? resolvePath(lead + rest, ctx) : null;
}
