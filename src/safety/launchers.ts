import { parallelLine, parallelScripts } from './parallel.ts';
import type { Word } from './shell.ts';
import { skipOptions, type WrapperSpec } from './wrappers.ts';

/**
 * The launchers whose command is not simply the words after their options, and what each runs:
 * command lines handed a shell (`ssh host cmd`, `su -c`, `watch`, `flock -c`, `tmux new 'cmd'`,
 * the keys `tmux send-keys` types, `nix-shell --run`), the command after a verb (`machinectl
 * shell`, `toolbox run`) or after a word of theirs (`distrobox enter -- cmd`, `gdb --args`,
 * `xterm -e`), the program an option names (`start-stop-daemon --exec`). command.ts's peel loop
 * asks `launch` before it peels a plain wrapper (wrappers.ts).
 */

export interface LauncherSpec extends WrapperSpec {
  /**
   * the verbs under which the program runs a command (`machinectl shell`, `toolbox run`): its first
   * word that is no option must be one, else the program runs none (`machinectl list`)
   */
  verbs?: string[];
  /** the command is what follows the first of these words (`distrobox enter box -- cmd`, `-e cmd`); without one there is none */
  commandAfter?: string[];
  /** options whose value is a command line the program hands a shell (`tmux -c 'cmd'`) */
  scriptOptions?: string[];
  /**
   * the verbs whose words, after the verb's own options (each verb with those that take a value),
   * are a command line the program hands a shell (`tmux new -d 'cmd'`); a `;` word starts the
   * next verb (`tmux new -d x \; new-window y`)
   */
  scriptVerbs?: Record<string, string[]>;
  /** the option the script verbs follow (`screen -S x -X stuff 'cmd\n'`); without it the program runs its command as other wrappers do */
  verbOption?: string;
  /** options whose value is the program run, with the words after `--` as its arguments (`start-stop-daemon --exec /bin/x -- args`); the first listed that is given wins */
  programOptions?: string[];
}

/** The words after which `distrobox enter` runs the rest as a command. */
const DISTROBOX_COMMAND = ['--', '-e', '--exec'];

/** tmux's commands that hand a shell a command line (their short names too), each with its options that take a value; `send-keys` types one into a pane's shell. */
const TMUX_NEW_SESSION = ['-c', '-e', '-F', '-f', '-n', '-s', '-t', '-x', '-y'];
const TMUX_NEW_WINDOW = ['-c', '-e', '-F', '-n', '-t'];
const TMUX_SPLIT_WINDOW = ['-c', '-e', '-F', '-l', '-p', '-t'];
const TMUX_RESPAWN = ['-c', '-e', '-t'];
const TMUX_RUN_SHELL = ['-c', '-d', '-t'];
const TMUX_POPUP = ['-b', '-c', '-d', '-e', '-h', '-s', '-S', '-t', '-T', '-w', '-x', '-y'];
const TMUX_SEND_KEYS = ['-N', '-t'];
const TMUX_SCRIPT_VERBS: Record<string, string[]> = {
  'new-session': TMUX_NEW_SESSION,
  new: TMUX_NEW_SESSION,
  'new-window': TMUX_NEW_WINDOW,
  neww: TMUX_NEW_WINDOW,
  'split-window': TMUX_SPLIT_WINDOW,
  splitw: TMUX_SPLIT_WINDOW,
  'respawn-pane': TMUX_RESPAWN,
  respawnp: TMUX_RESPAWN,
  'respawn-window': TMUX_RESPAWN,
  respawnw: TMUX_RESPAWN,
  'run-shell': TMUX_RUN_SHELL,
  run: TMUX_RUN_SHELL,
  'display-popup': TMUX_POPUP,
  popup: TMUX_POPUP,
  'if-shell': ['-t'],
  if: ['-t'],
  'pipe-pane': ['-t'],
  pipep: ['-t'],
  'send-keys': TMUX_SEND_KEYS,
  send: TMUX_SEND_KEYS,
};

/** The key names that type Enter (`tmux send-keys 'cmd' Enter`): a line typed into a shell ends there. */
const ENTER_KEYS = new Set(['Enter', 'KPEnter', 'C-m', 'C-j']);

