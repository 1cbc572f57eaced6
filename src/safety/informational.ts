/**
 * Whether a command only informs: asks for help or the version, or does a dry run
 * (docs/safety.md, "How an unknown command is judged"). Such a command of a publish, deploy or
 * infra program changes nothing, so the lists' two-word entries (`npm publish`), the publish and
 * infra families and the unknown-command rule leave it alone: `npm publish --dry-run`,
 * `docker push --help`, `terraform destroy -help`, `kubectl delete ns x --dry-run=client`.
 *
 * Not for runners, whose flags after the script or program are that program's: `npm run publish
 * --dry-run` hands `--dry-run` to a script that may ignore it (the runner's program is checked in
 * turn, with this same rule, where a family follows runners).
 */

/** Programs that run a project's script or another program: their flags belong to what they run. */
const RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx', 'pipx', 'make', 'gmake', 'just', 'task', 'nx', 'turbo', 'lerna']);
/** A runner's own commands, whose flags are its own: `nx release --dry-run`. */
const OWN_COMMANDS: Record<string, readonly string[]> = { nx: ['release'] };
/** Subcommands of the package clients that run a script or a program. */
const RUN_SUBS = new Set(['run', 'run-script', 'rum', 'urn', 'exec', 'x', 'dlx', 'test', 'start', 'restart', 'stop', 'task']);
const CLIENTS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'deno', 'uv', 'poetry', 'pdm', 'hatch', 'pipenv', 'rye', 'cargo', 'dotnet', 'go', 'bundle', 'composer']);
/** Programs whose `-h` is not help (a host, human-readable sizes, halt, no-dereference). */
const H_IS_NOT_HELP = new Set([
  'psql',
  'pg_dump',
  'pg_restore',
  'dropdb',
  'createdb',
  'mysql',
  'mysqladmin',
  'mysqldump',
  'mariadb',
  'redis-cli',
  'clickhouse-client',
  'clickhouse',
  'cockroach',
  'sqlcmd',
  'mongo',
  'gsutil',
  'shutdown',
  'halt',
  'reboot',
  'poweroff',
  'chown',
  'chgrp',
  'chmod',
  'ln',
  'ls',
  'du',
  'df',
  'sort',
  'grep',
  'rsync',
  'sudo',
  'ssh',
  'scp',
  'nc',
  'ncat',
  'free',
]);
/** Short options that are a dry run for one program: `cargo publish -n`. */
const DRY_SHORT: Record<string, string> = { cargo: '-n' };
const FALSE_VALUES = new Set(['false', 'none', 'no', '0', 'off']);
/** A word that is a version or a range of versions (`1.2.3`, `v2`, `^1.4`, `>=2.0`): what `--version` is given, not asked for. */
const VERSION_VALUE = /^[v=^~<>]*\d/;

/** Whether `program args` only shows help or the version, or is a dry run; see the module comment. */
export function informational(program: string, args: readonly string[]): boolean {
  if (RUNNERS.has(program) && !OWN_COMMANDS[program]?.includes(args.find((a) => !a.startsWith('-')) ?? '')) return false;
  if (CLIENTS.has(program)) {
    const sub = args.find((a) => !a.startsWith('-'));
    if (sub !== undefined && RUN_SUBS.has(sub)) return false;
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return false;
    // the value of a one-letter option (`git commit -m --help`) is not a flag; git takes the next
    // word as the value of any long option that wants one (`git commit --message --help`)
    const prev = args[i - 1];
    if (prev !== undefined && /^-[A-Za-z]$/.test(prev) && prev !== '-h') continue;
    if (program === 'git' && prev !== undefined && prev.startsWith('--') && !prev.includes('=')) continue;
    // `--version 1.2.3` picks a version (`helm upgrade x chart --version 1.2.3`, `cargo yank --version 1.0.0`): a value, no request
    if (a === '--version' && VERSION_VALUE.test(args[i + 1] ?? '')) continue;
    if (a === '--help' || a === '--version') return true;
    // `-h`, `-help`: help where nothing it could be the value of follows (`psql -h host` is a host)
    if ((a === '-h' || a === '-help') && !H_IS_NOT_HELP.has(program) && (args[i + 1] === undefined || args[i + 1]!.startsWith('-'))) return true;
    if (a === '--dry-run' || a === '--dryrun') return true;
    if (a.startsWith('--dry-run=') || a.startsWith('--dryrun=')) {
      if (!FALSE_VALUES.has(a.slice(a.indexOf('=') + 1).toLowerCase())) return true;
    }
    if (DRY_SHORT[program] === a) return true;
  }
  return false;
}
