import { shellJoin } from '../model/shell-quote.ts';

/**
 * The options and verbs of git whose value git hands a shell (git's man pages: git-rebase,
 * git-submodule, git-bisect, git-difftool, git-grep, git-send-email, git-clone, git-fetch,
 * git-push, git-archive, git-instaweb, git-daemon, git-filter-branch): `git rebase -x CMD`, `git
 * submodule foreach CMD`, `git bisect run CMD ARGS`, `git difftool -x CMD`, `git grep -OCMD`, `git
 * send-email --to-cmd=CMD`, `--upload-pack`/`--receive-pack`/`--exec` (a local repository's
 * other side runs through the shell), `git instaweb --httpd`, `git daemon --access-hook`, the
 * filters of `git filter-branch`. git-settings.ts settingCommands hands each command line to be
 * checked as the command it is, as the settings whose value is a command are.
 */

/** How a verb's command-valued options are spelled. */
interface CommandOptions {
  /** long options whose value is a command line (`--exec CMD`, `--exec=CMD`; a prefix git resolves, `--exe`) */
  long?: readonly string[];
  /** short options whose value is one (`-x CMD`, `-xCMD`, `-ix CMD`) */
  short?: string;
  /** options whose value is optional and only attached: a command line when given (`-OCMD`, `--open-files-in-pager=CMD`) */
  optionalLong?: readonly string[];
  optionalShort?: string;
  /** the verb's other short options that take a value: in a cluster, what follows one is its value */
  valued?: string;
  /** the verb's other long options that begin a command option's name: typed in full they are themselves (`--to`, not `--to-cmd`) */
  exact?: readonly string[];
}

const OPTIONS: Record<string, CommandOptions> = {
  rebase: { long: ['--exec'], short: 'x', valued: 'sXCS' },
  difftool: { long: ['--extcmd'], short: 'x', valued: 't' },
  grep: { optionalLong: ['--open-files-in-pager'], optionalShort: 'O', valued: 'ABCefm' },
  'send-email': { long: ['--to-cmd', '--cc-cmd', '--header-cmd', '--sendmail-cmd'], exact: ['--to', '--cc'] },
  clone: { long: ['--upload-pack'], short: 'u', valued: 'obcj' },
  fetch: { long: ['--upload-pack'] },
  pull: { long: ['--upload-pack'] },
  'ls-remote': { long: ['--upload-pack'] },
  'fetch-pack': { long: ['--upload-pack', '--exec'] },
  push: { long: ['--receive-pack', '--exec'] },
  'send-pack': { long: ['--receive-pack', '--exec'] },
  archive: { long: ['--exec'] },
  instaweb: { long: ['--httpd'], short: 'd', valued: 'pbm' },
  daemon: { long: ['--access-hook'] },
  'filter-branch': {
    long: ['--setup', '--env-filter', '--tree-filter', '--index-filter', '--parent-filter', '--msg-filter', '--commit-filter', '--tag-name-filter'],
  },
};

/** The long option of `names` a typed one is (`--exe` for `--exec`), or null: an exact name of `exact` is itself. */
function longName(typed: string, names: readonly string[] | undefined, exact: readonly string[] | undefined): string | null {
  if (!names || typed.length < 3 || exact?.includes(typed)) return null;
  return names.find((n) => n.startsWith(typed)) ?? null;
}

/** The command lines a git call's options hand a shell (OPTIONS), in order. */
function optionValues(args: readonly string[], o: CommandOptions): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!;
    if (v === '--') break;
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const typed = eq < 0 ? v : v.slice(0, eq);
      if (longName(typed, o.optionalLong, o.exact)) {
        if (eq >= 0) out.push(v.slice(eq + 1));
      } else if (longName(typed, o.long, o.exact)) {
        const value = eq >= 0 ? v.slice(eq + 1) : args[++i];
        if (value !== undefined) out.push(value);
      }
      continue;
    }
    if (!/^-[A-Za-z]/.test(v)) continue;
    // a cluster of letters: a command letter takes the rest (or the next word); another valued letter ends it
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      const rest = v.slice(k + 1);
      if (o.short?.includes(c)) {
        const value = rest || args[++i];
        if (value !== undefined) out.push(value);
        break;
      }
      if (o.optionalShort?.includes(c)) {
        if (rest) out.push(rest);
        break;
      }
      if (o.valued?.includes(c)) {
        if (!rest) i++;
        break;
      }
    }
  }
  return out;
}

/** `git submodule [-q] foreach [--recursive] [-q] CMD [ARGS]`: the first word is shell code, the others its arguments ("$@"). */
function foreachCommand(args: readonly string[]): string | null {
  let i = 0;
  while (i < args.length && /^(-q|--quiet|--cached)$/.test(args[i]!)) i++;
  if (args[i] !== 'foreach') return null;
  i++;
  while (i < args.length && /^(-q|--quiet|--recursive|--)$/.test(args[i]!)) if (args[i++] === '--') break;
  const words = args.slice(i);
  if (!words.length) return null;
  return words.length === 1 ? words[0]! : `${words[0]} ${shellJoin(words.slice(1))}`;
}

/**
 * The command lines a git call hands a shell through its options and verbs (OPTIONS, `submodule
 * foreach`, `bisect run`): what git runs, to be checked as commands.
 */
export function optionCommands(call: { sub: string; args: readonly string[] }): string[] {
  const { sub, args } = call;
  if (sub === 'submodule') {
    const line = foreachCommand(args);
    return line ? [line] : [];
  }
  // `git bisect run CMD ARGS`: git quotes the words and hands them to a shell
  if (sub === 'bisect') return args[0] === 'run' && args.length > 1 ? [shellJoin(args.slice(1))] : [];
  const o = Object.hasOwn(OPTIONS, sub) ? OPTIONS[sub]! : null;
  return o ? optionValues(args, o) : [];
}

/** The settings `git clone -c KEY=VALUE` (`--config`) writes into the new repository, which its own fetch already uses: keys lower-cased. */
export function cloneSettings(call: { sub: string; args: readonly string[] }): Array<[string, string]> {
  if (call.sub !== 'clone') return [];
  const out: Array<[string, string]> = [];
  for (let i = 0; i < call.args.length; i++) {
    const v = call.args[i]!;
    if (v === '--') break;
    const pair =
      v === '-c' || v === '--config' ? call.args[++i] : v.startsWith('--config=') ? v.slice(9) : v.startsWith('-c') && v.length > 2 ? v.slice(2) : null;
    if (!pair) continue;
    const eq = pair.indexOf('=');
    out.push([(eq < 0 ? pair : pair.slice(0, eq)).toLowerCase(), eq < 0 ? 'true' : pair.slice(eq + 1)]);
  }
  return out;
}
