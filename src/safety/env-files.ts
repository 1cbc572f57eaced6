import { type Invocation, SHELLS, shellReadsStdin, unwrap } from './command.ts';
import { CONTAINER_RUN_VALUED, dockerSubcommand } from './container-cli.ts';
import { emitsSecrets } from './exfiltration.ts';
import { inlineCode, languageOf, NODE_VALUED, readsProgramFromStdin } from './families/interpreter-argv.ts';
import { runnerInner } from './runners.ts';
import { UNKNOWN } from './shell.ts';
import { plainWord, type Word } from './syntax.ts';

/**
 * A secret file handed to a program as its environment (docs/safety.md, "Secret file names"):
 * `node --env-file=.env server.js`, `docker run --env-file .env app`, `dotenv -e .env.local --
 * next dev`, `env-cmd -f .env.local npm start`, `op run --env-file=.env -- npm start`. The program
 * gets the values; the agent sees none of them, as with `npm run dev` loading dotenv itself. The
 * one table of the programs that take such a file: for each, the options that name it and what
 * runs with it. That run may show what it was handed — a printer (`printenv`, `env`), a shell or
 * an interpreter given code inline or on stdin (`node -e`, `sh -c 'echo $KEY'`, a REPL), `docker
 * compose config` — and then the file is read as any file is. A script file runs unseen: the
 * guard cannot read it. The command dotenv, env-cmd and `op run` start on this machine is judged
 * as any command is (command-checks.ts).
 */

export interface EnvFileRun {
  /** the words naming env files: an option's value, or `--env-file=FILE` whole */
  files: Word[];
  /** whether what runs with them may show their values */
  shows: boolean;
  /** commands started on this machine with the values (dotenv's, env-cmd's, `op run`'s): judged as any command */
  commands: Word[][];
}

/** How far runners are followed (`npx dotenv …`, `pnpm dlx env-cmd …`). */
const MAX_DEPTH = 4;

/** What `inv` does with the env files it names, or null for a program that takes none. */
export function envFileRun(inv: Invocation): EnvFileRun | null {
  return runOf(inv.program, inv.args, inv, 0);
}

function runOf(program: string, args: readonly Word[], inv: Invocation, depth: number): EnvFileRun | null {
  if (depth > MAX_DEPTH) return null;
  const reader = Object.hasOwn(PROGRAMS, program) ? PROGRAMS[program] : undefined;
  if (reader) return reader(args, inv, depth, program);
  // `npx dotenv -e .env -- next dev`, `python -m dotenv -f .env run …`: the program the runner starts
  const inner = runnerInner(
    program,
    args.map((w) => w.value),
  );
  return inner ? runOf(inner[0], args.slice(args.length - inner[1].length), inv, depth + 1) : null;
}

type Reader = (args: readonly Word[], inv: Invocation, depth: number, program: string) => EnvFileRun | null;

interface Scanned {
  files: Word[];
  /** the options given without a value, as written (`-i`, `--use-shell`) */
  flags: Set<string>;
  /** the options given with a value, by name */
  valued: Map<string, string>;
  /** the index of the first operand (args.length when none) */
  at: number;
  /** the operand follows `--` */
  dashed: boolean;
}

/**
 * The options before the first operand: `fileOptions` name an env file (`--opt FILE`, `--opt=FILE`;
 * with `equalsOnly`, only `--opt=FILE`, as deno reads its own), `valued` take a value.
 */
function scan(args: readonly Word[], from: number, fileOptions: ReadonlySet<string>, valued: ReadonlySet<string>, equalsOnly = false): Scanned {
  const out: Scanned = { files: [], flags: new Set(), valued: new Map(), at: args.length, dashed: false };
  for (let i = from; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === '--') return { ...out, at: i + 1, dashed: true };
    if (v.length < 2 || !v.startsWith('-')) return { ...out, at: i };
    const eq = v.indexOf('=');
    const name = eq > 0 ? v.slice(0, eq) : v;
    if (eq > 0) {
      if (fileOptions.has(name)) out.files.push(w);
      else out.valued.set(name, v.slice(eq + 1));
    } else if (fileOptions.has(v) && !equalsOnly) {
      if (args[i + 1]) out.files.push(args[++i]!);
    } else if (valued.has(v)) out.valued.set(v, args[++i]?.value ?? '');
    else out.flags.add(v);
  }
  return out;
}

