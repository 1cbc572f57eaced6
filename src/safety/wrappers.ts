/**
 * The wrappers command.ts peels off a command (`sudo`, `env`, `timeout`, the launchers such as
 * `systemd-run` or `unshare`, the launchers into a machine or container such as `machinectl shell`
 * or `toolbox run`): for each, the options that take a value, the verb that runs a command and the
 * positional arguments before the command it runs. An option missing here is read both ways (command.ts).
 */

export interface WrapperSpec {
  /** options that take a separate value (`-u root`) */
  valued: string[];
  /** options that take two (`bwrap --bind SRC DEST`) */
  pairs?: string[];
  /** positional arguments before the wrapped command (timeout's duration, chroot's root) */
  positionals?: number;
  /** options whose value is a folder the command runs in */
  chdir?: string[];
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
  /** options whose value is a file the wrapper reads itself (`dotenv -e .env`): given one, the wrapper is checked as a program too */
  readsFiles?: string[];
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
export const ENTER_KEYS = new Set(['Enter', 'KPEnter', 'C-m', 'C-j']);

export const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    valued: [
      '-u',
      '-g',
      '-h',
      '-p',
      '-r',
      '-t',
      '-T',
      '-U',
      '-C',
      '-D',
      '--user',
      '--group',
      '--host',
      '--prompt',
      '--role',
      '--type',
      '--close-from',
      '--chdir',
      '--other-user',
      '--command-timeout',
    ],
    chdir: ['-D', '--chdir'],
  },
  doas: { valued: ['-u', '-C'] },
  env: { valued: ['-u', '--unset', '-C', '--chdir'], chdir: ['-C', '--chdir'] },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ['-a'] },
  nohup: { valued: [] },
  setsid: { valued: [] },
  unbuffer: { valued: [] },
  caffeinate: { valued: ['-t', '-w'] },
  stdbuf: { valued: ['-i', '-o', '-e'] },
  nice: { valued: ['-n', '--adjustment'] },
  ionice: { valued: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'] },
  time: { valued: ['-f', '-o', '--format', '--output'] },
  timeout: { valued: ['-s', '-k', '--signal', '--kill-after'], positionals: 1 },
  chroot: { valued: ['--userspec', '--groups'], positionals: 1 },
  taskset: { valued: [], positionals: 1 },
  flock: { valued: ['-w', '-E', '--timeout', '--conflict-exit-code'], positionals: 1 },
  strace: { valued: ['-o', '-e', '-p', '-s', '-u', '-E', '-P', '-a', '-b', '-I', '-O', '-S', '-X'] },
  ltrace: { valued: ['-o', '-e', '-p', '-s', '-u', '-a', '-l', '-n', '-E', '-x', '-L'] },
  xargs: {
    valued: [
      '-a',
      '-d',
      '-E',
      '-I',
      '-L',
      '-n',
      '-P',
      '-s',
      '--arg-file',
      '--delimiter',
      '--eof',
      '--replace',
      '--max-lines',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--process-slot-var',
    ],
  },
  busybox: { valued: [] },
  pkexec: { valued: ['--user'] },
  runuser: { valued: ['-u', '-g', '-G', '-w', '--user', '--group', '--supp-group', '--whitelist-environment'] },
  'systemd-run': {
    valued: [
      '-u',
      '--unit',
      '-p',
      '--property',
      '--description',
      '--slice',
      '-E',
      '--setenv',
      '--uid',
      '--gid',
      '-M',
      '--machine',
      '-H',
      '--host',
      '--nice',
      '--working-directory',
      '--on-active',
      '--on-boot',
      '--on-startup',
      '--on-calendar',
      '--on-unit-active',
      '--on-unit-inactive',
      '--timer-property',
      '--path-property',
      '--socket-property',
      '--service-type',
    ],
    chdir: ['--working-directory'],
  },
  unshare: {
    valued: [
      '-S',
      '-G',
      '-R',
      '-w',
      '--setuid',
      '--setgid',
      '--root',
      '--wd',
      '--map-user',
      '--map-group',
      '--map-users',
      '--map-groups',
      '--propagation',
      '--setgroups',
      '--monotonic',
      '--boottime',
    ],
    chdir: ['-w', '--wd'],
  },
  firejail: { valued: [] },
  nsenter: { valued: ['-t', '--target', '-S', '-G', '--setuid', '--setgid', '-R', '--root', '-w', '--wd', '-Z'], chdir: ['-w', '--wd'] },
  chrt: { valued: [], positionals: 1 },
  setpriv: {
    valued: [
      '--reuid',
      '--regid',
      '--groups',
      '--inh-caps',
      '--ambient-caps',
      '--bounding-set',
      '--securebits',
      '--pdeathsig',
      '--selinux-label',
      '--apparmor-profile',
    ],
  },
  cgexec: { valued: ['-g'] },
  fakeroot: { valued: ['-l', '--lib', '--faked', '-s', '-i'] },
  proot: {
    valued: ['-r', '--rootfs', '-b', '--bind', '-m', '--mount', '-w', '--pwd', '--cwd', '-q', '--qemu', '-k', '--kernel-release'],
    chdir: ['-w', '--pwd', '--cwd'],
  },
  bwrap: {
    valued: [
      '--chdir',
      '--unsetenv',
      '--dev',
      '--proc',
      '--tmpfs',
      '--dir',
      '--remount-ro',
      '--uid',
      '--gid',
      '--hostname',
      '--args',
      '--lock-file',
      '--sync-fd',
      '--seccomp',
      '--userns',
      '--pidns',
      '--cap-add',
      '--cap-drop',
      '--perms',
      '--size',
      '--exec-label',
      '--file-label',
      '--info-fd',
      '--json-status-fd',
      '--block-fd',
      '--userns-block-fd',
      '--argv0',
    ],
    pairs: [
      '--bind',
      '--bind-try',
      '--dev-bind',
      '--dev-bind-try',
      '--ro-bind',
      '--ro-bind-try',
      '--symlink',
      '--setenv',
      '--file',
      '--bind-data',
      '--ro-bind-data',
      '--chmod',
    ],
    chdir: ['--chdir'],
  },
  'flatpak-spawn': {
    valued: [
      '--env',
      '--forward-fd',
      '--directory',
      '--app-path',
      '--usr-path',
      '--sandbox-expose',
      '--sandbox-expose-ro',
      '--sandbox-expose-path',
      '--sandbox-expose-path-ro',
      '--sandbox-flag',
      '--sandbox-a11y-own-name',
    ],
    chdir: ['--directory'],
  },
  'distrobox-host-exec': { valued: [] },
  // `machinectl shell [opts] [[user@]machine [cmd …]]`: the machine, then the command run there
  machinectl: { valued: ['-E', '--setenv', '--uid', '-M', '--machine', '-H', '--host', '-p', '--property'], verbs: ['shell'], positionals: 1 },
  // `toolbox run [-c box] cmd`: the command run in the container
  toolbox: { valued: ['-c', '--container', '-d', '--distro', '-r', '--release', '--preserve-fds', '--log-level'], verbs: ['run'] },
  // `distrobox enter [box] -- cmd`, `-e cmd`, `--exec cmd` (also `distrobox-enter`): the command after them
  distrobox: { valued: ['-n', '--name', '-a', '--additional-flags'], verbs: ['enter'], commandAfter: DISTROBOX_COMMAND },
  'distrobox-enter': { valued: ['-n', '--name', '-a', '--additional-flags'], commandAfter: DISTROBOX_COMMAND },
  // debuggers, profilers and tracers that start the program they are given
  valgrind: { valued: [] },
  gdb: { valued: ['-ex', '-x', '-p', '-d', '-s', '-e', '-se', '-c', '-iex', '-ix', '--pid', '--core'], commandAfter: ['--args'] },
  ddd: { valued: [], commandAfter: ['--args'] },
  lldb: { valued: ['-o', '-s', '-O', '-S', '-k', '-K', '-p', '-n', '-a', '-c', '--one-line', '--source', '--core'], commandAfter: ['--'] },
  catchsegv: { valued: [] },
  heaptrack: { valued: ['-o', '--output'] },
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
  // the environment, the clock, the network or the limits a command runs under
  'xvfb-run': {
    valued: ['-n', '--server-num', '-s', '--server-args', '-f', '--auth-file', '-e', '--error-file', '-p', '--xauth-protocol', '-w', '--wait'],
  },
  'dbus-run-session': { valued: ['--config-file', '--dbus-daemon'] },
  'dbus-launch': { valued: ['--config-file', '--autolaunch'] },
  faketime: { valued: ['-p', '--date-prog'], positionals: 1 },
  numactl: {
    valued: [
      '-N',
      '-C',
      '-m',
      '-i',
      '-p',
      '-P',
      '-w',
      '--cpunodebind',
      '--cpubind',
      '--physcpubind',
      '--membind',
      '--interleave',
      '--preferred',
      '--preferred-many',
      '--weighted-interleave',
    ],
  },
  torsocks: { valued: ['-u', '--user', '-p', '--pass', '-a', '--address', '-P', '--port'] },
  proxychains: { valued: ['-f'] },
  proxychains4: { valued: ['-f'] },
  sshpass: { valued: ['-p', '-f', '-d', '-P'] },
  eatmydata: { valued: [] },
  nocache: { valued: ['-n'] },
  prlimit: { valued: ['-p', '--pid', '-o', '--output'] },
  cpulimit: { valued: ['-l', '--limit', '-p', '--pid', '-e', '--exe'] },
  trickle: { valued: ['-d', '-u', '-w', '-t', '-l', '-n'] },
  'systemd-inhibit': { valued: ['--what', '--who', '--why', '--mode'] },
  rlwrap: { valued: ['-b', '-C', '-D', '-f', '-F', '-g', '-H', '-l', '-M', '-O', '-P', '-q', '-S', '-s', '-t', '-w', '-z'] },
  // the process supervisors and privilege droppers of containers and service managers
  gosu: { valued: [], positionals: 1 },
  'su-exec': { valued: [], positionals: 1 },
  setuidgid: { valued: [], positionals: 1 },
  envdir: { valued: [], positionals: 1 },
  setlock: { valued: [], positionals: 1 },
  softlimit: { valued: ['-m', '-a', '-d', '-s', '-l', '-f', '-c', '-o', '-p', '-t', '-r'] },
  chpst: { valued: ['-u', '-U', '-b', '-e', '-/', '-n', '-l', '-L', '-m', '-d', '-o', '-p', '-f', '-c', '-r', '-t'] },
  tini: { valued: ['-p', '-e'] },
  'dumb-init': { valued: ['-r', '--rewrite'] },
  'with-contenv': { valued: [] },
  daemonize: { valued: ['-c', '-e', '-E', '-o', '-p', '-l', '-u'], chdir: ['-c'] },
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
  schroot: {
    valued: ['-c', '--chroot', '-u', '--user', '-d', '--directory', '-n', '--session-name', '-o', '--option'],
    chdir: ['-d', '--directory'],
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
  // `run0 [opts] cmd` (systemd 256): sudo's kind
  run0: {
    valued: [
      '-u',
      '--user',
      '-g',
      '--group',
      '-D',
      '--chdir',
      '--setenv',
      '--property',
      '-p',
      '--unit',
      '--slice',
      '--nice',
      '--background',
      '--machine',
      '--description',
      '--shell-prompt-prefix',
      '--lightweight',
      '-a',
      '--area',
    ],
    chdir: ['-D', '--chdir'],
  },
  // `shx rm -rf dist`: ShellJS runs the command after it (its own options take no value)
  shx: { valued: [] },
  // `cross-env NODE_ENV=test vitest`: assignments, then the command (command.ts skips the assignments)
  'cross-env': { valued: [] },
  // `dotenv -e .env.test -- jest` (dotenv-cli): the files and variables it loads, then the command
  dotenv: { valued: ['-e', '-v', '-p', '-c'], readsFiles: ['-e'] },
};
