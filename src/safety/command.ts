import { shellQuote } from '../model/shell-quote.ts';
import { programName } from './argv.ts';
import { UNKNOWN } from './expand.ts';
import { fdAsFind } from './fd-as-find.ts';
import { wordsFrom } from './launcher-shapes.ts';
import { launch } from './launchers.ts';
import { runnerShellLine } from './runner-shell-lines.ts';
import { mayRun, type RunnerStart, runnerReadsFiles, runnerStart } from './runners.ts';
import type { SimpleCommand, Word } from './shell.ts';
import { ASSIGNMENT } from './syntax.ts';
import { skipOptions, WRAPPERS, type WrapperSpec } from './wrappers.ts';

export { programName };

/**
 * The command model and the peel: from a simple command to the program that really runs,
 * assignments skipped, wrappers such as `sudo`, `env`, `timeout` or `xargs` (wrappers.ts),
 * launchers such as `tmux`, `ssh` or `distrobox enter` (launchers.ts) and runners such as `npx`,
 * `pnpm exec` or `uv run` (runners.ts) peeled off, the program named by its base name
 * (`/usr/bin/git` is `git`), and command strings handed to a shell (`bash -c`, `eval`, `su -c`,
 * `env -S`, `watch`, `ssh host cmd`, `parallel cmd ::: args`, `npx -c`, `cross-env-shell`)
 * returned for parsing as scripts of their own.
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

/** An assignment before a program, or among cross-env's words: `FOO=bar`, `PATH+=:bin`. */

export const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'yash',
  'pwsh',
  'nu',
  'xonsh',
  'elvish',
  'oil',
  'osh',
  'ysh',
]);

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

/**
 * A command word that is only the variable naming the user's shell (`$SHELL`, `${BASH}`,
 * `"$SHELL"`): a shell, whose `-c` script is read as `bash -c`'s. Null for any other word.
 */
function shellVariable(w: Word): string | null {
  return /^"?\$(\{(SHELL|BASH)\}|SHELL|BASH)"?$/.test(w.raw) ? 'bash' : null;
}

/** What the peel has gathered so far: the wrappers and runners peeled, the scripts and readings found, the folder. */
interface Peel {
  command: SimpleCommand;
  via: string[];
  runners: string[][];
  scripts: string[];
  alternatives: Invocation[];
  chdir: string | null;
}

/** The peel's end: `program` is the invocation, or none runs (`eval`, `env -S`, `watch`: their scripts carry what runs). */
function ended(p: Peel, program: string | null, args: Word[] = []): Unwrapped {
  const { via, runners, chdir, command } = p;
  return { invocation: program === null ? null : { program, args, via, runners, chdir, command }, scripts: p.scripts, alternatives: p.alternatives };
}

/** Another reading of what the wrapper or runner `program` runs (`rest`): its scripts and invocations are checked too. */
function readAlso(p: Peel, program: string, rest: Word[], peeled: string[][], altChdir: string | null): void {
  const alt = unwrap({ ...p.command, words: rest });
  p.scripts.push(...alt.scripts);
  for (const inv of alt.invocation ? [alt.invocation, ...alt.alternatives] : alt.alternatives)
    p.alternatives.push({
      ...inv,
      via: [...p.via, program, ...inv.via],
      runners: [...p.runners, ...peeled, ...inv.runners],
      chdir: inv.chdir ?? altChdir,
      command: p.command,
    });
}

/** Peels wrappers off a simple command; see the module comment. */
export function unwrap(command: SimpleCommand): Unwrapped {
  const p: Peel = { command, via: [], runners: [], scripts: [], alternatives: [], chdir: null };
  let words = command.words;
  // every round drops at least the wrapper's own word, so this ends
  for (;;) {
    // `FOO=bar cmd`: assignments before the program
    let i = 0;
    while (i < words.length && ASSIGNMENT.test(words[i]!.raw)) i++;
    words = words.slice(i);
    if (!words.length) return ended(p, null);
    const program = programName(knownProgram(words[0]!) ?? shellVariable(words[0]!) ?? words[0]!.value);
    const args = words.slice(1);
    const next =
      shellStep(p, program, args) ?? launcherStep(p, program, args) ?? runnerStep(p, program, args) ?? fdAsFind(program, args) ?? wrapperStep(p, program, args);
    if (!Array.isArray(next)) return next;
    p.via.push(program);
    words = next;
  }
}