export const LAUNCHERS: Record<string, LauncherSpec> = {
  // `machinectl shell [opts] [[user@]machine [cmd …]]`: the machine, then the command run there
  machinectl: { valued: ['-E', '--setenv', '--uid', '-M', '--machine', '-H', '--host', '-p', '--property'], verbs: ['shell'], positionals: 1 },
  // `toolbox run [-c box] cmd`: the command run in the container
  toolbox: { valued: ['-c', '--container', '-d', '--distro', '-r', '--release', '--preserve-fds', '--log-level'], verbs: ['run'] },
  // `distrobox enter [box] -- cmd`, `-e cmd`, `--exec cmd` (also `distrobox-enter`): the command after them
  distrobox: { valued: ['-n', '--name', '-a', '--additional-flags'], verbs: ['enter'], commandAfter: DISTROBOX_COMMAND },
  'distrobox-enter': { valued: ['-n', '--name', '-a', '--additional-flags'], commandAfter: DISTROBOX_COMMAND },
  // debuggers that start the program after a word of theirs
  gdb: { valued: ['-ex', '-x', '-p', '-d', '-s', '-e', '-se', '-c', '-iex', '-ix', '--pid', '--core'], commandAfter: ['--args'] },
  ddd: { valued: [], commandAfter: ['--args'] },
  lldb: { valued: ['-o', '-s', '-O', '-S', '-k', '-K', '-p', '-n', '-a', '-c', '--one-line', '--source', '--core'], commandAfter: ['--'] },
  perf: {
    valued: [
      '-e',
      '--event',
      '-p',
      '--pid',
      '-t',
      '--tid',
      '-r',
      '--repeat',
      '-o',
      '--output',
      '-x',
      '--field-separator',
      '-C',
      '--cpu',
      '-G',
      '--cgroup',
      '-I',
      '--interval-print',
      '-F',
      '--freq',
      '-c',
      '--count',
      '-m',
      '--mmap-pages',
      '-u',
      '--uid',
      '-D',
      '--delay',
      '-M',
      '--metrics',
      '-j',
      '--call-graph',
      '--filter',
      '--control',
    ],
    verbs: ['stat', 'record', 'trace', 'ftrace'],
  },
  // `start-stop-daemon --start --exec /usr/bin/node -- app.js`: the program of --startas (else --exec), its arguments after `--`
  'start-stop-daemon': {
    valued: [
      '-p',
      '--pidfile',
      '-x',
      '--exec',
      '-n',
      '--name',
      '-u',
      '--user',
      '-g',
      '--group',
      '-s',
      '--signal',
      '-R',
      '--retry',
      '-a',
      '--startas',
      '-r',
      '--chroot',
      '-d',
      '--chdir',
      '-N',
      '--nicelevel',
      '-P',
      '--procsched',
      '-I',
      '--iosched',
      '-k',
      '--umask',
      '-c',
      '--chuid',
      '-O',
      '--output',
      '--notify-timeout',
    ],
    chdir: ['-d', '--chdir'],
    programOptions: ['-a', '--startas', '-x', '--exec'],
  },
  // terminal multiplexers and terminals: the command a session, window or pane runs, the keys typed into one
  tmux: { valued: ['-L', '-S', '-f', '-T', '-c'], scriptOptions: ['-c'], scriptVerbs: TMUX_SCRIPT_VERBS },
  // `screen -dm cmd` runs its command; `screen -X stuff 'text'` types into a session's shell, `-X screen cmd` opens a window running one
  screen: { valued: ['-c', '-e', '-h', '-p', '-S', '-s', '-t', '-T', '-Logfile'], verbOption: '-X', scriptVerbs: { stuff: [], screen: ['-t'] } },
  xterm: { valued: [], commandAfter: ['-e'] },
  konsole: { valued: [], commandAfter: ['-e'] },
  alacritty: { valued: [], commandAfter: ['-e', '--command'] },
  'gnome-terminal': { valued: [], commandAfter: ['--', '-x', '--execute'] },
  // version managers and dev shells running a command in their environment
  'nix-shell': { valued: [], scriptOptions: ['--run', '--command'] },
  nix: { valued: [], verbs: ['develop', 'shell'], commandAfter: ['-c', '--command'] },
  direnv: { valued: [], verbs: ['exec'], positionals: 1 },
  mise: { valued: [], verbs: ['exec', 'x'], commandAfter: ['--'] },
  asdf: { valued: [], verbs: ['exec'] },
};

