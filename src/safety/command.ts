import { shellQuote } from '../model/shell-quote.ts';
import { programName } from './argv.ts';
import { UNKNOWN } from './expand.ts';
import { parallelLine, parallelScripts } from './parallel.ts';
import { mayRun, runnerReadsFiles, runnerShellLine, runnerStart } from './runners.ts';
import type { SimpleCommand, Word } from './shell.ts';
import { ENTER_KEYS, WRAPPERS, type WrapperSpec } from './wrappers.ts';

export { programName };

/**
 * From a simple command to the program that really runs: assignments skipped, wrappers such as
 * `sudo`, `env`, `timeout` or `xargs` and runners such as `npx`, `pnpm exec` or `uv run`
 * (runners.ts) peeled off, the program named by its base name (`/usr/bin/git` is `git`), and
 * command strings handed to a shell (`bash -c`, `eval`, `su -c`, `env -S`, `watch`, `ssh host
 * cmd`, `parallel cmd ::: args`, `npx -c`, `cross-env-shell`) returned for parsing as scripts of their own.
 */

export interface Invocation {
  /** the program's base name: `git`, `rm` */
  program: string;
  /** the arguments after the program */
  args: Word[];
  /** the wrappers and runners peeled off, outermost first */
  via: string[];
  /**
   * each runner peeled off as written from it on, outermost first (`npx prisma migrate reset`):
   * a list entry spelled with the runner matches the command through it
   */
  runners: string[][];
  /** `env -C dir` / `sudo -D dir`: the folder the program runs in, when a wrapper changes it */
  chdir: string | null;
  command: SimpleCommand;
}

export interface Unwrapped {
  invocation: Invocation | null;
  /** command strings the invocation hands to a shell: parse and check them too */
  scripts: string[];
  /**
   * the other readings of a wrapper's words, where an option the wrapper table does not know took
   * the next word as its value (`systemd-run --service-type oneshot rm -rf ~`): check them too
   */
  alternatives: Invocation[];
}

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash', 'pwsh']);

/** Commands that print a program's name: `$(which npm)`, `$(command -v npm)`, `$(echo npm)`. */
const NAMERS = new Set(['which', 'echo', 'command', 'type', 'printf', 'whereis']);

/**
 * The program a word in the program's place names when it is a substitution that only prints one
 * name (`$(echo git)`, `` `which npm` ``, `$(command -v cargo)`): that name. Null otherwise (the
 * word stays what the parser made of it: unknown where it is dynamic).
 */
function knownProgram(w: Word): string | null {
  if (w.subs.length !== 1 || w.value !== UNKNOWN) return null;
  const sub = w.subs[0]!;
  const named = sub.commands.length === 1 ? sub.commands[0]!.words : null;
  if (!named || named.length < 2 || !NAMERS.has(named[0]!.value)) return null;
  const last = named[named.length - 1]!.value;
  return last.startsWith('-') || last.includes(UNKNOWN) ? null : last;
}

