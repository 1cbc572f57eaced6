import { posix } from 'node:path';
import { type Invocation, queuesStdin, runsStdin, SHELLS, shellReadsStdin } from './command.ts';
import { inlineCode, languageOf, readsProgramFromStdin } from './families/interpreter-argv.ts';
import { guardedAbsolute } from './families/system-paths.ts';
import type { Finding } from './git-rules.ts';
import { informational } from './informational.ts';
import { makefileRecipes, makeReadsStdin } from './makefile-recipes.ts';
import { candidatePatterns, compileList, matchesAllowed, matchesPrefix } from './patterns.ts';
import type { Policy } from './policy.ts';
import { fetchesLocalFilesOnly } from './request-hosts.ts';
import { UNKNOWN } from './shell.ts';
import type { WorkBudget } from './work-budget.ts';

/** Where a command runs and what it may touch. */
export interface BashContext {
  policy: Policy;
  /** the folder the command runs in; null when a `cd` went somewhere only the shell knows */
  cwd: string | null;
  home: string;
  root: string | undefined;
  /** path verdicts already reached in this command line (long generated commands repeat paths) */
  seen: Map<string, Finding | null>;
  /** the command line's work budget: each path the path rules check is charged to it */
  budget: WorkBudget;
  realpath?: ((path: string) => string | null) | undefined;
  protectedPaths?: string[] | undefined;
  /** the repository's common git folder (a linked worktree's history is there, not in its `.git` file's place) */
  commonDir?: string | undefined;
  /** the symbolic links the command line made before this command (`ln -s ~/Documents d`), absolute: each link and where it points */
  links?: ReadonlyMap<string, string> | undefined;
}

/** List entries that stand for a rule checked semantically elsewhere (every spelling, not one). */
const SEMANTIC_ENTRIES = new Set(['rm -rf /', 'git push --force', 'git push -f', 'git checkout -- .', 'git clean -f', 'git tag']);

/** `deniedPrefixes` and `deniedCommands` (one stage each); pipeline patterns are checked by checkPipeline. */
/** Other names of denied programs and subcommands: `npm pu` is `npm publish`, `mke2fs` is `mkfs.ext2`, `mkntfs` `mkfs.ntfs`. */
function canonical(argv: string[]): string[] {
  const program = { mke2fs: 'mkfs.ext2', mkdosfs: 'mkfs.fat', mkntfs: 'mkfs.ntfs', mkexfatfs: 'mkfs.exfat' }[argv[0] as 'mke2fs'] ?? argv[0]!;
  const out = [program, ...argv.slice(1)];
  if (program === 'npm') {
    const i = out.findIndex((a, k) => k > 0 && !a.startsWith('-'));
    if (i > 0 && /^pu(b(l(i(s(h)?)?)?)?)?$/.test(out[i]!)) out[i] = 'publish';
  }
  return out;
}

/** The top folders whose files are devices or the kernel's, not a file a filesystem can be made in. */
const DEVICE_TOPS = /^\/(dev|proc|sys)(\/|$)/;

/**
 * Whether a filesystem maker (`mkfs`, `mkfs.ext4`, `mke2fs`…) makes its filesystem in a file, not
 * on a disk: `mkfs.btrfs /tmp/x.img`, `mkfs.ext4 -F disk.img 100M`. Every word it is given names
 * no device (`/dev/…`) and nothing only the shell knows (`$DEV`, a glob, a `..` from a folder the
 * rule cannot see); on a device, or anything unseen, the `mkfs` entry stands.
 */
function makesImageFile(argv: readonly string[], policy: Policy): boolean {
  if (!/^mkfs(\.|$)/.test(argv[0]!)) return false;
  const words = argv.slice(1).filter((a) => !a.startsWith('-'));
  const seen = (w: string) => w !== '' && !w.includes(UNKNOWN) && !/[*?[\]{}]/.test(w) && !/(^|\/)\.\.(\/|$)/.test(w);
  // a relative name may be read in /dev (`cd /dev && mkfs.ext4 sdb1`): one that is a disk's name there counts as that disk,
  // unless a file's extension ends it (`disk.img`, `rootfs.ext4`: no disk's name has one)
  const inDev = { policy, cwd: '/dev', home: '/\u0000home', root: undefined };
  const device = (w: string) =>
    /^[/~]/.test(w)
      ? DEVICE_TOPS.test(posix.normalize(w))
      : !/[^/.]\.[A-Za-z][A-Za-z0-9]*$/.test(w) && guardedAbsolute(`/dev/${posix.normalize(w)}`, inDev)?.kind === 'device';
  return words.length > 0 && words.every((w) => seen(w) && !device(w));
}