/** The npm clients' own printers: `npm run env` prints the environment of a script. */
const CLIENTS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/**
 * Whether the command `words` may show the environment it is handed: a program whose output is a
 * secret (exfiltration.ts emitsSecrets: `printenv`, `env` with nothing to run, `gh auth token`), a
 * shell or interpreter given code inline or reading it from stdin (a REPL), `php -i`, `make -p`,
 * `npm run env`, a read of `/proc/…/environ`, a program that takes env files and shows them; a
 * program or a leading option only the running shell knows (`"$CMD"` may be `env`).
 */
function showsEnvironment(words: readonly Word[], inv: Invocation, depth: number): boolean {
  if (!words.length || depth > MAX_DEPTH) return false;
  if (words.some((w) => /environ\b/.test(w.value))) return true;
  const u = unwrap({ ...inv.command, words: [...words], redirects: [] });
  // `sh -c '…'`, `env -S '…'`, `eval`: a command line run by a shell, whose `$KEY` is the file's
  if (u.scripts.length) return true;
  const run = u.invocation;
  if (!run) return false;
  if (run.program.includes(UNKNOWN) || leadingUnknown(run.args)) return true;
  const p = run.program;
  const a = run.args.map((w) => w.value);
  if (emitsSecrets(run)) return true;
  if (SHELLS.has(p)) return shellReadsStdin(run.args) || a.includes('-i');
  const lang = languageOf(p) ?? (p === 'tsx' ? 'js' : null);
  if (lang) {
    const rest = p === 'tsx' && a[0] === 'watch' ? a.slice(1) : a;
    const js = p === 'tsx' ? 'node' : p;
    if (inlineCode(js, lang, rest) !== null || readsProgramFromStdin(js, lang, rest)) return true;
    if (a.includes('-i') || a.includes('--interactive') || (lang === 'php' && a.includes('--info'))) return true;
  }
  if (p === 'make' || p === 'gmake') return a.some((v) => v === '--print-data-base' || /^-[A-Za-z]*p/.test(v));
  if (CLIENTS.has(p)) {
    const k = a.findIndex((v) => !v.startsWith('-'));
    if (a[k] === 'env' || ((a[k] === 'run' || a[k] === 'run-script') && a[k + 1] === 'env')) return true;
  }
  const nested = runOf(p, run.args, inv, depth + 1);
  if (nested?.shows) return true;
  const inner = runnerInner(p, a);
  return inner ? showsEnvironment([plainWord(inner[0]), ...run.args.slice(run.args.length - inner[1].length)], inv, depth + 1) : false;
}

/** Whether a word only the shell knows stands among the options or as the first operand (`$(cat flags)` may be `-p`, a script's arguments do not matter). */
function leadingUnknown(args: readonly Word[]): boolean {
  for (const w of args) {
    if (w.value.includes(UNKNOWN)) return true;
    if (!w.value.startsWith('-')) return false;
  }
  return false;
}

/** Whether any command starting at or after `from` may show its environment: an option this table does not know may have taken the next word, so each later operand is tried as the program. */
function anyShows(args: readonly Word[], from: number, inv: Invocation, depth: number): boolean {
  for (let i = from; i < args.length; i++) if (!args[i]!.value.startsWith('-') && showsEnvironment(args.slice(i), inv, depth)) return true;
  return false;
}

const NODE_FILES = new Set(['--env-file', '--env-file-if-exists']);

/** `node --env-file=.env server.js`, `tsx [watch] --env-file=.env src/main.ts`: shown by inline code, a REPL, stdin. */
const node: Reader = (args, inv, depth) => {
  const from = args[0]?.value === 'watch' ? 1 : 0;
  const s = scan(args, from, NODE_FILES, NODE_VALUED);
  if (!s.files.length) return null;
  const rest = args.filter((w, i) => i >= from && !s.files.includes(w) && !(NODE_FILES.has(w.value) && s.files.includes(args[i + 1]!)));
  return { files: s.files, shows: showsEnvironment([plainWord('node'), ...rest], inv, depth), commands: [] };
};

const BUN_VALUED = new Set(['--cwd', '--filter', '-F', '--preload', '-r', '--config', '-c', '--tsconfig-override', '--conditions']);
/** bun's commands that run no code of the project with the file: `bun --env-file=.env install`. */
const BUN_QUIET = new Set(['install', 'i', 'add', 'a', 'remove', 'rm', 'update', 'outdated', 'link', 'unlink', 'pm', 'build', 'init', 'create', 'upgrade']);

