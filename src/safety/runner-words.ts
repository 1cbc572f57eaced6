/*
 * The words of the runners (runners.ts reads what they start): the subcommands that start a
 * program, the options that take a value, the options that hand a shell line instead.
 */

/** Options of the runners that take a value, read before the program they start. */
export const RUNNER_VALUED = new Set([
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

/** Runner subcommands that start the program named next; `direct`: the runner's first operand is the program. */
export const RUN_SUBS: Record<string, ReadonlySet<string> | 'direct'> = {
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
  corepack: 'direct',
  deno: new Set(['run', 'x']),
  nvm: new Set(['exec', 'run']),
  // `lerna exec -- npm publish`: the command run in every package
  lerna: new Set(['exec']),
};

/** Options of one runner that take a value, besides RUNNER_VALUED's (hatch's `-e ENV`, which is no other runner's). */
const OWN_VALUED: Record<string, ReadonlySet<string>> = {
  // pnpm's `-w` is `--workspace-root` and its `--workspace` a flag of `add`: neither takes a value (npm's `-w web` does)
  pnpm: new Set([...RUNNER_VALUED].filter((o) => o !== '-w' && o !== '--workspace')),
  hatch: new Set([...RUNNER_VALUED, '-e', '--env', '-i', '--include', '-x', '--exclude', '--filter', '--data-dir', '--cache-dir']),
  lerna: new Set([...RUNNER_VALUED, '--scope', '--ignore', '--concurrency', '--since', '--loglevel']),
};

/** The options of `program`'s that take a value, read before the command or program it starts. */
export function runnerValued(program: string): ReadonlySet<string> {
  return OWN_VALUED[program] ?? RUNNER_VALUED;
}

/** `deno run`'s options whose value is the next word (its permission flags take theirs after `=`). */
export const DENO_VALUED = new Set([
  '-c',
  '--config',
  '--import-map',
  '--cert',
  '--location',
  '--seed',
  '--ext',
  '-L',
  '--log-level',
  '--preload',
  '--require',
  '--conditions',
]);

/** Options of `npx`, `npm exec`, `pnpm dlx` whose value is a shell command line, not a program. */
const SHELL_LINE = new Set(['-c', '--call', '--shell-mode']);

/** The runners that take one of SHELL_LINE's options. */
export const SHELL_LINE_RUNNERS = new Set(['npx', 'pnpx', 'npm', 'pnpm']);

/** Whether a runner's option hands it a shell line (`-c`, `--call`, pnpm's `--shell-mode`). */
export function shellLineOption(a: string): boolean {
  return SHELL_LINE.has(a) || a.startsWith('--call=');
}
