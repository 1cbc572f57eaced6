import { argvLine } from './argv-line.ts';
import { execLines } from './launcher-exec-lines.ts';
import { fleetLaunch } from './launcher-fleets.ts';
import { passGit } from './launcher-pass.ts';
import { type LaunchStep, lines, shapedLaunch, ZELLIJ_PANE } from './launcher-shapes.ts';
import { formatCommands, type NestedVerb, nestedLines, TMUX_NESTED, TMUX_SCRIPT_VERBS } from './launcher-tmux.ts';
import { optionCommands } from './option-commands.ts';
import type { Word } from './shell.ts';
import { shellCallbacks } from './shell-callbacks.ts';
import { toolEscapes } from './tool-escapes.ts';
import { skipOptions, type WrapperSpec } from './wrappers.ts';

/**
 * The launchers whose command is not simply the words after their options, and what each runs:
 * command lines handed a shell (`tmux new 'cmd'`, the keys `tmux send-keys` types, `screen -X
 * stuff`, `nix-shell --run`), the command after a verb (`machinectl shell`,
 * `toolbox run`, `conda run`, `volta run`, `zellij run`) or after a word of theirs (`distrobox enter -- cmd`,
 * `gdb --args`, `xterm -e`, `guix shell -- cmd`), the program an option names
 * (`start-stop-daemon --exec`); those read by code of their own (`ssh`, `su -c`, `watch`, `sudo
 * -s`, `nix run` …) are launcher-shapes.ts's. command.ts's peel loop asks `launch` before it peels
 * a plain wrapper (wrappers.ts).
 */

export interface LauncherSpec extends WrapperSpec {
  /**
   * the verbs under which the program runs a command (`machinectl shell`, `toolbox run`): its first
   * word that is no option must be one, else the program runs none (`machinectl list`)
   */
  verbs?: string[];
  /** the command is what follows the first of these words (`distrobox enter box -- cmd`, `-e cmd`); without one there is none */
  commandAfter?: string[];
  /**
   * without a commandAfter word, the words after the options (each of them one of `valued`, with
   * its value) are the command, which the program hands its shell (`wsl rm -rf ~`, `wsl -d Ubuntu
   * ls`); another option first (`wsl --unregister Ubuntu`: its own verb) runs none
   */
  bareCommand?: boolean;
  /** options whose value is a command line the program hands a shell (`tmux -c 'cmd'`) */
  scriptOptions?: string[];
  /**
   * the verbs whose words, after the verb's own options (each verb with those that take a value),
   * are a command line the program hands a shell (`tmux new -d 'cmd'`); a `;` word starts the
   * next verb (`tmux new -d x \; new-window y`)
   */
  scriptVerbs?: Record<string, string[]>;
  /**
   * the option that makes the words after all options a script verb (`screen -S x -X stuff
   * 'cmd\n'`, `screen -X -S x exec cmd`); without it the program runs its command as other wrappers do
   */
  verbOption?: string;
  /** the script verbs whose words are an argv the program runs as it is, no shell between (`screen -X exec sh -c 'cmd'`) */
  argvVerbs?: string[];
  /** options whose value is the program run, with the words after `--` as its arguments (`start-stop-daemon --exec /bin/x -- args`); the first listed that is given wins */
  programOptions?: string[];
  /**
   * the program's own commands its verbs hold (`tmux if-shell 'test -f x' 'run-shell …'`, `tmux
   * set-hook -g session-created 'run …'`), each read as a command line of the program's (`tmux run …`)
   */
  nestedCommands?: { program: string; verbs: Record<string, NestedVerb> };
  /** the program runs the shell command of a format's `#(cmd)` in any of its words (`tmux display -p '#(cmd)'`, a status line's) */
  formatCommands?: boolean;
}

/** The words after which `distrobox enter` runs the rest as a command. */
const DISTROBOX_COMMAND = ['--', '-e', '--exec'];

