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
  /** options whose value is a file the wrapper reads itself (`dotenv -e .env`): given one, the wrapper is checked as a program too */
  readsFiles?: string[];
}

/** The words after which `distrobox enter` runs the rest as a command. */
const DISTROBOX_COMMAND = ['--', '-e', '--exec'];

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
