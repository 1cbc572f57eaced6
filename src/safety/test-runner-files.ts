import type { Lang } from './families/interpreter-argv.ts';

/**
 * The programs that run files of a language without being its interpreter (written-scripts.ts):
 * test runners, which import each test file they are named (`node --test x.test.mjs`, `pytest
 * test_x.py`, `bun test`, `deno test`, `jest`, `mocha`, `vitest run`), and the TypeScript runners
 * (`tsx x.ts`, `ts-node x.ts`, `vite-node`, `esno`), which run a file as node runs one. A file the
 * line wrote and then named to one of them is run as its language's program is (`node x.mjs`,
 * `python3 x.py`). Every word that is not an option is taken for a file: a word that names no
 * file the line wrote reads nothing.
 */

/** The program a file's text is read as, and its language (written-scripts.ts's interpreter reading). */
export interface RunnerFiles {
  program: string;
  lang: Lang;
  /** the indices of the words that may name a file it runs */
  files: number[];
}

/** Programs that run the files they are named, and the language each reads them as. */
const RUNS_FILES: Readonly<Record<string, { program: string; lang: Lang }>> = {
  tsx: { program: 'node', lang: 'js' },
  'ts-node': { program: 'node', lang: 'js' },
  'ts-node-esm': { program: 'node', lang: 'js' },
  'vite-node': { program: 'node', lang: 'js' },
  esno: { program: 'node', lang: 'js' },
  esrun: { program: 'node', lang: 'js' },
  jiti: { program: 'node', lang: 'js' },
  jest: { program: 'node', lang: 'js' },
  mocha: { program: 'node', lang: 'js' },
  vitest: { program: 'node', lang: 'js' },
  ava: { program: 'node', lang: 'js' },
  tap: { program: 'node', lang: 'js' },
  pytest: { program: 'python3', lang: 'python' },
  'py.test': { program: 'python3', lang: 'python' },
};

/** Interpreters whose `test` verb or `--test` option runs the files named after it as test files. */
const TEST_MODES: Readonly<Record<string, { program: string; lang: Lang; at: (args: readonly string[]) => number }>> = {
  node: { program: 'node', lang: 'js', at: (a) => a.indexOf('--test') },
  nodejs: { program: 'node', lang: 'js', at: (a) => a.indexOf('--test') },
  bun: { program: 'node', lang: 'js', at: (a) => a.indexOf('test') },
  deno: { program: 'node', lang: 'js', at: (a) => a.indexOf('test') },
  python: { program: 'python3', lang: 'python', at: pytestModule },
  python3: { program: 'python3', lang: 'python', at: pytestModule },
};

/** `python -m pytest …`: where the module's name stands, or -1. */
function pytestModule(args: readonly string[]): number {
  const m = args.findIndex((v, i) => (v === '-m' && /^py\.?test$/.test(args[i + 1] ?? '')) || /^-mpy\.?test$/.test(v));
  return m < 0 ? -1 : args[m] === '-m' ? m + 1 : m;
}

/** What `program ARGS` runs of the files it is named, or null when it is no such runner. */
export function runnerFiles(program: string, args: readonly string[]): RunnerFiles | null {
  const files = (from: number) => args.map((_, i) => i).filter((i) => i > from && !args[i]!.startsWith('-'));
  if (Object.hasOwn(RUNS_FILES, program)) return { ...RUNS_FILES[program]!, files: files(-1) };
  if (!Object.hasOwn(TEST_MODES, program)) return null;
  const mode = TEST_MODES[program]!;
  const at = mode.at(args);
  return at < 0 ? null : { program: mode.program, lang: mode.lang, files: files(at) };
}