export function checkLists(rawArgv: string[], policy: Policy): Finding | null {
  const argv = canonical(rawArgv);
  // `npm publish --dry-run`, `docker push --help`, `shutdown --help` do nothing they are listed for (informational.ts)
  if (informational(argv[0]!, argv.slice(1))) return null;
  for (const { text, words, joined } of candidatePatterns(policy.deniedPrefixes, [argv[0]])) {
    if (SEMANTIC_ENTRIES.has(joined)) continue;
    if (matchesPrefix(words, argv))
      return {
        rule: `bash.deniedPrefixes: ${text}`,
        reason: `\`${text}\` is on the denied list. Ask the user to run it, or remove the rule with: axme safety remove bash_deny "${text}"`,
      };
  }
  // `systemctl reboot` is `reboot` by another name
  const verb = argv[0] === 'systemctl' || argv[0] === 'loginctl' ? argv.slice(1).find((a) => !a.startsWith('-')) : undefined;
  for (const { text, words } of candidatePatterns(policy.deniedCommands, [argv[0], verb], true)) {
    if (words.length === 1 && /^mkfs(\.|$)/.test(words[0]!) && makesImageFile(argv, policy)) continue;
    if (matchesPrefix(words, argv, true) || (verb && words.length === 1 && matchesPrefix(words, [verb], true)))
      return {
        rule: `bash.deniedCommands: ${text}`,
        reason: `\`${text}\` is a denied command. Ask the user to run it, or remove the rule with: axme safety remove bash_deny_command "${text}"`,
      };
  }
  return null;
}

/** Whether an allowed prefix exempts this command from the list rules. */
export function isExempt(argv: string[], policy: Policy): boolean {
  return candidatePatterns(policy.allowedPrefixes, [argv[0]]).some((p) => matchesAllowed(p.words, argv));
}

/** Whether the policy lists a semantic entry (`git tag`, `git clean -f`...): its rule is on. */
export function listed(policy: Policy, entry: string): boolean {
  return compileList(policy.deniedPrefixes).entries.has(entry);
}

/** The files that are a process's own stdin: `source /dev/stdin` runs what it reads there. */
const STDIN_FILES = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/** Whether `inv` runs, as the shell's own code, the text it reads on stdin: `source /dev/stdin`, `. /dev/fd/0`. */
export function sourcesStdin(inv: Invocation): boolean {
  return (inv.program === 'source' || inv.program === '.') && STDIN_FILES.has(inv.args[0]?.value ?? '');
}

/** Whether `inv` runs the text it reads on stdin as commands: a shell reading its script there, `at`, `source /dev/stdin`, `make -f -` (its recipes). */
export function runsFedText(inv: Invocation): boolean {
  return runsStdin(inv) || sourcesStdin(inv) || makeReadsStdin(inv.program, argvOf(inv).slice(1));
}

/** The shell text of what `inv` reads on stdin (runsFedText): a Makefile's recipes for `make -f -`, else the text itself. */
export function fedScript(inv: Invocation, text: string): string {
  return makeReadsStdin(inv.program, argvOf(inv).slice(1)) ? makefileRecipes(text) : text;
}

export interface PipedInvocation {
  inv: Invocation;
  pipeline: number;
  index: number;
}

/**
 * Pipeline patterns (`curl | sh`): the first stage piped, directly or later in the pipeline, into
 * the last. A shell stage matches any shell that reads its script from stdin (`| sudo bash`).
 * Also a download fed to a shell another way: `bash <(curl ...)`, `sh -c "$(curl ...)"`, `eval "$(wget ...)"`.
 */