/** Peels wrappers off a simple command; see the module comment. */
export function unwrap(command: SimpleCommand): Unwrapped {
  let words = command.words;
  const via: string[] = [];
  const runners: string[][] = [];
  const scripts: string[] = [];
  const alternatives: Invocation[] = [];
  let chdir: string | null = null;
  // every round drops at least the wrapper's own word, so this ends
  for (;;) {
    // `FOO=bar cmd`: assignments before the program
    let i = 0;
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(words[i]!.raw)) i++;
    words = words.slice(i);
    if (!words.length) return { invocation: null, scripts, alternatives };
    const program = programName(knownProgram(words[0]!) ?? words[0]!.value);
    const args = words.slice(1);
    const spec = WRAPPERS[program];
    if (program === 'eval') {
      scripts.push(wordsFrom(args, 0));
      return { invocation: null, scripts, alternatives };
    }
    // `trap 'cmd' EXIT`: the handler runs later in this shell
    if (program === 'trap') {
      const handler = args.find((w) => !w.value.startsWith('-'));
      if (handler) scripts.push(handler.value);
      return { invocation: null, scripts, alternatives };
    }
    // `flock lockfile -c 'cmd'`, `script -qc 'cmd'`: a command string run by a shell
    if (program === 'flock' || program === 'script') {
      const c = args.findIndex((w) => w.value === '-c' || w.value === '--command' || (/^-[a-z]+$/.test(w.value) && w.value.endsWith('c')));
      if (c >= 0 && args[c + 1]) {
        scripts.push(args[c + 1]!.value);
        return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
      }
    }
    if (program === 'command' && args.some((w) => w.value === '-v' || w.value === '-V')) return { invocation: null, scripts, alternatives };
    if (program === 'env') {
      const split = splitString(args);
      if (split !== null) {
        scripts.push(split);
        return { invocation: null, scripts, alternatives };
      }
    }
    if (program === 'watch') {
      const rest = skipOptions(args, { valued: ['-n', '-d', '--interval', '--differences', '-q', '--equexit'] });
      if (rest.index < args.length) scripts.push(wordsFrom(args, rest.index));
      return { invocation: null, scripts, alternatives };
    }
    // `cross-env-shell NODE_ENV=test "tsc && vitest"`: the words after the assignments, run by a shell
    if (program === 'cross-env-shell') {
      const at = args.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(w.raw));
      if (at >= 0) scripts.push(wordsFrom(args, at));
      return { invocation: null, scripts, alternatives };
    }
    if (program === 'ssh') {
      const rest = skipOptions(args, {
        valued: ['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B'],
        positionals: 1,
      });
      if (rest.index < args.length) scripts.push(wordsFrom(args, rest.index));
      return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
    }
    // `capsh -- -c 'cmd'`: what follows `--` is bash's arguments
    if (program === 'capsh') {
      const body = shellScript(args.slice(args.findIndex((w) => w.value === '--') + 1));
      if (body !== null) scripts.push(body);
      return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
    }
    if (program === 'su' || program === 'runuser' || program === 'sg') {
      const c = args.findIndex((w) => w.value === '-c' || w.value === '--command');
      if (c >= 0 && args[c + 1]) scripts.push(args[c + 1]!.value);
      const inline = args.find((w) => w.value.startsWith('--command='));
      if (inline) scripts.push(inline.value.slice('--command='.length));
      // `runuser -u user -- cmd` runs the command itself, as a wrapper does
      if (program !== 'runuser' || c >= 0 || inline) return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
    }
    // `parallel CMD ::: a b`: CMD run by a shell for each argument (what it reads on stdin, evaluate.ts reads)
    if (program === 'parallel') {
      scripts.push(...parallelScripts(parallelLine(args), null));
      return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
    }
    if (SHELLS.has(program)) {
      const body = shellScript(args);
      if (body !== null) scripts.push(body);
      return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
    }
    // `npx rimraf dist`, `bundle exec rspec`, `python -m twine`: the program a runner starts, as a wrapper's (runners.ts)
    if (mayRun(program)) {
      const argv = args.map((w) => w.value);
      // `npx -c 'tsc && eslint .'`: a shell line, as `sh -c`
      const line = runnerShellLine(program, argv);
      if (line !== null) {
        scripts.push(line);
        return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
      }
      const started = runnerStart(program, argv);
      if (started) {
        // `uv run --env-file .env python app.py`: the file the runner reads is checked as it reads it
        if (runnerReadsFiles(argv)) alternatives.push({ program, args, via: [...via], runners: [...runners], chdir, command });
        via.push(program);
        runners.push([program, ...argv]);
        // the word that names the program, as the program (`aws-cdk@2` is `cdk`, `-mtwine` is `twine`)
        words = [{ ...args[started.at - 1]!, value: started.program }, ...args.slice(started.at)];
        continue;
      }
    }
    if (!spec) return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
    // `tmux -c 'cmd'`, `tmux new -d 'cmd'`, `nix-shell --run 'cmd'`: command lines the program hands a shell
    if (spec.scriptOptions || (spec.scriptVerbs && (!spec.verbOption || args.some((w) => w.value === spec.verbOption)))) {
      scripts.push(...launcherScripts(args, spec));
      return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
    }
    // `start-stop-daemon --start --exec /bin/x -- args`: the program an option names, its arguments after `--`
    if (spec.programOptions) {
      const run = namedProgram(args, spec);
      if (!run) return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
      const given = skipOptions(args, spec).chdir(spec.chdir ?? []);
      if (given) chdir = given;
      via.push(program);
      words = run;
      continue;
    }
    // `machinectl shell …`, `toolbox run …`: the words after the verb; another verb runs no command
    const verb = spec.verbs ? skipOptions(args, { valued: spec.valued }).index : -1;
    if (spec.verbs && !spec.verbs.includes(args[verb]?.value ?? ''))
      return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
    // `distrobox enter box -- cmd`, `-e cmd`: the command after such a word, none without it
    if (spec.commandAfter) {
      const dashDash = args.findIndex((w) => spec.commandAfter!.includes(w.value));
      if (dashDash < 0 || dashDash === args.length - 1) return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
      via.push(program);
      words = args.slice(dashDash + 1);
      continue;
    }
    // `dotenv -e .env.test -- jest`: the file the wrapper reads is checked as it reads it
    if (spec.readsFiles?.some((o) => args.some((w) => w.value === o || w.value.startsWith(`${o}=`))))
      alternatives.push({ program, args, via: [...via], runners: [...runners], chdir, command });
    const own = args.slice(verb + 1);
    const rest = skipOptions(own, spec, false);
    // the reading where each option the table does not know takes the next word as its value
    const other = skipOptions(own, spec, true);
    if (other.index > rest.index && other.index < own.length) {
      const alt = unwrap({ ...command, words: own.slice(other.index) });
      const altChdir = (spec.chdir && other.chdir(spec.chdir)) ?? chdir;
      scripts.push(...alt.scripts);
      for (const inv of alt.invocation ? [alt.invocation, ...alt.alternatives] : alt.alternatives)
        alternatives.push({ ...inv, via: [...via, program, ...inv.via], runners: [...runners, ...inv.runners], chdir: inv.chdir ?? altChdir, command });
    }
    if (spec.chdir && rest.chdir(spec.chdir)) chdir = rest.chdir(spec.chdir);
    const inner = own.slice(rest.index);
    // a wrapper with nothing to run is itself the program: `env` alone prints the environment
    if (inner.every((w) => /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(w.raw)))
      return { invocation: { program, args, via, runners, chdir, command }, scripts, alternatives };
    via.push(program);
    words = inner;
    if (program === 'busybox' && words[0]?.value === 'sh') continue;
  }
}

