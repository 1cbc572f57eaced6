import { operandAt, programName } from './argv.ts';
import { BY_NAME, CLIENT_COMMANDS } from './npm-client-commands.ts';
import { DENO_VALUED, RUN_SUBS, RUNNER_VALUED, runnerValued, SHELL_LINE_RUNNERS, shellLineOption } from './runner-words.ts';

/**
 * What a runner starts: the one account the rules follow — command.ts peels a runner off as it
 * peels a wrapper, so every rule (removal, paths, git, the lists, the families, the guard's own
 * commands) checks the program a runner starts as if it had been run alone (docs/safety.md). The
 * runners: the package runners (`npx`, `pnpx`, `bunx`, `uvx`, `npm exec`, `pnpm dlx|exec`, `yarn
 * dlx|exec|run`, `bun x|run`), the npm clients' own `<bin>` form (`yarn nx …`, `pnpm prisma …`;
 * not their commands such as `add` or `why`, whose operands are package names), yarn's workspaces
 * (`yarn workspace web …`, `yarn workspaces foreach -A …`: yarn again), the environment runners
 * (`bundle exec`, `poetry|pipenv|pdm|hatch|uv run`, `uv tool run`, `hatch env run`, `pipx run`),
 * the package manager `corepack` starts, the npm package `deno run npm:<pkg>` runs, `nvm exec|run`
 * and `python -m` (which the families follow, command.ts does not: mayRun). `npx -c '<line>'`,
 * `npm exec -c '<line>'` and `pnpm dlx -c '<line>'` hand a shell line to a shell instead
 * (runner-shell-lines.ts). A runner fetching code from a URL to run is runner-fetches.ts's; the
 * runners' subcommands and options are runner-words.ts, the npm clients' own commands
 * npm-client-commands.ts.
 */

/** `yarn workspaces foreach`'s options that take a value. */
const FOREACH_VALUED = new Set(['--include', '--exclude', '--from', '-j', '--jobs']);

