import type { Word } from './shell.ts';

/**
 * Options whose value is a command line the program runs on this machine with a shell, one table:
 * ssh's `-o ProxyCommand=…`, `LocalCommand`, `KnownHostsCommand` (scp and sftp pass `-o` on),
 * rsync's remote shell (`-e`, `--rsh`: started here), tar's compressor, `--to-command`, volume
 * scripts and `--checkpoint-action=exec=…`, zip's test command (`-TT`), man's pager and browser,
 * an editor's `-c ':!…'` and gdb's `-ex '!…'` / `-ex 'shell …'`, scp's and sftp's `-S program`,
 * APT's hooks set by `-o` (`APT::Update::Pre-Invoke::=…`), fzf's `--bind` actions that run a
 * command (`execute(…)`, `become(…)`, `reload(…)`) and its `--preview`, RPM's `%(cmd)` macros
 * in `--eval` or `--define` (rpm, rpmbuild, rpmspec). Each value is read as the
 * script it is (launchers.ts launch), as `sh -c '…'` is: `ssh -o ProxyCommand='rm -rf ~' h`
 * is `rm -rf ~`. `value`, where given, takes the command line out of the option's value and
 * tells which values hold one.
 */
interface OptionCommand {
  /** the options, each also written `--name=VALUE` (a short one `-xVALUE` for ssh's `-oVALUE`) */
  options: readonly string[];
  /** the command line in a value (given the option's name), or null where the value holds none */
  value?: (v: string, option: string) => string | null;
}

/** ssh's `-o` settings that name a command it runs locally: `ProxyCommand=cmd`, `-o 'LocalCommand cmd'`. */
const sshCommand = (v: string): string | null => /^\s*(?:ProxyCommand|LocalCommand|KnownHostsCommand)\s*(?:=|\s)\s*(.+)$/is.exec(v)?.[1] ?? null;
/** An editor's ex command that runs a shell line: `:!cmd`, `!cmd`, `:silent !cmd`. */
const exBang = (v: string): string | null => /^:?\s*(?:silent!?\s*)?!(.+)$/s.exec(v)?.[1] ?? null;
const SSH: OptionCommand = { options: ['-o'], value: sshCommand };
/** scp's and sftp's `-S program`: the program started in ssh's place, with their `-o` settings beside it. */
const SSH_COPY: OptionCommand = { options: ['-o', '-S'], value: (v, option) => (option === '-S' ? v : sshCommand(v)) };
/**
 * APT's hooks set for one run (`-o APT::Update::Pre-Invoke::=cmd`, `DPkg::Post-Invoke`,
 * `DPkg::Pre-Install-Pkgs`, `APT::Update::Post-Invoke-Success`): command lines apt hands a shell.
 */
const aptHook = (v: string): string | null => /^[\w:-]*(?:Pre-Invoke|Post-Invoke(?:-Success)?|Pre-Install-Pkgs)(?:::)?\s*=\s*(.+)$/is.exec(v)?.[1] ?? null;
const APT: OptionCommand = { options: ['-o', '--option'], value: aptHook };
/**
 * fzf's actions that run a command line (`--bind 'key:execute(cmd)'`, `execute-silent`, `become`,
 * `reload`, the `start` and `load` events' too) and its preview command (`--preview 'cmd {}'`).
 */
const fzfCommand = (v: string, option: string): string | null => {
  if (option === '--preview') return v;
  const lines = [
    ...v.matchAll(
      /\b(?:execute(?:-silent|-multi)?|become|reload(?:-sync)?|preview|change-preview)\s*(?:\(([^)]*)\)|\[([^\]]*)\]|\{([^}]*)\}|<([^>]*)>|:(.*))/gs,
    ),
  ].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '');
  return lines.length ? lines.join('\n') : null;
};
const EDITOR: OptionCommand = { options: ['-c', '--cmd'], value: exBang };
/** RPM's macros expanded by `--eval`/`-E` or set by `--define`/`-D`: a `%(cmd)` is the output of a shell running cmd. */
const rpmShellMacros = (v: string): string | null => {
  const lines = [...v.matchAll(/%\(((?:[^()]|\([^()]*\))*)\)/g)].map((m) => m[1]!);
  return lines.length ? lines.join('\n') : null;
};
const RPM: OptionCommand = { options: ['--eval', '-E', '--define', '-D'], value: rpmShellMacros };

const OPTION_COMMANDS: Record<string, OptionCommand> = {
  ssh: SSH,
  scp: SSH_COPY,
  sftp: SSH_COPY,
  'apt-get': APT,
  apt: APT,
  fzf: { options: ['--bind', '--preview'], value: fzfCommand },
  rsync: { options: ['-e', '--rsh'] },
  tar: {
    options: ['-I', '--use-compress-program', '--to-command', '-F', '--info-script', '--new-volume-script', '--rsh-command', '--checkpoint-action'],
    value: (v) => (v.startsWith('exec=') ? v.slice(5) : /^(?:dot|echo|bell|ttyout|wait|sleep|totals)\b/.test(v) ? null : v),
  },
  zip: { options: ['-TT', '--unzip-command'] },
  rpm: RPM,
  rpmbuild: RPM,
  rpmspec: RPM,
  man: { options: ['-P', '--pager', '-H', '--html'] },
  vim: EDITOR,
  vi: EDITOR,
  nvim: EDITOR,
  view: EDITOR,
  ex: EDITOR,
  gdb: { options: ['-ex', '-iex', '--eval-command', '--init-eval-command'], value: (v) => /^\s*(?:!|shell\s+)(.+)$/s.exec(v)?.[1] ?? null },
};

/** The command lines `program`'s options hand a shell (OPTION_COMMANDS); none for another program. */
export function optionCommands(program: string, args: readonly Word[]): string[] {
  const spec = Object.hasOwn(OPTION_COMMANDS, program) ? OPTION_COMMANDS[program]! : null;
  if (!spec) return [];
  const out: string[] = [];
  const take = (v: string | undefined, option: string) => {
    const line = v === undefined ? null : spec.value ? spec.value(v, option) : v;
    if (line?.trim()) out.push(line);
  };
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!.value;
    if (w === '--') break;
    // an editor's `+cmd` is its `-c cmd`
    if (spec === EDITOR && w.startsWith('+')) take(w.slice(1), '-c');
    else if (spec.options.includes(w)) take(args[++i]?.value, w);
    else {
      const eq = w.indexOf('=');
      if (w.startsWith('--') && eq > 0 && spec.options.includes(w.slice(0, eq))) take(w.slice(eq + 1), w.slice(0, eq));
      // `-oProxyCommand=…`, `-ecmd`: a short option's value joined to it
      else if (/^-[A-Za-z]$/.test(w.slice(0, 2)) && w.length > 2 && !w.startsWith('--') && spec.options.includes(w.slice(0, 2)))
        take(w.slice(2), w.slice(0, 2));
    }
  }
  return out;
}