/**
 * Skips a wrapper's options (and `--`) and its positional arguments; returns where the command
 * starts. `unknownTakesValue`: an option the spec does not list takes the next word (one not
 * starting with `-`) as its value.
 */
function skipOptions(
  args: Word[],
  spec: Pick<WrapperSpec, 'valued' | 'pairs' | 'positionals'>,
  unknownTakesValue = false,
): { index: number; chdir: (names: string[]) => string | null } {
  const { valued, pairs = [], positionals = 0 } = spec;
  const values = new Map<string, string>();
  let i = 0;
  while (i < args.length) {
    const v = args[i]!.value;
    if (v === '--') {
      i++;
      break;
    }
    if (!v.startsWith('-') || v === '-') break;
    const eq = v.indexOf('=');
    if (v.startsWith('--') && eq > 0) {
      values.set(v.slice(0, eq), v.slice(eq + 1));
      i++;
      continue;
    }
    if (valued.includes(v)) {
      values.set(v, args[i + 1]?.value ?? '');
      i += 2;
      continue;
    }
    if (pairs.includes(v)) {
      i += 3;
      continue;
    }
    // `-uroot`, `-n10`: a valued short option with its value attached
    const attached = valued.find((o) => o.length === 2 && v.startsWith(o) && v.length > 2);
    if (attached) values.set(attached, v.slice(2));
    else if (unknownTakesValue && args[i + 1] && !args[i + 1]!.value.startsWith('-')) i++;
    i++;
  }
  for (let p = 0; p < positionals && i < args.length; p++) i++;
  // `machinectl shell .host -- cmd`: getopt takes a `--` after the positionals too
  if (positionals && args[i]?.value === '--') i++;
  return { index: i, chdir: (names) => names.map((n) => values.get(n)).find((x) => x !== undefined) ?? null };
}