/** tmux's reading; `byobu` is tmux's or screen's front end, read as tmux's unless named `byobu-screen`. */
const TMUX: LauncherSpec = {
  valued: ['-L', '-S', '-f', '-T', '-c'],
  scriptOptions: ['-c'],
  scriptVerbs: TMUX_SCRIPT_VERBS,
  nestedCommands: { program: 'tmux', verbs: TMUX_NESTED },
  formatCommands: true,
};
/** screen's reading: `-X exec [fdpat] cmd` runs a command in the session's window, as `-X screen cmd` opens one running it. */
const SCREEN: LauncherSpec = {
  valued: ['-c', '-e', '-h', '-p', '-S', '-s', '-t', '-T', '-Logfile'],
  verbOption: '-X',
  scriptVerbs: { stuff: [], screen: ['-t'], exec: [] },
  argvVerbs: ['screen', 'exec'],
};
/** mise (once `rtx`): `mise exec|x [tool@version…] -- cmd`, `-c 'line'`. */
const MISE: LauncherSpec = {
  valued: ['-C', '--cd', '-j', '--jobs', '-E', '--env'],
  verbs: ['exec', 'x'],
  commandAfter: ['--'],
  scriptOptions: ['-c', '--command'],
};
/** conda's `run` and its kin (mamba, micromamba): the environment by name or prefix, the folder, then the command. */
const CONDA_RUN: LauncherSpec = {
  valued: ['-n', '--name', '-p', '--prefix', '--cwd', '-r', '--root-prefix', '-a', '--attach', '-e', '--env', '--label', '--rc-file'],
  verbs: ['run'],
  chdir: ['--cwd'],
};
/** WSL's command runner: the distribution and user by option, the command after `-e`/`--exec` or `--`, or the words after its options (its own verbs, `--unregister`, are the system family's). */
const WSL: LauncherSpec = {
  valued: ['-d', '--distribution', '-u', '--user', '--cd', '--shell-type'],
  commandAfter: ['-e', '--exec', '--'],
  bareCommand: true,
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
  // `rr record [opts] cmd`: the program recorded runs
  rr: { valued: ['-o', '--output-trace-dir', '-b', '--bind-to-cpu', '-c', '--num-cpu-ticks', '-e', '--num-events', '--env'], verbs: ['record'] },
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
  tmux: TMUX,
  byobu: TMUX,
  'byobu-tmux': TMUX,
  // `screen -dm cmd` runs its command; `screen -X stuff 'text'` types into a session's shell, `-X screen cmd` opens a window running one
  screen: SCREEN,
  'byobu-screen': SCREEN,
  // `zellij run -- cmd`, `zellij r cmd`: a pane running the command (its global options, such as `-s session`, before the verb)
  zellij: { ...ZELLIJ_PANE, verbs: ['run', 'r'] },
  xterm: { valued: [], commandAfter: ['-e'] },
  // `wezterm start -- cmd`, `wezterm cli spawn -- cmd`: the command after `--`
  wezterm: { valued: [], commandAfter: ['--'] },
  // kitty's remote control (`kitty @ launch [opts] cmd`, also `kitten @`), read as program `kitty @` (launcherStep)
  'kitty @': {
    valued: [
      '--to',
      '--password',
      '--password-file',
      '--password-env',
      '-m',
      '--match',
      '--type',
      '--title',
      '--window-title',
      '--tab-title',
      '--cwd',
      '--env',
      '--var',
      '--location',
      '--next-to',
      '--os-window-title',
      '--os-window-name',
      '--os-window-class',
      '--spacing',
      '--color',
      '--watcher',
      '--marker',
      '--logo',
      '--stdin-source',
    ],
    verbs: ['launch'],
  },
  konsole: { valued: [], commandAfter: ['-e'] },
  alacritty: { valued: [], commandAfter: ['-e', '--command'] },
  'gnome-terminal': { valued: [], commandAfter: ['--', '-x', '--execute'] },
  // version managers and dev shells running a command in their environment
  'nix-shell': { valued: [], scriptOptions: ['--run', '--command'] },
  nix: { valued: [], verbs: ['develop', 'shell'], commandAfter: ['-c', '--command'] },
  direnv: { valued: [], verbs: ['exec'], positionals: 1 },
  mise: MISE,
  rtx: MISE,
  asdf: { valued: [], verbs: ['exec'] },
  // environment runners: the command run in a project's or a named environment
  conda: CONDA_RUN,
  mamba: CONDA_RUN,
  micromamba: CONDA_RUN,
  pixi: {
    valued: ['--manifest-path', '-e', '--environment', '-s', '--spec', '-c', '--channel', '-p', '--platform', '--with', '--color', '--auth-file'],
    verbs: ['run', 'r', 'exec', 'x'],
  },
  rye: { valued: ['--pyproject'], verbs: ['run'] },
  devbox: { valued: ['-c', '--config', '-e', '--env', '--env-file'], verbs: ['run'] },
  hermit: { valued: [], verbs: ['exec'] },
  volta: { valued: ['--node', '--npm', '--yarn', '--pnpm', '--env'], verbs: ['run'] },
  fnm: { valued: ['--using', '--node-dist-mirror', '--fnm-dir', '--log-level', '--arch', '--version-file-strategy', '--shell'], verbs: ['exec'] },
  // `guix shell pkgs -- cmd`, `flox activate -- cmd`, `tox exec -e env -- cmd`: the command after `--`
  guix: { valued: ['-m', '--manifest', '-f', '--file', '-r', '--root', '-L', '--load-path'], verbs: ['shell', 'environment'], commandAfter: ['--'] },
  flox: { valued: ['-d', '--dir', '-r', '--remote', '-m', '--mode'], verbs: ['activate'], commandAfter: ['--'] },
  tox: { valued: ['-e', '-c', '--conf', '--root', '--workdir', '-x', '--override'], verbs: ['exec', 'e'], commandAfter: ['--'] },
  // secret managers that start a command with the secrets in its environment: `doppler run -- cmd`, `aws-vault exec prof -- cmd`
  doppler: { valued: ['-p', '--project', '-c', '--config', '--token', '--scope'], verbs: ['run'], commandAfter: ['--'], scriptOptions: ['--command'] },
  infisical: {
    valued: ['--env', '--projectId', '--path', '--token', '--domain', '--tags'],
    verbs: ['run'],
    commandAfter: ['--'],
    scriptOptions: ['--command'],
  },
  dotenvx: { valued: ['-f', '--env-file', '-e', '--env', '--convention', '--ops-off'], verbs: ['run'], commandAfter: ['--'] },
  'aws-vault': { valued: ['-d', '--duration', '-t', '--mfa-token', '--region', '--backend'], verbs: ['exec'], commandAfter: ['--'] },
  // a SAML login's AWS keys: `saml2aws exec --exec-profile prod -- cmd`
  saml2aws: { valued: ['-a', '--idp-account', '--exec-profile', '--credentials-file', '--role', '--region'], verbs: ['exec'], commandAfter: ['--'] },
  // pueue's queue: `pueue add [-- ] cmd` runs the command later, in the background
  pueue: { valued: ['-w', '--working-directory', '-d', '--delay', '-g', '--group', '-a', '--after', '-l', '--label', '-o', '--priority'], verbs: ['add'] },
  // a hosting platform's environment: `railway run psql "$DATABASE_URL" -c …` runs the command with the service's variables
  railway: { valued: ['-s', '--service', '-e', '--environment', '-p', '--project'], verbs: ['run'] },
  // WSL from Windows (or WSL itself): `wsl -e CMD`, `wsl -d Ubuntu -u root -- CMD` runs the command in a distribution
  wsl: WSL,
  'wsl.exe': WSL,
  // `axme sandbox -c 'npm publish'`: bash runs the line in the kernel sandbox, which keeps neither the network nor the working tree from it
  axme: { valued: [], verbs: ['sandbox'], scriptOptions: ['-c', '--c'] },
};