/** What a launcher does with its words (launch). */
export type LaunchStep =
  /** it runs no command to peel further: these lines go to a shell; `runsItself`: the launcher is the invocation the rules see */
  | { kind: 'lines'; scripts: string[]; runsItself: boolean }
  /** it runs this command (peel it further), in this folder when one is given */
  | { kind: 'runs'; words: Word[]; chdir: string | null }
  /** the words after its verb, read as a plain wrapper's with this spec */
  | { kind: 'wraps'; own: Word[]; spec: WrapperSpec };

function lines(scripts: string[], runsItself: boolean): LaunchStep {
  return { kind: 'lines', scripts, runsItself };
}

/** What the launcher `program` runs with `args` (see LaunchStep), or null where it is no launcher of this module (a plain wrapper, or neither). */
export function launch(program: string, args: Word[]): LaunchStep | null {
  const own = ownShape(program, args);
  if (own) return own;
  const spec = Object.hasOwn(LAUNCHERS, program) ? LAUNCHERS[program]! : null;
  return spec && tableShape(args, spec);
}

/** The launchers read by a shape of their own, not by LAUNCHERS's fields. */
function ownShape(program: string, args: Word[]): LaunchStep | null {
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
      const at = args.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(w.raw));
      return lines(at >= 0 ? [wordsFrom(args, at)] : [], false);
    }
    case 'ssh': {
      const rest = skipOptions(args, {
        valued: ['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B'],
        positionals: 1,
      });
      return lines(rest.index < args.length ? [wordsFrom(args, rest.index)] : [], true);
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
  }
  return null;
}

/** A launcher of the LAUNCHERS table: its script options and verbs, the program an option names, its verb, the word before its command. */
function tableShape(args: Word[], spec: LauncherSpec): LaunchStep {
  // `tmux -c 'cmd'`, `tmux new -d 'cmd'`, `nix-shell --run 'cmd'`: command lines the program hands a shell
  if (spec.scriptOptions || (spec.scriptVerbs && (!spec.verbOption || args.some((w) => w.value === spec.verbOption))))
    return lines(launcherScripts(args, spec), true);
  // `start-stop-daemon --start --exec /bin/x -- args`: the program an option names, its arguments after `--`
  if (spec.programOptions) {
    const run = namedProgram(args, spec);
    return run ? { kind: 'runs', words: run, chdir: skipOptions(args, spec).chdir(spec.chdir ?? []) } : lines([], true);
  }
  // `machinectl shell …`, `toolbox run …`: the words after the verb; another verb runs no command
  const verb = spec.verbs ? skipOptions(args, { valued: spec.valued }).index : -1;
  if (spec.verbs && !spec.verbs.includes(args[verb]?.value ?? '')) return lines([], true);
  // `distrobox enter box -- cmd`, `-e cmd`: the command after such a word, none without it
  if (spec.commandAfter) {
    const dashDash = args.findIndex((w) => spec.commandAfter!.includes(w.value));
    if (dashDash < 0 || dashDash === args.length - 1) return lines([], true);
    return { kind: 'runs', words: args.slice(dashDash + 1), chdir: null };
  }
  return { kind: 'wraps', own: args.slice(verb + 1), spec };
}

/**
 * The command lines a launcher hands a shell: the values of its script options (`tmux -c 'cmd'`),
 * and the words after each script verb's own options (`tmux new -d 'cmd' \; splitw 'cmd2'`, a
 * `;` word starting the next verb; after the spec's verbOption for screen); an Enter typed by
 * `send-keys`, or a newline written in the text, ends a line.
 */
function launcherScripts(args: Word[], spec: LauncherSpec): string[] {
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
function namedProgram(args: Word[], spec: LauncherSpec): Word[] | null {
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