/**
 * The command lines a launcher hands a shell: the values of its script options (`tmux -c 'cmd'`),
 * and the words after each script verb's own options (`tmux new -d 'cmd' \; splitw 'cmd2'`, a
 * `;` word starting the next verb; after the spec's verbOption for screen); an Enter typed by
 * `send-keys`, or a newline written in the text, ends a line.
 */
function launcherScripts(args: Word[], spec: WrapperSpec): string[] {
  const out: string[] = [];
  const options = spec.scriptOptions ?? [];
  args.forEach((w, i) => {
    if (options.includes(w.value) && args[i + 1]) out.push(args[i + 1]!.value);
    const eq = w.value.indexOf('=');
    if (eq > 0 && options.includes(w.value.slice(0, eq))) out.push(w.value.slice(eq + 1));
  });
  const verbs = spec.scriptVerbs;
  if (!verbs) return out;
  const after = spec.verbOption ? args.findIndex((w) => w.value === spec.verbOption) + 1 : skipOptions(args, spec).index;
  let group = args.slice(after);
  while (group.length) {
    const end = group.findIndex((w) => w.value === ';');
    const own = end < 0 ? group : group.slice(0, end);
    group = end < 0 ? [] : group.slice(end + 1);
    const valued = Object.hasOwn(verbs, own[0]?.value ?? '') ? verbs[own[0]!.value]! : null;
    if (!valued) continue;
    const words = own.slice(1);
    const line = words
      .slice(skipOptions(words, { valued }).index)
      .map((w) => (ENTER_KEYS.has(w.value) ? '\n' : w.value))
      .join(' ')
      // a typed line ends at a written newline or carriage return too (`stuff 'cmd\n'`, `'cmd^M'`)
      .replace(/\\[nr]|\^[MJ]|\r/g, '\n');
    if (line.trim()) out.push(line);
  }
  return out;
}

/** The program a launcher's option names, followed by the words after `--` (`start-stop-daemon -x /bin/x -- a b`), or null when none is given. */
function namedProgram(args: Word[], spec: WrapperSpec): Word[] | null {
  const names = spec.programOptions ?? [];
  const dashDash = args.findIndex((w) => w.value === '--');
  const own = dashDash < 0 ? args : args.slice(0, dashDash);
  const given = new Map<string, Word>();
  own.forEach((w, i) => {
    const eq = w.value.indexOf('=');
    const name = w.value.startsWith('--') && eq > 0 ? w.value.slice(0, eq) : w.value;
    if (!names.includes(name)) return;
    const value = eq > 0 && name !== w.value ? { ...w, value: w.value.slice(eq + 1), raw: w.raw.slice(w.raw.indexOf('=') + 1) } : own[i + 1];
    if (value) given.set(name, value);
  });
  const first = names.map((n) => given.get(n)).find((w) => w !== undefined);
  return first ? [first, ...(dashDash < 0 ? [] : args.slice(dashDash + 1))] : null;
}

/** `env -S "cmd args"` / `--split-string=...`: the command string, else null. */
/** The words from position `from` on, as one command line (what a wrapper hands a shell). */
function wordsFrom(args: Word[], from: number): string {
  return args
    .slice(from)
    .map((w) => w.value)
    .join(' ');
}

function splitString(args: Word[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (!v.startsWith('-')) return null;
    if (v === '-S' || v === '--split-string') return wordsFrom(args, i + 1);
    if (v.startsWith('--split-string=')) return [v.slice(15), ...args.slice(i + 1).map((w) => w.value)].join(' ');
    if (/^-[^-]*S/.test(v)) return [v.slice(v.indexOf('S') + 1), ...args.slice(i + 1).map((w) => w.value)].join(' ').trim();
  }
  return null;
}