/** The package managers corepack runs (`corepack pnpm@9 install`); its other words are its own commands (`corepack enable`). */
const COREPACK_MANAGERS = new Set(['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'yarnpkg']);

/** A word nvm reads as a node version or alias (`20`, `v18.19.0`, `lts/iron`, `node`, `default`), not as a command. */
const NVM_VERSION = /^(v?\d[\d.x]*|lts\/.+|node|stable|unstable|iojs(-v?\d[\d.]*)?|system|default|current)$/;

/** bun's options whose value is code to run (`bun -e '…'`, `bun -p '…'`): the interpreter family reads it. */
const BUN_CODE = new Set(['-e', '--eval', '-p', '--print']);

/** A package name as the program it installs: `@vscode/vsce@2` is `vsce`, `aws-cdk` is `cdk`, `prisma@5` is `prisma`. */
const PACKAGE_BINS: Record<string, string> = {
  '@changesets/cli': 'changeset',
  'firebase-tools': 'firebase',
  'aws-cdk': 'cdk',
  'netlify-cli': 'netlify',
  '@semantic-release/cli': 'semantic-release',
  'dotenv-cli': 'dotenv',
  'trash-cli': 'trash',
};

function binOf(pkg: string): string {
  const at = pkg.indexOf('@', 1);
  const name = at > 0 ? pkg.slice(0, at) : pkg;
  return PACKAGE_BINS[name] ?? programName(name);
}

/** What a runner starts: the program's name, and where in the runner's arguments the program's own begin. */
export interface RunnerStart {
  program: string;
  /** the index of the started program's first argument in the runner's arguments */
  at: number;
  /** another reading of the runner's words, where they allow two (`nvm exec myalias cmd`: an alias, or the program) */
  other?: RunnerStart;
}

/**
 * Whether command.ts peels a program off as a runner (runnerStart answers for it): a cheap test
 * before the arguments are read. Not `python -m`: a module names no program the other rules know,
 * and the families read `python -m` themselves (`python -m django flush`, `python -m twine upload`).
 */
export function mayRun(program: string): boolean {
  return RUN_SUBS[program] !== undefined || program === 'node';
}

/** The program a runner starts (`npx nx release`, `bundle exec rails …`, `python -m twine …`) and where its arguments begin, else null. */
export function runnerStart(program: string, args: readonly string[]): RunnerStart | null {
  if (program === 'py' || /^python[\d.]*$/.test(program)) return moduleRun(args);
  if (program === 'node') return rushInstallerRun(args);
  const subs = RUN_SUBS[program];
  if (!subs) return null;
  if (program === 'nvm') return nvmStart(args);
  if (program === 'deno') return denoStart(args);
  const valued = runnerValued(program);
  let i = operandAt(args, valued);
  if (i < 0) return null;
  if (program === 'corepack') return COREPACK_MANAGERS.has(binOf(args[i]!)) ? { program: binOf(args[i]!), at: i + 1 } : null;
  if (program === 'pnpm' && (args[i] === 'recursive' || args[i] === 'multi' || args[i] === 'm')) i = operandAt(args, valued, i + 1);
  if (program === 'uv' && args[i] === 'tool' && args[i + 1] === 'run') i++;
  if (program === 'hatch' && args[i] === 'env' && args[i + 1] === 'run') i++;
  if (program === 'yarn' && (args[i] === 'workspace' || args[i] === 'workspaces')) return yarnAgain(args, i);
  if (subs !== 'direct') {
    if (subs.has(args[i]!)) i = operandAt(args, valued, i + 1);
    else if (!BY_NAME.has(program) || CLIENT_COMMANDS.has(args[i]!)) return null;
    if (i < 0) return null;
  }
  // `bun run -`: a script read on stdin; `bun -e '<code>'`: code, whose text is no program
  if (args[i] === '-' || (program === 'bun' && args.slice(0, i).some((a) => BUN_CODE.has(a)))) return null;
  // `npx -c 'nx release'`: a command line for the shell, not a program (runnerShellLine)
  if (SHELL_LINE_RUNNERS.has(program)) for (let k = 0; k < i; k++) if (shellLineOption(args[k]!)) return null;
  // `hatch run test:pytest`: the command after the environment's name
  if (program === 'hatch' && /^[\w.-]+:./.test(args[i]!)) return { program: binOf(args[i]!.slice(args[i]!.indexOf(':') + 1)), at: i + 1 };
  return { program: binOf(args[i]!), at: i + 1 };
}

/**
 * `nvm exec [--silent] [--lts | version] cmd …` and `nvm run [version] args…` (node with the args):
 * without a version nvm reads `.nvmrc`, so a word that is no version's shape may be an alias or
 * the command, and both readings are given.
 */
function nvmStart(args: readonly string[]): RunnerStart | null {
  const sub = operandAt(args);
  if (args[sub] !== 'exec' && args[sub] !== 'run') return null;
  let k = sub + 1;
  let lts = false;
  while (k < args.length && (args[k] === '--silent' || args[k] === '--lts' || args[k]!.startsWith('--lts=') || args[k] === '--')) {
    if (args[k]!.startsWith('--lts')) lts = true;
    if (args[k++] === '--') break;
  }
  if (k >= args.length) return null;
  const runs = (at: number): RunnerStart | null => {
    if (args[sub] === 'run') return { program: 'node', at };
    return at < args.length ? { program: programName(args[at]!), at: at + 1 } : null;
  };
  // `--lts` names the version; a version's shape is one
  if (lts) return runs(k);
  if (NVM_VERSION.test(args[k]!)) return runs(k + 1);
  const direct = runs(k);
  const aliased = runs(k + 1);
  return direct && (aliased ? { ...direct, other: aliased } : direct);
}

/** `deno run [options] npm:<package>[@version][/bin] args…`: that package's program; a script file or URL starts none the rules know. */
function denoStart(args: readonly string[]): RunnerStart | null {
  const sub = operandAt(args);
  if (args[sub] !== 'run' && args[sub] !== 'x') return null;
  const i = operandAt(args, DENO_VALUED, sub + 1);
  const spec = i < 0 ? '' : args[i]!;
  if (!spec.startsWith('npm:')) return null;
  const name = spec.slice(4);
  // `npm:@scope/pkg@1/bin`: the bin after the package's name and version
  const slash = name.indexOf('/', name.startsWith('@') ? name.indexOf('/') + 1 : 0);
  const bin = slash > 0 ? name.slice(slash + 1) : '';
  return { program: bin || binOf(slash > 0 ? name.slice(0, slash) : name), at: i + 1 };
}

/** The program and arguments a runner starts (runnerStart), else null. */
export function runnerInner(program: string, args: readonly string[]): [string, string[]] | null {
  const started = runnerStart(program, args);
  return started && [started.program, args.slice(started.at)];
}

/** Runner options whose value is a file the runner reads itself (`uv run --env-file .env`, `bundle exec --gemfile`). */
const OWN_FILES = ['--env-file', '--gemfile', '--userconfig', '--globalconfig', '--config-file', '--with-requirements'];

/** Whether a runner is given a file it reads itself (OWN_FILES, alone or `--opt=file`): command.ts checks the runner as a program too. */
export function runnerReadsFiles(args: readonly string[]): boolean {
  return args.some((a) => a.startsWith('--') && OWN_FILES.some((o) => a === o || (a.startsWith(o) && a.charCodeAt(o.length) === 61) /* = */));
}

/** `yarn workspace <name> <command…>`, `yarn workspaces foreach [options] <command…>`: yarn again, with the command. */
function yarnAgain(args: readonly string[], at: number): RunnerStart | null {
  if (args[at] === 'workspace') {
    const name = operandAt(args, RUNNER_VALUED, at + 1);
    return name < 0 || name + 1 >= args.length ? null : { program: 'yarn', at: name + 1 };
  }
  const foreach = operandAt(args, RUNNER_VALUED, at + 1);
  if (args[foreach] !== 'foreach') return null;
  const k = operandAt(args, FOREACH_VALUED, foreach + 1);
  return k < 0 ? null : { program: 'yarn', at: k };
}

/** `python -m twine upload`, `python -mmkdocs …`: the module run as its program. */
function moduleRun(args: readonly string[]): RunnerStart | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-m') return args[i + 1] ? { program: args[i + 1]!, at: i + 2 } : null;
    if (a.startsWith('-m')) return { program: a.slice(2), at: i + 1 };
    if (a === '-W' || a === '-X') i++;
    else if (a === '-c' || !a.startsWith('-')) return null;
  }
  return null;
}

/**
 * Rush's installer scripts, committed so that CI runs rush without installing it: `node
 * common/scripts/install-run-rush.js publish …` runs `rush publish …`, `install-run-rushx.js`
 * rushx, `install-run.js PKG@VERSION BIN …` the package's BIN. Any other script node runs is none.
 */
function rushInstallerRun(args: readonly string[]): RunnerStart | null {
  const i = args.findIndex((a) => !a.startsWith('-'));
  const script = i < 0 || args.slice(0, i).some((a) => NODE_CODE.has(a)) ? null : programName(args[i]!);
  if (script === 'install-run-rush.js') return { program: 'rush', at: i + 1 };
  if (script === 'install-run-rushx.js') return { program: 'rushx', at: i + 1 };
  return script === 'install-run.js' && args[i + 2] ? { program: programName(args[i + 2]!), at: i + 3 } : null;
}

/** node's options whose value is code or a module, after which no script is named. */
const NODE_CODE = new Set(['-e', '--eval', '-p', '--print', '-r', '--require', '--import', '--loader']);
