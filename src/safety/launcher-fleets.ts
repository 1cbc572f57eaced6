import { argvLine } from './argv-line.ts';
import { type LaunchStep, lines, wordsFrom } from './launcher-shapes.ts';
import type { Word } from './shell.ts';
import { skipOptions, type WrapperSpec } from './wrappers.ts';

/**
 * The fleet runners: programs that hand one command line to a shell on other machines, as `ssh
 * host cmd` does on one (docs/safety.md, "Shell commands are parsed, not grepped") — `pdsh -w
 * web[1-4] cmd`, `pssh -h hosts -i cmd` (`parallel-ssh`), `clush -w nodes cmd`, `dsh -a -- cmd`,
 * `mosh host -- cmd`, Salt's `cmd.run` (`salt '*' cmd.run 'cmd'`, `salt-ssh`), and Ansible's
 * ad-hoc modules that run one (`ansible all -m shell|command|raw -a 'cmd'`, `command` when no `-m`
 * is given) or remove a path (`-m file -a 'path=X state=absent'` is `rm -rf X`), pyinfra's `exec --
 * cmd` on an inventory's hosts. Their command is
 * read as ssh's is: the rules judge it as if typed here.
 */

/** Each runner's options that take a value, before its command. */
const FLEETS: Record<string, WrapperSpec> = {
  pdsh: { valued: ['-w', '-x', '-g', '-X', '-R', '-l', '-t', '-u', '-f', '-F'] },
  pssh: {
    valued: [
      '-h',
      '--hosts',
      '-H',
      '--host',
      '-l',
      '--user',
      '-p',
      '--par',
      '-o',
      '--outdir',
      '-e',
      '--errdir',
      '-t',
      '--timeout',
      '-O',
      '--option',
      '-x',
      '--extra-args',
      '-X',
      '--extra-arg',
    ],
  },
  clush: {
    valued: [
      '-w',
      '-x',
      '-g',
      '--group',
      '-X',
      '-f',
      '--fanout',
      '-l',
      '--user',
      '-u',
      '--command_timeout',
      '-t',
      '--connect_timeout',
      '-o',
      '--options',
      '-R',
      '--worker',
      '-E',
      '--pick',
      '--topology',
    ],
  },
  dsh: { valued: ['-m', '--machine', '-g', '--group', '-f', '--file', '-r', '--remoteshell', '-o', '--remoteshellopt', '-F', '--forklimit'] },
  mosh: { valued: ['-p', '--port', '--predict', '--family', '--bind-server', '--experimental-remote-ip'], positionals: 1 },
};
FLEETS['parallel-ssh'] = FLEETS.pssh!;

/** Salt's execution functions whose first argument is a shell command line. */
const SALT_RUNS = /^cmd\.(?:run|shell|run_all|run_stdout|run_stderr|run_bg|retcode|exec_code_all|powershell)$/;
/** Ansible's ad-hoc modules whose `-a` is a command line (`command` is the default module). */
const ANSIBLE_RUNS = /^(?:ansible\.(?:builtin|legacy)\.)?(?:shell|command|raw|win_shell|win_command)$/;
const ANSIBLE_FILE = /^(?:ansible\.(?:builtin|legacy)\.)?file$/;

/** What a fleet runner hands a shell on each machine, or null where `program` is none (or runs no command). */
export function fleetLaunch(program: string, args: Word[]): LaunchStep | null {
  if (program === 'salt' || program === 'salt-ssh') {
    const at = args.findIndex((w) => SALT_RUNS.test(w.value));
    const line = at >= 0 ? args.slice(at + 1).find((w) => !w.value.startsWith('-')) : undefined;
    return line ? lines([line.value], true) : null;
  }
  if (program === 'ansible') return ansibleLine(args);
  // `pyinfra INVENTORY exec [--] cmd …`: the words after `exec` run on every host of the inventory, joined for a shell
  if (program === 'pyinfra') {
    const at = args.findIndex((w) => w.value === 'exec');
    const from = at >= 0 && args[at + 1]?.value === '--' ? at + 2 : at + 1;
    return at >= 0 && from < args.length ? lines([wordsFrom(args, from)], true) : null;
  }
  const spec = FLEETS[program];
  if (!spec) return null;
  const rest = skipOptions(args, spec);
  // `mosh host -- cmd`: the `--` after its host
  const from = program === 'mosh' && args[rest.index]?.value === '--' ? rest.index + 1 : rest.index;
  if (from >= args.length) return null;
  // mosh's server runs its command as an argv; the others join their words for a shell, as ssh does
  return lines([program === 'mosh' ? argvLine(args.slice(from).map((w) => w.value)) : wordsFrom(args, from)], true);
}

/** `ansible PATTERN [-m MODULE] -a ARGS`: the command line of a module that runs one, `rm -rf PATH` of a file removed; null otherwise. */
function ansibleLine(args: Word[]): LaunchStep | null {
  const value = (...names: string[]) => {
    let found: string | null = null;
    args.forEach((w, i) => {
      for (const n of names) {
        if (w.value === n && args[i + 1]) found = args[i + 1]!.value;
        else if (n.startsWith('--') && w.value.startsWith(`${n}=`)) found = w.value.slice(n.length + 1);
        else if (!n.startsWith('--') && w.value.startsWith(n) && w.value.length > n.length) found = w.value.slice(n.length);
      }
    });
    return found as string | null;
  };
  const module = value('-m', '--module-name') ?? 'command';
  const a = value('-a', '--args');
  if (a === null) return null;
  if (ANSIBLE_RUNS.test(module)) return lines([a.replace(/\b(?:chdir|creates|removes|executable)=\S+\s*/g, '')], true);
  if (ANSIBLE_FILE.test(module)) {
    const kv = Object.fromEntries([...a.matchAll(/(\w+)=("[^"]*"|'[^']*'|\S+)/g)].map((m) => [m[1]!, m[2]!.replace(/^["']|["']$/g, '')]));
    const path = kv.path ?? kv.dest ?? kv.name;
    return kv.state === 'absent' && path ? lines([argvLine(['rm', '-rf', path])], true) : null;
  }
  return null;
}