/** The command string of `bash -c '...'` (also `-lc`, `-e -c`, `-o pipefail -c`), else null. */
export function shellBody(args: Word[]): string | null {
  return shellCommand(args)?.body ?? null;
}

/**
 * The script `bash -c SCRIPT NAME ARGS…` runs: SCRIPT with the words after it bound to its `$0`
 * (BASH_ARGV0, as bash sets it) and `$1`… (`set --`), so that `bash -c '"$@"' _ rm -rf /` is
 * read as the `rm -rf /` it runs; null without `-c`.
 */
export function shellScript(args: Word[]): string | null {
  const c = shellCommand(args);
  if (!c) return null;
  const values = args.slice(c.index + 1).map((w) => w.value);
  // `find … -exec sh -c 'rm -rf "$1"' _ {} \;`: `{}` is each name find (or xargs -I) hands on, left unknown
  if (!values.length || values.some((v) => v.includes('{}'))) return c.body;
  const [zero, ...rest] = values.map(shellQuote);
  return `BASH_ARGV0=${zero}; set -- ${rest.join(' ')}\n${c.body}`;
}

/** shellBody's string and where it stands among `args`. */
function shellCommand(args: Word[]): { body: string; index: number } | null {
  let wantsBody = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '-o' || v === '+o' || v === '-O' || v === '+O' || v === '--rcfile' || v === '--init-file') {
      i++;
      continue;
    }
    if (v === '--') continue;
    if (/^-[A-Za-z]+$/.test(v) || /^\+[A-Za-z]+$/.test(v)) {
      if (v.startsWith('-') && v.includes('c')) wantsBody = true;
      continue;
    }
    if (v.startsWith('--')) continue;
    return wantsBody ? { body: v, index: i } : null;
  }
  return null;
}

/**
 * Whether `at` or `batch` queues the shell commands it reads on stdin for /bin/sh (`echo cmd | at
 * now`, `at 23:00 <<< cmd`): not with `-f FILE`, nor when it lists, removes or prints jobs (`-l`,
 * `-r`, `-d`, `-c`) or only tells its version.
 */
export function queuesStdin(inv: Invocation): boolean {
  if (inv.program !== 'at' && inv.program !== 'batch') return false;
  for (const [i, a] of inv.args.entries()) {
    const v = a.value;
    if (v === '--') break;
    if (!/^-[A-Za-z/]+$/.test(v)) continue;
    for (const [k, c] of [...v.slice(1)].entries()) {
      // `-f job.sh` reads the job from a file; `-f /dev/stdin`, `-f -` from stdin still
      if (c === 'f') {
        const file = v.slice(k + 2) || inv.args[i + 1]?.value;
        if (file !== '/dev/stdin' && file !== '-') return false;
        break;
      }
      if ('lrdcV'.includes(c)) return false;
      // `-q b`, `-qb`: a queue, a time or a user, not more options
      if ('qtu'.includes(c)) break;
    }
  }
  return true;
}

/** Whether a program runs the commands it reads on stdin, at once or later: a shell (`| sh`, `bash <<EOF`), `at` or `batch`. */
export function runsStdin(inv: Invocation): boolean {
  return SHELLS.has(inv.program) || queuesStdin(inv);
}

/** Whether a shell invocation reads its commands from standard input (`| sh`, `| bash -s`). */
export function shellReadsStdin(args: Word[]): boolean {
  if (shellBody(args) !== null) return false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '-o' || v === '+o' || v === '-O' || v === '+O' || v === '--rcfile' || v === '--init-file') {
      i++;
      continue;
    }
    if (v === '-s' || (/^-[A-Za-z]+$/.test(v) && v.includes('s'))) return true;
    if (!v.startsWith('-') && !v.startsWith('+')) return v === '-' || v === '/dev/stdin';
  }
  return true;
}