/** What the launcher `program` runs with `args` (see LaunchStep), or null where it is no launcher of this module (a plain wrapper, or neither). */
export function launch(program: string, args: Word[]): LaunchStep | null {
  const step = launcherStep(program, args);
  // `ssh -o ProxyCommand=…`, `rsync -e …`, `tar --to-command=…`: command lines an option hands a shell (option-commands.ts)
  // `sqlite3 x.db '.shell …'`, `psql -c '\\! …'`, `cmake -E rm -rf …`: a program's own shell escapes (tool-escapes.ts)
  const extra = [...optionCommands(program, args), ...toolEscapes(program, args)];
  if (!extra.length) return step;
  return step ? { ...step, scripts: [...step.scripts, ...extra] } : lines(extra, true);
}

/** What a launcher of launcher-shapes.ts or of the LAUNCHERS table runs with `args`, else null. */
function launcherStep(program: string, args: Word[]): LaunchStep | null {
  // `pdsh -w web[1-4] 'cmd'`, `ansible all -m shell -a 'cmd'`: a command run on other machines (launcher-fleets.ts);
  // `hyperfine 'cmd'`, `pm2 start 'cmd'`, `sops exec-env f 'cmd'`: command lines a program hands a shell (launcher-exec-lines.ts)
  // `compgen -C 'cmd'`, `mapfile -C 'cmd'`, `bind -x`: command lines bash's builtins keep (shell-callbacks.ts)
  if ((program === 'kitty' || program === 'kitten') && args[0]?.value === '@') return launcherStep('kitty @', args.slice(1));
  const own = shapedLaunch(program, args) ?? fleetLaunch(program, args) ?? execLines(program, args) ?? shellCallbacks(program, args) ?? passGit(program, args);
  if (own) return own;
  // byobu hands its words to tmux or to screen, whichever it runs: `-X` is screen's alone
  const spec = program === 'byobu' && args.some((w) => w.value === '-X') ? SCREEN : Object.hasOwn(LAUNCHERS, program) ? LAUNCHERS[program]! : null;
  return spec && tableShape(args, spec);
}