/** `bun --env-file=.env.local run dev`: a package script or a file runs unseen; `-e`, `repl`, `exec` (a shell line), stdin show. */
const bun: Reader = (args, inv, depth) => {
  const top = scan(args, 0, NODE_FILES, BUN_VALUED);
  const sub = args[top.at]?.value;
  const runs = sub === 'run' || sub === 'x' || sub === 'test';
  const inner = runs ? scan(args, top.at + 1, NODE_FILES, BUN_VALUED) : null;
  const files = [...top.files, ...(inner?.files ?? [])];
  if (!files.length) return null;
  const values = args.map((w) => w.value);
  let shows = inlineCode('bun', 'js', values) !== null || readsProgramFromStdin('bun', 'js', values) || sub === 'repl' || sub === 'exec';
  if (inner && sub !== 'test') shows ||= args[inner.at]?.value === '-' || showsEnvironment(args.slice(inner.at), inv, depth);
  else if (sub !== undefined && !runs && !BUN_QUIET.has(sub)) shows ||= showsEnvironment(args.slice(top.at), inv, depth);
  return { files, shows, commands: [] };
};

const DENO_FILES = new Set(['--env-file']);
/** deno's options that take the next word (most take theirs after `=`: `--allow-read=dir`). */
const DENO_VALUED = new Set(['--import-map', '--config', '-c', '--location', '--seed', '--cert', '--ext']);
/** deno's commands that run a named file or task with the file; `eval`, `repl`, `compile` (which bakes the values into a binary) and stdin show. */
const DENO_RUNS = new Set(['run', 'serve', 'test', 'bench', 'task']);

/** `deno run --env-file=.env main.ts` (deno reads only `--env-file=FILE`: `--env-file FILE` runs FILE as the script). */
const deno: Reader = (args) => {
  const top = scan(args, 0, DENO_FILES, DENO_VALUED, true);
  const sub = args[top.at]?.value;
  const inner = sub !== undefined ? scan(args, top.at + 1, DENO_FILES, DENO_VALUED, true) : null;
  const files = [...top.files, ...(inner?.files ?? [])];
  if (!files.length) return null;
  const script = inner ? args[inner.at]?.value : undefined;
  const shows = sub === undefined || !DENO_RUNS.has(sub) || (sub !== 'task' && (script === undefined || script === '-'));
  return { files, shows, commands: [] };
};

const ENV_FILE = new Set(['--env-file']);
/** compose's commands that print no value the file gave: `up`, `down`, `logs` (the services' own output)… `config` prints the resolved file. */
const COMPOSE_QUIET = new Set([
  'up',
  'down',
  'start',
  'stop',
  'restart',
  'build',
  'pull',
  'push',
  'create',
  'rm',
  'kill',
  'pause',
  'unpause',
  'ps',
  'logs',
  'top',
  'images',
  'ls',
  'port',
  'events',
  'wait',
  'watch',
  'stats',
  'attach',
  'version',
  'scale',
]);
/** `docker compose config --services` (`--volumes`, `--profiles`, `--networks`): names, which the values do not fill in. */
function listsNames(args: readonly string[]): boolean {
  return args.length > 0 && args.every((a) => /^--(services|volumes|profiles|networks)$/.test(a));
}
/**
 * `docker run --env-file .env app` (create, exec; podman, nerdctl): the image's own command runs
 * unseen; a command given (`alpine env`, `app sh -c …`), an `--entrypoint`, or `-i` with the
 * image's own command (fed on stdin) may show. `docker compose --env-file .env up -d`: compose
 * fills the compose file in with the values; `config` prints it, `run`/`exec` judge their command.
 */
const container: Reader = (args, inv, depth, program) => {
  const values = args.map((w) => w.value);
  const { compose, at } = dockerSubcommand(program === 'docker-compose' ? program : 'docker', values);
  if (at < 0) return null;
  if (compose) {
    const files = namedFiles(args, 0, at);
    if (!files.length) return null;
    const sub = values[at]!;
    const shows =
      sub === 'run' || sub === 'exec'
        ? anyShows(args, scan(args, at + 1, ENV_FILE, CONTAINER_RUN_VALUED).at + 1, inv, depth)
        : !COMPOSE_QUIET.has(sub) && !(sub === 'config' && listsNames(values.slice(at + 1)));
    return { files, shows, commands: [] };
  }
  const sub = values[at] === 'container' ? at + 1 : at;
  if (!['run', 'create', 'exec'].includes(values[sub] ?? '')) return null;
  // an option this table does not know may have taken a value: every later `--env-file` counts too
  const files = namedFiles(args, sub + 1, args.length);
  if (!files.length) return null;
  const s = scan(args, sub + 1, ENV_FILE, CONTAINER_RUN_VALUED);
  const command = args.slice(s.at + 1);
  const entry = s.valued.get('--entrypoint');
  const interactive = [...s.flags].some((f) => f === '--interactive' || /^-[A-Za-z]*i/.test(f));
  const shows =
    (entry !== undefined && entry !== '' && showsEnvironment([plainWord(entry), ...command], inv, depth)) ||
    anyShows(args, s.at + 1, inv, depth) ||
    (interactive && !command.length);
  return { files, shows, commands: [] };
};

