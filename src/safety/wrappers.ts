import type { Word } from './shell.ts';

/**
 * The wrappers command.ts peels off a command (`sudo`, `env`, `timeout`, the launchers such as
 * `systemd-run` or `unshare`, the supervisors such as `gosu`): for each, the options that take a
 * value and the positional arguments before the command it runs. An option missing here is read
 * both ways (command.ts). The launchers with shapes of their own (a verb, a word before the
 * command, command lines handed a shell) are launchers.ts's.
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
  /** a lone `-` is one of its options (`env -`, the same as `env -i`), not the command */
  dashOption?: true;
  /** options whose value is a file the wrapper reads itself (`dotenv -e .env`): given one, the wrapper is checked as a program too */
  readsFiles?: string[];
}

/** Where a wrapper's command starts among its words, and the folder its options name (skipOptions). */
export interface SkippedOptions {
  index: number;
  /** the value of the first of these options given, else null */
  chdir: (names: string[]) => string | null;
}

/**
 * Skips a wrapper's options (and `--`) and its positional arguments; returns where the command
 * starts. `unknownTakesValue`: an option the spec does not list takes the next word (one not
 * starting with `-`) as its value.
 */
export function skipOptions(
  args: Word[],
  spec: Pick<WrapperSpec, 'valued' | 'pairs' | 'positionals' | 'dashOption'>,
  unknownTakesValue = false,
): SkippedOptions {
  const { valued, pairs = [], positionals = 0 } = spec;
  const values = new Map<string, string>();
  let i = 0;
  while (i < args.length) {
    const v = args[i]!.value;
    if (v === '--') {
      i++;
      break;
    }
    if (!v.startsWith('-') || (v === '-' && !spec.dashOption)) break;
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
  env: { valued: ['-u', '--unset', '-C', '--chdir'], chdir: ['-C', '--chdir'], dashOption: true },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ['-a'] },
  nohup: { valued: [] },
  // moreutils: `chronic cmd` (its output only on failure), `ifne cmd` (only given input), `lckdo lockfile cmd`
  chronic: { valued: [] },
  ifne: { valued: [] },
  lckdo: { valued: [], positionals: 1 },
  // `entr cmd` (its `-s 'line'` is launchers.ts's): the command run when a file it watches changes
  entr: { valued: [] },
  // detached sessions: `dtach -n socket cmd` (the mode's value is the socket), `abduco -n name cmd`
  dtach: { valued: ['-a', '-A', '-c', '-n', '-N', '-e', '-r'] },
  abduco: { valued: ['-e'], positionals: 1 },
  setsid: { valued: [] },
  // Ubuntu's run-one: `run-one cmd` (one copy at a time), `run-this-one`, `keep-one-running`, `run-one-constantly`, `run-one-until-success|failure`
  'run-one': { valued: [] },
  'run-this-one': { valued: [] },
  'keep-one-running': { valued: [] },
  'run-one-constantly': { valued: [] },
  'run-one-until-success': { valued: [] },
  'run-one-until-failure': { valued: [] },
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
    // `xargs -a FILE` reads its words from FILE (`xargs -a ~/.ssh/id_rsa echo` prints it)
    readsFiles: ['-a', '--arg-file'],
  },
  busybox: { valued: [] },
  toybox: { valued: [] },
  // GNU coreutils built as one program: `coreutils rm …`
  coreutils: { valued: [] },
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
  // debuggers, profilers and tracers that start the program they are given
  valgrind: { valued: [] },
  catchsegv: { valued: [] },
  heaptrack: { valued: ['-o', '--output'] },
  // the environment, the clock, the network or the limits a command runs under
  'xvfb-run': {
    valued: ['-n', '--server-num', '-s', '--server-args', '-f', '--auth-file', '-e', '--error-file', '-p', '--xauth-protocol', '-w', '--wait'],
  },
  'dbus-run-session': { valued: ['--config-file', '--dbus-daemon'] },
  'dbus-launch': { valued: ['--config-file', '--autolaunch'] },
  // an agent started for one command: `ssh-agent sh -c '…'` runs it with the agent's socket
  'ssh-agent': { valued: ['-a', '-E', '-O', '-P', '-t'] },
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
  // `envchain NS[,NS2] cmd`: the command run with the secrets of the keychain's namespaces in its environment
  envchain: { valued: [], positionals: 1 },
  // `summon [-p provider] [-f secrets.yml] cmd`: the command run with the secrets the provider fetched in its environment
  summon: { valued: ['-p', '--provider', '-f', '-D', '--up', '-e', '--environment', '--yaml', '--ignore'] },
  // job queues that run their command later, in the background: Task Spooler (`tsp cmd`), nq, GNU parallel's sem
  tsp: { valued: ['-L', '-D', '-W', '-N', '-E', '-S'] },
  nq: { valued: [] },
  sem: { valued: ['--id', '-j', '--jobs', '-P', '--max-procs', '--timeout', '--semaphorename', '--semaphoretimeout', '--st'] },
  setlock: { valued: [], positionals: 1 },
  softlimit: { valued: ['-m', '-a', '-d', '-s', '-l', '-f', '-c', '-o', '-p', '-t', '-r'] },
  chpst: { valued: ['-u', '-U', '-b', '-e', '-/', '-n', '-l', '-L', '-m', '-d', '-o', '-p', '-f', '-c', '-r', '-t'] },
  tini: { valued: ['-p', '-e'] },
  'dumb-init': { valued: ['-r', '--rewrite'] },
  'with-contenv': { valued: [] },
  daemonize: { valued: ['-c', '-e', '-E', '-o', '-p', '-l', '-u'], chdir: ['-c'] },
  schroot: {
    valued: ['-c', '--chroot', '-u', '--user', '-d', '--directory', '-n', '--session-name', '-o', '--option'],
    chdir: ['-d', '--directory'],
  },
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
