import { programName } from '../command.ts';
import { operandAt } from './args.ts';

/**
 * What a runner starts: the one account the rules follow — the publish and infra families, the
 * unknown-command rule and the guard's own commands check the program a runner starts as if it
 * had been run alone (docs/safety.md). The runners: the package runners (`npx`, `pnpx`, `bunx`,
 * `uvx`, `npm exec`, `pnpm dlx|exec`, `yarn dlx|exec|run`, `bun x|run`), the npm clients' own
 * `<bin>` form (`yarn nx …`, `pnpm prisma …`; not their commands such as `add` or `why`, whose
 * operands are package names), yarn's workspaces (`yarn workspace web …`, `yarn workspaces
 * foreach -A …`: yarn again), the environment runners (`bundle exec`, `poetry|pipenv|pdm|hatch|uv
 * run`, `uv tool run`, `pipx run`) and `python -m`.
 */

/** Options of the runners that take a value, read before the program they start. */
const RUNNER_VALUED = new Set([
  '-p',
  '--package',
  '--registry',
  '--cache',
  '--cache-dir',
  '--config-file',
  '--color',
  '-w',
  '--workspace',
  '--prefix',
  '--userconfig',
  '--globalconfig',
  '--from',
  '--with',
  '--python',
  '-C',
  '--dir',
  '--workspace-dir',
  '--filter',
  '--filter-prod',
  '-F',
  '--reporter',
  '--loglevel',
  '--cwd',
  '--directory',
  '--project',
  '--env-file',
  '--group',
  '--extra',
  '--index',
  '--index-url',
  '--gemfile',
]);

/** `yarn workspaces foreach`'s options that take a value. */
const FOREACH_VALUED = new Set(['--include', '--exclude', '--from', '-j', '--jobs']);

/** Runner subcommands that start the program named next; `direct`: the runner's first operand is the program. */
const RUN_SUBS: Record<string, ReadonlySet<string> | 'direct'> = {
  npx: 'direct',
  pnpx: 'direct',
  bunx: 'direct',
  uvx: 'direct',
  npm: new Set(['exec', 'x']),
  pnpm: new Set(['dlx', 'exec']),
  yarn: new Set(['dlx', 'exec', 'run']),
  bun: new Set(['x', 'run']),
  bundle: new Set(['exec']),
  poetry: new Set(['run']),
  pipenv: new Set(['run']),
  uv: new Set(['run']),
  pdm: new Set(['run']),
  hatch: new Set(['run']),
  pipx: new Set(['run']),
};

/** The npm clients whose first operand, when it is none of their commands, is a package's program (`yarn nx …`). */
const BY_NAME = new Set(['yarn', 'pnpm', 'bun']);

/** The commands of yarn, pnpm and bun: what follows them is no program (`yarn add release-it`, `pnpm why np`). */
const CLIENT_COMMANDS = new Set([
  'add',
  'approve-builds',
  'audit',
  'bin',
  'build',
  'cache',
  'catalog',
  'ci',
  'completion',
  'config',
  'constraints',
  'create',
  'dedupe',
  'deploy',
  'dlx',
  'doctor',
  'env',
  'exec',
  'explain',
  'fetch',
  'global',
  'help',
  'i',
  'import',
  'info',
  'init',
  'install',
  'install-test',
  'it',
  'licenses',
  'link',
  'list',
  'll',
  'ln',
  'login',
  'logout',
  'ls',
  'm',
  'multi',
  'node',
  'npm',
  'outdated',
  'owner',
  'pack',
  'patch',
  'patch-commit',
  'patch-remove',
  'plugin',
  'pm',
  'prune',
  'publish',
  'rb',
  'rebuild',
  'recursive',
  'remove',
  'repl',
  'rm',
  'root',
  'run',
  'search',
  'server',
  'set',
  'setup',
  'stage',
  'start',
  'store',
  't',
  'tag',
  'test',
  'un',
  'uninstall',
  'unlink',
  'unplug',
  'up',
  'update',
  'upgrade',
  'upgrade-interactive',
  'version',
  'versions',
  'view',
  'why',
  'workspace',
  'workspaces',
  'x',
]);

/** Options of `npx`, `npm exec`, `pnpm dlx` whose value is a shell command line, not a program. */
const SHELL_LINE = new Set(['-c', '--call', '--shell-mode']);
const SHELL_LINE_RUNNERS = new Set(['npx', 'pnpx', 'npm', 'pnpm']);

/** A package name as the program it installs: `@vscode/vsce@2` is `vsce`, `aws-cdk` is `cdk`, `prisma@5` is `prisma`. */
const PACKAGE_BINS: Record<string, string> = {
  '@changesets/cli': 'changeset',
  'firebase-tools': 'firebase',
  'aws-cdk': 'cdk',
  'netlify-cli': 'netlify',
  '@semantic-release/cli': 'semantic-release',
};

function binOf(pkg: string): string {
  const at = pkg.indexOf('@', 1);
  const name = at > 0 ? pkg.slice(0, at) : pkg;
  return PACKAGE_BINS[name] ?? programName(name);
}

/** The program and arguments a runner starts (`npx nx release`, `bundle exec rails …`, `python -m twine …`), else null. */
export function runnerInner(program: string, args: readonly string[]): [string, string[]] | null {
  if (program === 'py' || /^python[\d.]*$/.test(program)) return moduleRun(args);
  const subs = RUN_SUBS[program];
  if (!subs) return null;
  let i = operandAt(args, RUNNER_VALUED);
  if (i < 0) return null;
  if (program === 'pnpm' && (args[i] === 'recursive' || args[i] === 'multi' || args[i] === 'm')) i = operandAt(args, RUNNER_VALUED, i + 1);
  if (program === 'uv' && args[i] === 'tool' && args[i + 1] === 'run') i++;
  if (program === 'yarn' && (args[i] === 'workspace' || args[i] === 'workspaces')) return yarnAgain(args, i);
  if (subs !== 'direct') {
    if (subs.has(args[i]!)) i = operandAt(args, RUNNER_VALUED, i + 1);
    else if (!BY_NAME.has(program) || CLIENT_COMMANDS.has(args[i]!)) return null;
    if (i < 0) return null;
  }
  // `npx -c 'nx release'`: a command line for the shell, not a program
  if (SHELL_LINE_RUNNERS.has(program)) for (let k = 0; k < i; k++) if (SHELL_LINE.has(args[k]!)) return null;
  return [binOf(args[i]!), args.slice(i + 1)];
}

/** `yarn workspace <name> <command…>`, `yarn workspaces foreach [options] <command…>`: yarn again, with the command. */
function yarnAgain(args: readonly string[], at: number): [string, string[]] | null {
  if (args[at] === 'workspace') {
    const name = operandAt(args, RUNNER_VALUED, at + 1);
    return name < 0 || name + 1 >= args.length ? null : ['yarn', args.slice(name + 1)];
  }
  const foreach = operandAt(args, RUNNER_VALUED, at + 1);
  if (args[foreach] !== 'foreach') return null;
  const k = operandAt(args, FOREACH_VALUED, foreach + 1);
  return k < 0 ? null : ['yarn', args.slice(k)];
}

/** `python -m twine upload`, `python -mmkdocs …`: the module run as its program. */
function moduleRun(args: readonly string[]): [string, string[]] | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-m') return args[i + 1] ? [args[i + 1]!, args.slice(i + 2)] : null;
    if (a.startsWith('-m')) return [a.slice(2), args.slice(i + 1)];
    if (a === '-W' || a === '-X') i++;
    else if (a === '-c' || !a.startsWith('-')) return null;
  }
  return null;
}
