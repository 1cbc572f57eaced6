import { argvLine } from './argv-line.ts';
import { staticOutput } from './expand.ts';
import { makefileAt, makefileRecipes } from './makefile-recipes.ts';
import { parallelLine, parallelScripts } from './parallel.ts';
import type { Word } from './shell.ts';
import { programIndex } from './syntax.ts';
import { tclCommandLines } from './tcl-script.ts';
import { skipOptions, WRAPPERS, type WrapperSpec } from './wrappers.ts';

/**
 * The launchers read by code of their own rather than by the fields of launchers.ts's table:
 * command lines handed a shell (`ssh host cmd`, `su -c`, `flock -c`, `script -c`, `watch`,
 * `watchexec`, `entr -s`, `sudo -s`, `nodemon --exec`, `cross-env-shell`, `parallel`, `env -S`),
 * the screen commands of `screen -X eval`, zellij's actions, the commands an `expect -c` script
 * spawns, and the package `nix run` starts.
 */

/** What a launcher does with its words (launch); `scripts`: the command lines it hands a shell besides. */
export type LaunchStep =
  /** it runs no command to peel further; `runsItself`: the launcher is the invocation the rules see */
  | { kind: 'lines'; scripts: string[]; runsItself: boolean }
  /** it runs this command (peel it further), in this folder when one is given */
  | { kind: 'runs'; words: Word[]; chdir: string | null; scripts: string[] }
  /** the words after its verb, read as a plain wrapper's with this spec */
  | { kind: 'wraps'; own: Word[]; spec: WrapperSpec; scripts: string[] };

/** A step that runs no command to peel further. */
export function lines(scripts: string[], runsItself: boolean): LaunchStep {
  return { kind: 'lines', scripts, runsItself };
}

