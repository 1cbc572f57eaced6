import { operandAt } from './argv.ts';
import { BY_NAME, CLIENT_COMMANDS } from './npm-client-commands.ts';
import { runnerValued } from './runner-words.ts';

/**
 * The package scripts a package manager's command runs (`npm run x`, `npm test`, `yarn x`, `pnpm
 * x`, an install's lifecycle scripts), read by written-scripts.ts from a package.json the line
 * writes and by project-scripts.ts from the project's.
 */

/** A client's options that take a value: the runners' (pnpm's `-w` takes none) and `--script-shell` (`npm run --script-shell sh x`). */
const SCRIPT_VALUED = new Map(['npm', 'pnpm', 'yarn', 'bun'].map((p) => [p, new Set([...runnerValued(p), '--script-shell'])]));
const scriptValued = (program: string): ReadonlySet<string> => SCRIPT_VALUED.get(program) ?? SCRIPT_VALUED.get('npm')!;

/** The package scripts an install runs of the project's own package.json. */
export const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

/** npm's commands that run the package script of their name (`npm test` is `npm run test`), with their short spellings. */
const NPM_SCRIPT_COMMANDS: Record<string, string> = { start: 'start', test: 'test', t: 'test', tst: 'test', stop: 'stop', restart: 'restart' };
const NPM_RUN = new Set(['run', 'run-script', 'rum', 'urn']);
const NPM_INSTALL = new Set(['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'ci', 'clean-install']);

/** The folder a client's options name for its package.json (`npm --prefix web run x`, `pnpm -C web x`, `yarn --cwd web x`). */
export function clientFolder(args: readonly string[]): string | null {
  let dir: string | null = null;
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    const a = args[i]!;
    const eq = /^--(?:prefix|dir|cwd)=(.+)$/.exec(a);
    if (eq) dir = eq[1]!;
    else if (['--prefix', '-C', '--dir', '--cwd'].includes(a)) dir = args[++i] ?? null;
  }
  return dir;
}

/** Words of the clients' commands (CLIENT_COMMANDS) that are no command of this client, so run the package script of that name (`yarn build`, `pnpm build`). */
const SCRIPT_WORDS: Record<string, ReadonlySet<string>> = {
  yarn: new Set(['build', 'deploy', 'ci', 'doctor', 'setup', 'server', 'prune']),
  pnpm: new Set(['build']),
};

/** The package scripts a command runs: their names, the one the words after it are handed (`main`, an index in `names`; -1 for none), those words, and the folder its options name. */
export interface PackageScripts {
  names: string[];
  main: number;
  passed: string[];
  dir: string | null;
}

/**
 * The scripts of package.json a package manager's command runs, by name, with the folder its
 * options name for that package.json (written-scripts.ts reads the ones the line set itself,
 * project-scripts.ts the project's): `npm run x` (its `prex` and `postx` too), `npm
 * test|start|stop|restart`, `pnpm|yarn|bun run x`, `pnpm x` and `yarn x` where `x` is none of
 * their commands, and an install's lifecycle scripts (`npm install`, `npm ci`, `pnpm install`,
 * `yarn`). The words after the script's name are handed to it (npm's own options before `--`
 * are npm's). Null for another program or command.
 */
export function packageScripts(program: string, args: readonly string[]): PackageScripts | null {
  if (program !== 'npm' && !BY_NAME.has(program)) return null;
  const valued = scriptValued(program);
  const i = operandAt(args, valued);
  const sub = i < 0 ? null : args[i]!;
  const dir = clientFolder(args);
  const around = (name: string, at: number): PackageScripts => ({
    names: [`pre${name}`, name, `post${name}`],
    main: 1,
    passed: passedWords(program, args, at),
    dir,
  });
  // `npm install --ignore-scripts`: the install runs none of them (the last of the option's spellings decides)
  const ignored = args.filter((a) => /^--ignore-scripts(?:=|$)/.test(a)).at(-1);
  const install: PackageScripts | null = ignored && ignored !== '--ignore-scripts=false' ? null : { names: INSTALL_SCRIPTS, main: -1, passed: [], dir };
  if (sub === null) return program === 'yarn' ? install : null;
  if (NPM_RUN.has(sub) && (program === 'npm' || sub === 'run')) {
    const name = operandAt(args, valued, i + 1);
    return name < 0 ? null : around(args[name]!, name);
  }
  if (NPM_INSTALL.has(sub) && program !== 'bun') return operandAt(args, valued, i + 1) < 0 ? install : null;
  const scriptWord = SCRIPT_WORDS[program]?.has(sub) ?? false;
  if (program === 'npm' || program === 'pnpm')
    return NPM_SCRIPT_COMMANDS[sub] && !(program === 'pnpm' && sub === 't')
      ? around(NPM_SCRIPT_COMMANDS[sub], i)
      : program === 'pnpm' && (!CLIENT_COMMANDS.has(sub) || scriptWord)
        ? around(sub, i)
        : null;
  if (program === 'yarn' && (sub === 'test' || sub === 'start')) return around(sub, i);
  return (CLIENT_COMMANDS.has(sub) && !scriptWord) || sub.includes('/') ? null : around(sub, i);
}

/** The words a script is handed after its name at `at`: all of them (a first `--` dropped), but npm's own options before `--`. */
function passedWords(program: string, args: readonly string[], at: number): string[] {
  const rest = args.slice(at + 1);
  const dash = rest.indexOf('--');
  if (program !== 'npm') return dash === 0 ? rest.slice(1) : rest;
  const before = dash < 0 ? rest : rest.slice(0, dash);
  const out: string[] = [];
  for (let k = 0; k < before.length; k++) {
    if (!before[k]!.startsWith('-')) out.push(before[k]!);
    else if (scriptValued(program).has(before[k]!)) k++;
  }
  return dash < 0 ? out : [...out, ...rest.slice(dash + 1)];
}

/** The scripts of a package.json's text, or null where it is no JSON object. */
export function scriptsOf(text: string): Map<string, string> | null {
  try {
    const json = JSON.parse(text) as { scripts?: unknown };
    const scripts = json && typeof json === 'object' && json.scripts && typeof json.scripts === 'object' ? json.scripts : {};
    return new Map(Object.entries(scripts).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return null;
  }
}