export function checkPipelines(calls: PipedInvocation[], fed: Invocation[][], policy: Policy): Finding | null {
  const { pipelines } = compileList(policy.deniedPrefixes);
  if (!pipelines.length) return null;
  // each call's words once, not once per pattern and stage
  const argvs = calls.map((c) => argvOf(c.inv));
  for (const { text, stages } of pipelines) {
    const first = stages[0]!;
    const last = stages.at(-1)!;
    const lastIsShell = SHELLS.has(last[0]!);
    // a program only the shell knows (`| "$SHELL"`) may be a shell; `| at now` runs it later
    // an interpreter reading its program from stdin (`| python3 -`, `| node`, `| perl`, PowerShell's `| iex`) runs it as a shell would
    const matchesLast = (inv: Invocation, argv: string[]) =>
      lastIsShell
        ? ((SHELLS.has(inv.program) || inv.program.includes(UNKNOWN)) && shellReadsStdin(inv.args)) ||
          queuesStdin(inv) ||
          sourcesStdin(inv) ||
          runsProgramFromStdin(inv)
        : matchesPrefix(last, argv);
    // PowerShell's downloaders stand for `curl` and `wget` (`iwr https://x | iex`)
    // curl fetching `file://` URLs only downloads nothing (request-hosts.ts fetchesLocalFilesOnly)
    const matchesFirst = (inv: Invocation, argv: string[]) =>
      (matchesPrefix(first, argv) && !fetchesLocalFilesOnly(inv)) || (DOWNLOADERS.has(first[0]!) && first.length === 1 && standsForDownloader(argv));
    const rule = `bash.deniedPrefixes: ${text}`;
    const reason = `piping a download into a shell (\`${text}\`) runs code nobody has read. Download the script to a file, show it to the user, then run it`;
    // per pipeline: the first stage that downloads, the last stage that runs a shell
    const firstAt = new Map<number, number>();
    const lastAt = new Map<number, number>();
    for (const [k, c] of calls.entries()) {
      if (matchesFirst(c.inv, argvs[k]!)) firstAt.set(c.pipeline, Math.min(firstAt.get(c.pipeline) ?? Infinity, c.index));
      if (matchesLast(c.inv, argvs[k]!)) lastAt.set(c.pipeline, Math.max(lastAt.get(c.pipeline) ?? -1, c.index));
    }
    for (const [pipeline, at] of firstAt) if ((lastAt.get(pipeline) ?? -1) > at) return { rule, reason };
    if (lastIsShell) {
      for (const runs of fed) if (runs.some((r) => matchesFirst(r, argvOf(r)))) return { rule, reason };
    }
  }
  return null;
}

/** The downloaders of the default pipeline patterns, and PowerShell's, which stand for them (`curl` is Invoke-WebRequest's alias there). */
const DOWNLOADERS = new Set(['curl', 'wget']);
const POWERSHELL_DOWNLOADERS = /^(?:iwr|irm|invoke-webrequest|invoke-restmethod)(?:\.exe)?$/i;
/** The other programs that print what a URL serves (HTTPie's `http`/`https`, `xh`, FreeBSD's `fetch -o -`, the text browsers' `-source`/`-dump`): handed a URL, they stand for `curl` and `wget`. */
const URL_PRINTERS = new Set(['http', 'https', 'xh', 'xhs', 'fetch', 'lynx', 'w3m', 'links', 'elinks']);

/** ssh's options that take a value. */
const SSH_VALUED = new Set(['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B']);

/** `ssh HOST CMD`: what another machine's command prints is code nobody here has read, as a download is. */
function remoteOutput(argv: readonly string[]): boolean {
  if (argv[0] !== 'ssh') return false;
  let operands = 0;
  for (let i = 1; i < argv.length; i++) {
    if (SSH_VALUED.has(argv[i]!)) i++;
    else if (!argv[i]!.startsWith('-') || operands) operands++;
  }
  return operands >= 2;
}

/** Whether a command that is not `curl` or `wget` downloads as they do: PowerShell's downloaders, a URL_PRINTERS program handed a URL, a remote command's output. */
function standsForDownloader(argv: readonly string[]): boolean {
  return POWERSHELL_DOWNLOADERS.test(argv[0]!) || (URL_PRINTERS.has(argv[0]!) && argv.slice(1).some((a) => /^https?:\/\//i.test(a))) || remoteOutput(argv);
}

/** PowerShell's Invoke-Expression: it runs the text piped in as code (`iwr https://x | iex`). */
const POWERSHELL_EVAL = /^(?:iex|invoke-expression)$/i;

/**
 * Whether `inv` runs the text piped into it as a program: an interpreter with no inline code and no
 * script named (`python3 -`, `python3`, `node`, `perl`, `ruby`, `php`; not `python3 -m json.tool`,
 * `python3 -c '…'`, `node -e '…'`, which read it as data), or PowerShell's `iex`.
 */
export function runsProgramFromStdin(inv: Invocation): boolean {
  if (POWERSHELL_EVAL.test(inv.program)) return true;
  const lang = languageOf(inv.program);
  if (!lang) return false;
  const args = inv.args.map((a) => a.value);
  return inlineCode(inv.program, lang, args) === null && readsProgramFromStdin(inv.program, lang, args);
}

export function argvOf(inv: Invocation): string[] {
  return [inv.program, ...inv.args.map((w) => w.value)];
}