/** What a launcher of this module runs with `args` (see LaunchStep), else null. */
export function shapedLaunch(program: string, args: Word[]): LaunchStep | null {
  switch (program) {
    // `flock lockfile -c 'cmd'`, `script -qc 'cmd'`: a command string run by a shell
    case 'flock':
    case 'script': {
      const c = args.findIndex((w) => w.value === '-c' || w.value === '--command' || (/^-[a-z]+$/.test(w.value) && w.value.endsWith('c')));
      return c >= 0 && args[c + 1] ? lines([args[c + 1]!.value], true) : null;
    }
    case 'env': {
      const split = splitString(args);
      return split === null ? null : lines([split], false);
    }
    case 'watch': {
      const rest = skipOptions(args, { valued: ['-n', '-d', '--interval', '--differences', '-q', '--equexit'] });
      return lines(rest.index < args.length ? [wordsFrom(args, rest.index)] : [], false);
    }
    // `cross-env-shell NODE_ENV=test "tsc && vitest"`: the words after the assignments, run by a shell
    case 'cross-env-shell': {
      const at = programIndex(args);
      return lines(at >= 0 ? [wordsFrom(args, at)] : [], false);
    }
    case 'ssh': {
      const rest = skipOptions(args, {
        valued: ['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B'],
        positionals: 1,
      });
      if (rest.index >= args.length) return lines([], true);
      // `ssh dokku@host apps:destroy x`: Dokku's login hands the words to `dokku`, as its docs use it
      const l = args.findIndex((w) => w.value === '-l');
      const user = args[rest.index - 1]?.value.match(/^([^@\s]+)@/)?.[1] ?? (l >= 0 ? args[l + 1]?.value : undefined);
      return lines([`${user === 'dokku' ? 'dokku ' : ''}${wordsFrom(args, rest.index)}`], true);
    }
    case 'su':
    case 'runuser':
    case 'sg': {
      const scripts: string[] = [];
      const c = args.findIndex((w) => w.value === '-c' || w.value === '--command');
      if (c >= 0 && args[c + 1]) scripts.push(args[c + 1]!.value);
      const inline = args.find((w) => w.value.startsWith('--command='));
      if (inline) scripts.push(inline.value.slice('--command='.length));
      // `runuser -u user -- cmd` runs the command itself, as a wrapper does
      return program !== 'runuser' || c >= 0 || inline ? lines(scripts, true) : null;
    }
    // `parallel CMD ::: a b`: CMD run by a shell for each argument (what it reads on stdin, evaluate.ts reads)
    case 'parallel':
      return lines(parallelScripts(parallelLine(args), null), true);
    // `watchexec -e ts -- npm test`, `watchexec 'npm test'`: the words after its options, one line for a shell on each change;
    // with no shell (`-n`, `--shell=none`) an argv run as it is
    case 'watchexec': {
      const read = [skipOptions(args, WATCHEXEC), skipOptions(args, WATCHEXEC, true)];
      const line = (at: number) => (noShell(args.slice(0, at)) ? argvLine(args.slice(at).map((w) => w.value)) : wordsFrom(args, at));
      return lines([...new Set(read.filter((r) => r.index < args.length).map((r) => line(r.index)))], true);
    }
    // `entr -s 'make test'`: its first operand, run by $SHELL on each change
    case 'entr': {
      const at = args.findIndex((w) => !/^-[a-z]+$/.test(w.value));
      const shell = args.slice(0, at < 0 ? args.length : at).some((w) => w.value.includes('s'));
      return shell ? lines(at >= 0 ? [args[at]!.value] : [], true) : null;
    }
    // `sudo -s cmd`, `sudo -i cmd`: the words after its options, run by the target user's shell as `-c` (and peeled as any sudo's)
    case 'sudo': {
      // `-iu root`: a cluster ending in an option that takes a value, read both ways as unknown options are
      const read = [skipOptions(args, WRAPPERS.sudo!), skipOptions(args, WRAPPERS.sudo!, true)];
      const shell = args.slice(0, read[1]!.index).some((w) => w.value === '--shell' || w.value === '--login' || sudoShellFlag(w.value));
      const scripts = [...new Set(read.filter((r) => r.index < args.length).map((r) => wordsFrom(args, r.index)))];
      return shell && scripts.length ? { kind: 'wraps', own: args, spec: WRAPPERS.sudo!, scripts } : null;
    }
    // `expect -c 'spawn cmd'`: the commands its Tcl starts
    case 'expect':
      return lines(expectSpawns(args), true);
    case 'nix':
      return nixRun(args);
    // `screen -X eval 'cmd' …`: each argument one of screen's commands, read as `screen -X cmd` is
    case 'screen':
    case 'byobu-screen': {
      const x = args.findIndex((w) => w.value === '-X');
      return x >= 0 && args[x + 1]?.value === 'eval'
        ? lines(
            args.slice(x + 2).map((w) => `${program} -X ${w.value}`),
            true,
          )
        : null;
    }
    case 'zellij':
      return zellijAction(args);
    case 'nodemon':
      return nodemonLine(args);
    // `make -f <(echo 'x: ; rm -rf ~')`: the recipes of a Makefile the line writes, each handed to a shell
    case 'make':
    case 'gmake':
    case 'bmake': {
      const written = makefileAt(
        program,
        args.map((w) => w.value),
      ).map((i) => args[i]!);
      const texts = written.map((w) => (w.raw.startsWith('<(') && w.subs.length === 1 ? staticOutput(w.subs[0]!) : null));
      const recipes = texts.filter((t) => t !== null).map((t) => makefileRecipes(t));
      return recipes.length ? lines(recipes, true) : null;
    }
  }
  return null;
}

/** nix's options that take one value, and those that take two (`--option name value`). */
const NIX_OPTIONS: WrapperSpec = {
  valued: [
    '--extra-experimental-features',
    '--experimental-features',
    '-I',
    '--include',
    '-f',
    '--file',
    '--expr',
    '--inputs-from',
    '--update-input',
    '--profile',
    '--store',
    '--eval-store',
    '--max-jobs',
    '-j',
    '--cores',
  ],
  pairs: ['--option', '--override-input', '--arg', '--argstr', '--override-flake', '--redirect'],
};

/**
 * `nix run nixpkgs#bash -- -c 'cmd'`: the package's program (the attribute's last name, which
 * nixpkgs names the main program after) with the words after the package; a flake's default app
 * (`nix run .`, `nix run github:o/r`) names none. Other verbs are LAUNCHERS's (`nix shell … -c`).
 */