/** What the shell runs itself: `eval`, `trap`, `command -v`, a shell (`bash -c`, `capsh -- -c`); null for any other program. */
function shellStep(p: Peel, program: string, args: Word[]): Unwrapped | null {
  if (program === 'eval') {
    p.scripts.push(wordsFrom(args, 0));
    return ended(p, null);
  }
  // `trap 'cmd' EXIT`: the handler runs later in this shell; `trap -p`, `trap -l` print and set none
  if (program === 'trap') {
    const at = args.findIndex((w) => !w.value.startsWith('-'));
    const prints = args.slice(0, at < 0 ? args.length : at).some((w) => /^-[a-z]*[pl]/.test(w.value));
    const handler = prints ? undefined : args[at];
    if (handler) p.scripts.push(handler.value);
    return ended(p, null);
  }
  if (program === 'command' && args.some((w) => w.value === '-v' || w.value === '-V')) return ended(p, null);
  // `capsh -- -c 'cmd'`: what follows `--` is bash's arguments
  const shellArgs = program === 'capsh' ? args.slice(args.findIndex((w) => w.value === '--') + 1) : SHELLS.has(program) ? args : null;
  if (!shellArgs) return null;
  const body = shellScript(shellArgs);
  if (body !== null) p.scripts.push(body);
  return ended(p, program, args);
}

/**
 * `ssh host cmd`, `su -c`, `watch`, `tmux new 'cmd'`, `distrobox enter -- cmd`: the launchers'
 * shapes (launchers.ts); the words of the command the launcher runs, else the peel's end; a
 * launcher read as a plain wrapper after its verb goes on to wrapperStep.
 */
function launcherStep(p: Peel, program: string, args: Word[]): Word[] | Unwrapped | null {
  const launched = launch(program, args);
  if (!launched) return null;
  p.scripts.push(...launched.scripts);
  if (launched.kind === 'lines') return ended(p, launched.runsItself ? program : null, args);
  if (launched.kind === 'wraps') return wrapperStep(p, program, args, launched);
  if (launched.chdir) p.chdir = launched.chdir;
  return launched.words;
}

/** `npx rimraf dist`, `bundle exec rspec`: the words of the program a runner starts, as a wrapper's (runners.ts); null for no runner. */
function runnerStep(p: Peel, program: string, args: Word[]): Word[] | Unwrapped | null {
  if (!mayRun(program)) return null;
  const argv = args.map((w) => w.value);
  // `npx -c 'tsc && eslint .'`: a shell line, as `sh -c`
  const line = runnerShellLine(program, argv);
  if (line !== null) {
    p.scripts.push(line);
    return ended(p, program, args);
  }
  const started = runnerStart(program, argv);
  if (!started) return null;
  // `uv run --env-file .env python app.py`: the file the runner reads is checked as it reads it
  if (runnerReadsFiles(argv)) p.alternatives.push({ program, args, via: [...p.via], runners: [...p.runners], chdir: p.chdir, command: p.command });
  // `nvm exec myalias cmd`: a word that may be the runner's own (a version's alias) or the program
  if (started.other) readAlso(p, program, startedWords(args, started.other), [[program, ...argv]], p.chdir);
  p.runners.push([program, ...argv]);
  return startedWords(args, started);
}

/**
 * A plain wrapper (wrappers.ts), or a launcher's words after its verb: the words of the command
 * after its options, each option the table does not know read both ways; the wrapper itself when
 * it runs nothing, as is any program that is no wrapper.
 */
function wrapperStep(p: Peel, program: string, args: Word[], launched?: { own: Word[]; spec: WrapperSpec }): Word[] | Unwrapped {
  const spec = launched?.spec ?? (Object.hasOwn(WRAPPERS, program) ? WRAPPERS[program]! : null);
  if (!spec) return ended(p, program, args);
  // `dotenv -e .env.test -- jest`: the file the wrapper reads is checked as it reads it
  if (spec.readsFiles?.some((o) => args.some((w) => w.value === o || w.value.startsWith(`${o}=`))))
    p.alternatives.push({ program, args, via: [...p.via], runners: [...p.runners], chdir: p.chdir, command: p.command });
  const own = launched?.own ?? args;
  const rest = skipOptions(own, spec, false);
  // the reading where each option the table does not know takes the next word as its value
  const other = skipOptions(own, spec, true);
  if (other.index > rest.index && other.index < own.length)
    readAlso(p, program, own.slice(other.index), [], (spec.chdir && other.chdir(spec.chdir)) ?? p.chdir);
  if (spec.chdir && rest.chdir(spec.chdir)) p.chdir = rest.chdir(spec.chdir);
  const inner = own.slice(rest.index);
  // a wrapper with nothing to run is itself the program: `env` alone prints the environment
  return inner.every((w) => ASSIGNMENT.test(w.raw)) ? ended(p, program, args) : inner;
}

/** The words of what a runner starts: the word that names the program, as the program (`aws-cdk@2` is `cdk`, `-mtwine` is `twine`), then its arguments. */
function startedWords(args: Word[], started: RunnerStart): Word[] {
  return [{ ...args[started.at - 1]!, value: started.program }, ...args.slice(started.at)];
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