/** A launcher of the LAUNCHERS table: its script options and verbs, the program an option names, its verb, the word before its command. */
function tableShape(args: Word[], spec: LauncherSpec): LaunchStep {
  // `machinectl shell …`, `toolbox run …`: the words after the verb; another verb runs no command
  const verb = spec.verbs ? verbAt(args, spec) : -1;
  if (verb < 0 && spec.verbs) return lines([], true);
  // `distrobox enter box -- cmd`, `-e cmd`: the command after such a word, none without it
  const after = spec.commandAfter ? args.findIndex((w) => spec.commandAfter!.includes(w.value)) : -1;
  // `tmux -c 'cmd'`, `tmux new -d 'cmd'`, `nix-shell --run 'cmd'`, `mise exec -c 'cmd'`: command lines the program hands a shell
  const scripted = spec.scriptOptions || (spec.scriptVerbs && (!spec.verbOption || args.some((w) => w.value === spec.verbOption)));
  const scripts = scripted ? launcherScripts(after < 0 ? args : args.slice(0, after), spec) : [];
  if (spec.commandAfter) {
    const bare = after < 0 && spec.bareCommand ? bareCommandAt(args, spec.valued) : -1;
    if (bare >= 0) return { kind: 'runs', words: args.slice(bare), chdir: null, scripts };
    if (after < 0 || after === args.length - 1) return lines(scripts, true);
    return { kind: 'runs', words: args.slice(after + 1), chdir: null, scripts };
  }
  if (scripted) return lines(scripts, true);
  // `start-stop-daemon --start --exec /bin/x -- args`: the program an option names, its arguments after `--`
  if (spec.programOptions) {
    const run = namedProgram(args, spec);
    return run ? { kind: 'runs', words: run, chdir: skipOptions(args, spec).chdir(spec.chdir ?? []), scripts: [] } : lines([], true);
  }
  return { kind: 'wraps', own: args.slice(verb + 1), spec, scripts: [] };
}

/** Where the bare command of a LauncherSpec.bareCommand launcher starts: after options of `valued` alone, each with its value; -1 when another option comes first or no word follows. */
function bareCommandAt(args: readonly Word[], valued: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (!v.startsWith('-')) return i;
    if (!valued.includes(v)) return -1;
    i++;
  }
  return -1;
}

/**
 * Where a launcher's verb stands, or -1 when its first word that is no option is none of its
 * verbs (`machinectl list`); an option the table does not know is read both ways, as a flag and
 * as taking the next word (`zellij -s dev run -- cmd`).
 */
function verbAt(args: Word[], spec: LauncherSpec): number {
  for (const unknownTakesValue of [false, true]) {
    const at = skipOptions(args, { valued: spec.valued }, unknownTakesValue).index;
    if (spec.verbs!.includes(args[at]?.value ?? '')) return at;
  }
  return -1;
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
  // `tmux display -p '#(cmd)'`, `set -g status-right '#(cmd)'`: tmux runs a format's command with a shell
  if (spec.formatCommands) for (const w of args) out.push(...formatCommands(w.value));
  const verbs = spec.scriptVerbs;
  if (!verbs) return out;
  const after = skipOptions(args, spec).index;
  let group = args.slice(after);
  while (group.length) {
    const end = group.findIndex((w) => w.value === ';');
    const own = end < 0 ? group : group.slice(0, end);
    group = end < 0 ? [] : group.slice(end + 1);
    const nested = spec.nestedCommands && Object.hasOwn(spec.nestedCommands.verbs, own[0]?.value ?? '') ? spec.nestedCommands : null;
    if (nested) {
      out.push(...nestedLines(own.slice(1), nested.verbs[own[0]!.value]!, nested.program));
      continue;
    }
    const valued = Object.hasOwn(verbs, own[0]?.value ?? '') ? verbs[own[0]!.value]! : null;
    if (!valued) continue;
    const words = own.slice(1);
    let from = skipOptions(words, { valued }).index;
    // screen's `exec .!. cmd`: the pattern of the file descriptors it hands the command comes first
    if (own[0]!.value === 'exec' && /^[.!:|]+$/.test(words[from]?.value ?? '')) from++;
    if (spec.argvVerbs?.includes(own[0]!.value)) {
      if (from < words.length) out.push(argvLine(words.slice(from).map((w) => w.value)));
      continue;
    }
    const line = words
      .slice(from)
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