function nixRun(args: Word[]): LaunchStep | null {
  // an option the table does not know is read both ways, as for a launcher's verb (verbAt)
  const verb = [false, true].map((unknownTakesValue) => skipOptions(args, NIX_OPTIONS, unknownTakesValue).index).find((at) => args[at]?.value === 'run');
  if (verb === undefined) return null;
  const own = args.slice(verb + 1);
  const at = skipOptions(own, NIX_OPTIONS).index;
  const installable = own[at]?.value ?? '';
  const hash = installable.indexOf('#');
  const attr = hash < 0 ? '' : installable.slice(hash + 1).replace(/\^.*$/, '');
  const program = attr.slice(attr.lastIndexOf('.') + 1);
  if (!program) return lines([], true);
  // its arguments: the words after the installable, those after `--` too
  const rest = own.slice(at + 1);
  const dashDash = rest.findIndex((w) => w.value === '--');
  if (dashDash >= 0) rest.splice(dashDash, 1);
  return { kind: 'runs', words: [{ ...own[at]!, value: program }, ...rest], chdir: null, scripts: [] };
}

/** The options of the pane `zellij run` and `zellij action new-pane` open that take a value. */
export const ZELLIJ_PANE: WrapperSpec = { valued: ['--cwd', '-d', '--direction', '-n', '--name', '--width', '--height', '-x', '-y'], chdir: ['--cwd'] };

/**
 * `zellij action new-pane [options] [--] cmd` runs the command in a new pane; `zellij action
 * write-chars 'text'` types into the focused one (read as a line, as tmux's send-keys); other
 * actions run none. Null for zellij's other verbs (`zellij run` is launchers.ts's).
 */
function zellijAction(args: Word[]): LaunchStep | null {
  const verb = [false, true]
    .map((unknownTakesValue) => skipOptions(args, { valued: [] }, unknownTakesValue).index)
    .find((at) => args[at]?.value === 'action' || args[at]?.value === 'ac');
  if (verb === undefined) return null;
  const rest = args.slice(verb + 2);
  const action = args[verb + 1]?.value;
  if (action === 'write-chars') return lines(rest.length ? [wordsFrom(rest, 0)] : [], true);
  if (action === 'new-pane' || action === 'np') return { kind: 'wraps', own: rest, spec: ZELLIJ_PANE, scripts: [] };
  return lines([], true);
}

/** nodemon's options that take a value. */
const NODEMON_VALUED = ['-w', '--watch', '-e', '--ext', '-i', '--ignore', '-d', '--delay', '--signal', '--config'];

/** nodemon's own options that take no value: not handed on to the exec line. */
const NODEMON_FLAGS = new Set([
  '-q',
  '--quiet',
  '-V',
  '--verbose',
  '-L',
  '--legacy-watch',
  '-C',
  '--on-change-only',
  '-I',
  '--no-stdin',
  '--spawn',
  '--no-colors',
  '--no-update-notifier',
  '--exitcrash',
  '--dump',
]);

/**
 * `nodemon --exec 'cmd' [script] [args]`: the line a shell runs on each change — the exec line,
 * the options nodemon does not know (it hands them on: `nodemon --exec rm -rf ~` runs `rm -rf
 * ~`), then the script and every word after it; without `--exec` nodemon runs node (or what its
 * config names) on the script.
 */
function nodemonLine(args: Word[]): LaunchStep {
  const x = args.findIndex((w) => w.value === '--exec' || w.value === '-x');
  const inline = args.find((w) => w.value.startsWith('--exec='));
  const exec = inline ? inline.value.slice('--exec='.length) : args[x + 1]?.value;
  if (exec === undefined || (x < 0 && !inline)) return lines([], true);
  const handed: string[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--' || !v.startsWith('-') || v === '-') {
      operands.push(...args.slice(v === '--' ? i + 1 : i).map((w) => w.value));
      break;
    }
    if (i === x || NODEMON_VALUED.includes(v)) i++;
    else if (!NODEMON_FLAGS.has(v) && !/^--(exec|watch|ext|ignore|delay|signal|config)=/.test(v)) handed.push(v);
  }
  return lines([[exec, ...handed, ...operands].join(' ')], true);
}