/** The words naming a file after `--env-file` (or in `--env-file=FILE`) in `args[from..to)`. */
function namedFiles(args: readonly Word[], from: number, to: number): Word[] {
  const out: Word[] = [];
  for (let i = from; i < to; i++) {
    const v = args[i]!.value;
    if (v.startsWith('--env-file=')) out.push(args[i]!);
    else if (v === '--env-file' && i + 1 < to) out.push(args[++i]!);
  }
  return out;
}

const DOTENV_PY_SUBS = new Set(['run', 'list', 'get', 'set', 'unset']);

/**
 * dotenv: dotenv-cli (`dotenv -e .env.local [-c [env]] [-v K=V] [-p KEY] [--] cmd …`: `-p`
 * prints a value) or python-dotenv (`dotenv [-f .env] run cmd …`; `list`, `get` print values).
 */
const dotenv: Reader = (args, inv, depth) => {
  const first = scan(args, 0, new Set(['-f', '--file']), new Set(['-q', '--quote', '-e', '--export', '-v', '-p', '-c']));
  const python =
    first.files.length > 0 || (!first.dashed && DOTENV_PY_SUBS.has(args[first.at]?.value ?? '') && !first.valued.has('-v') && !first.valued.has('-p'));
  if (python) {
    const s = scan(args, 0, new Set(['-f', '--file']), new Set(['-q', '--quote', '-e', '--export']));
    const sub = args[s.at]?.value;
    const cmd = sub === 'run' ? args.slice(scan(args, s.at + 1, new Set(), new Set()).at) : [];
    return { files: s.files, shows: sub !== 'run' || showsEnvironment(cmd, inv, depth), commands: sub === 'run' ? [cmd] : [] };
  }
  const s = scan(args, 0, new Set(['-e']), new Set(['-v', '-p']));
  // `-c [env]` takes a value only sometimes: without `--`, both readings of the word after it
  const readings = [args.slice(s.at)];
  const c = args.findIndex((w) => w.value === '-c');
  if (!s.dashed && c >= 0 && c + 1 === s.at && s.at < args.length) readings.push(args.slice(scan(args, s.at + 1, new Set(['-e']), new Set(['-v', '-p'])).at));
  const commands = readings.filter((r) => r.length);
  return { files: s.files, shows: s.valued.has('-p') || commands.some((r) => showsEnvironment(r, inv, depth)), commands };
};

/** `env-cmd [-f .env.local] [-r rc] [-e envs] [--] cmd …`: `-x` (`--expand-envs`) puts the values in the arguments, `--use-shell` hands the line to a shell. */
const envCmd: Reader = (args, inv, depth) => {
  const s = scan(args, 0, new Set(['-f', '--file', '-r', '--rc-file']), new Set(['-e', '--environments']));
  const cmd = args.slice(s.at);
  const expands = s.flags.has('-x') || s.flags.has('--expand-envs') || s.flags.has('--use-shell');
  return { files: s.files, shows: expands || showsEnvironment(cmd, inv, depth), commands: cmd.length ? [cmd] : [] };
};

const OP_VALUED = new Set(['--account', '--config', '--encoding', '--format', '--session', '--environment']);

/** 1Password's `op run [--env-file FILE] [--no-masking] -- cmd …`: its masking hides the secrets it resolves, not a file's plain values. */
const op: Reader = (args, inv, depth) => {
  const top = scan(args, 0, new Set(), OP_VALUED);
  if (args[top.at]?.value !== 'run') return null;
  const s = scan(args, top.at + 1, ENV_FILE, OP_VALUED);
  const cmd = args.slice(s.at);
  return { files: s.files, shows: showsEnvironment(cmd, inv, depth), commands: cmd.length ? [cmd] : [] };
};

/** The programs that take env files, by name. */
const PROGRAMS: Record<string, Reader> = {
  node,
  nodejs: node,
  tsx: node,
  bun,
  deno,
  docker: container,
  podman: container,
  nerdctl: container,
  'docker-compose': container,
  dotenv,
  'env-cmd': envCmd,
  op,
};