/** Whether watchexec's options ask for no shell: `-n` (also in a cluster), `--shell=none`, `--shell none`, `--no-shell`. */
function noShell(options: Word[]): boolean {
  return options.some(
    (w, i) =>
      /^-[A-Za-z]*n[A-Za-z]*$/.test(w.value) ||
      w.value === '--shell=none' ||
      w.value === '--no-shell' ||
      (w.value === '--shell' && options[i + 1]?.value === 'none'),
  );
}

/** watchexec's options that take a value. */
const WATCHEXEC: WrapperSpec = {
  valued: [
    '-w',
    '--watch',
    '-W',
    '--watch-non-recursive',
    '-F',
    '--watch-file',
    '-e',
    '--exts',
    '-f',
    '--filter',
    '--filter-file',
    '-j',
    '--filter-prog',
    '-i',
    '--ignore',
    '--ignore-file',
    '-s',
    '--signal',
    '--stop-signal',
    '--stop-timeout',
    '-d',
    '--debounce',
    '--delay-run',
    '--shell',
    '-E',
    '--env',
    '--workdir',
    '--project-origin',
    '-o',
    '--on-busy-update',
    '--color',
    '--log-file',
    '--emit-events-to',
    '--fs-events',
    '--socket',
    '--timeout',
    '--wrap-process',
    '--map-signal',
  ],
};

/** Whether a cluster of sudo's short options (`-s`, `-iu`) asks for the shell, before any letter that takes a value. */
function sudoShellFlag(word: string): boolean {
  if (!/^-[A-Za-z]+$/.test(word)) return false;
  for (const c of word.slice(1)) {
    if (c === 's' || c === 'i') return true;
    if ('ughprtTUCD'.includes(c)) return false;
  }
  return false;
}

/** expect's options that take a value (`-c cmds`, `-D n`, `-f file`, `-b file`), also last in a cluster (`-dc 'cmds'`) or joined (`-ccmds`). */
const EXPECT_VALUED = 'cDfb';

/**
 * What expect's options say: the scripts of its `-c` options, and whether it reads a script on
 * stdin (no script file and no `-c`, or the file `-` or `/dev/stdin`: `expect <<< 'spawn …'`).
 */
function expectOptions(args: Word[]): { scripts: string[]; readsStdin: boolean } {
  const scripts: string[] = [];
  let file: string | null = null;
  for (let i = 0; i < args.length && file === null; i++) {
    const v = args[i]!.value;
    if (v === '--' || !v.startsWith('-') || v === '-') {
      file = v === '--' ? (args[i + 1]?.value ?? '') : v;
      break;
    }
    for (let k = 1; k < v.length; k++) {
      if (!EXPECT_VALUED.includes(v[k]!)) continue;
      const value = k + 1 < v.length ? v.slice(k + 1) : (args[++i]?.value ?? '');
      if (v[k] === 'c') scripts.push(value);
      else if (v[k] === 'f' || v[k] === 'b') file = value;
      break;
    }
  }
  return { scripts, readsStdin: file === '-' || file === '/dev/stdin' || (file === null || file === '' ? !scripts.length : false) };
}

/** The commands `expect -c '<tcl>'` starts (tcl-script.ts reads them). */
function expectSpawns(args: Word[]): string[] {
  return expectOptions(args).scripts.flatMap((script) => tclCommandLines(script));
}

/**
 * The commands a Tcl script read on stdin starts (`expect <<< 'spawn …'`, `echo 'exec …' |
 * tclsh`): `stdin` is the text the command line shows it reads (a here-string, a heredoc, what a
 * static stage before writes), null when it shows none.
 */
export function stdinTclLines(program: string, args: Word[], stdin: string | null): string[] {
  if (stdin === null) return [];
  const reads =
    program === 'expect'
      ? expectOptions(args).readsStdin
      : TCL_SHELLS.has(program) && (args.length === 0 || args[0]!.value === '-' || args[0]!.value === '/dev/stdin');
  return reads ? tclCommandLines(stdin) : [];
}

/** Tcl's own shells: a script on stdin when no file is named. */
const TCL_SHELLS = new Set(['tclsh', 'wish', 'jimsh']);

/** The words from position `from` on, as one command line (what a wrapper hands a shell). */
export function wordsFrom(args: Word[], from: number): string {
  return args
    .slice(from)
    .map((w) => w.value)
    .join(' ');
}

/** `env -S "cmd args"` / `--split-string=...`: the command string, else null. */
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
