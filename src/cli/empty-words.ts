import { commandWords } from './command-line.ts';

/** Commands whose words are passed on as they came: git gives a hook its arguments as they are (a push's URL may be empty). */
const PASSED_ON = new Set(['git-hook']);

/** What yargs tells of a command's options: their names and which are flags. */
interface KnownOptions {
  key: Record<string, unknown>;
  boolean: string[];
  alias?: Record<string, string[]>;
}

/**
 * An empty word where a command wants a value, said as a usage error, or undefined: `-C ""` (which
 * would run in the current folder instead of the one meant) and an empty positional word
 * (`axme token revoke ""`, `axme decision show ""`), which no command takes: each is refused
 * before the command runs, the same way for every command. `args` is the parsed command line (a
 * yargs middleware's), `argv` the words as typed. An option's own empty value (`--reasoning ""`)
 * is the option's business: some clear a field with it.
 */
export function emptyWordProblem(args: Record<string, unknown>, argv: readonly string[], options: KnownOptions): string | undefined {
  const empty = (v: unknown) => v === '' || (Array.isArray(v) && v.includes(''));
  if (empty(args.C)) return '-C takes a folder, not "": give the folder to run in, or leave -C out';
  const words = commandWords([...argv]);
  if (PASSED_ON.has(words[0] ?? '') || !emptyOperand(argv, options)) return undefined;
  const typed = new Set(argv.filter((a) => a.startsWith('-')).map((a) => a.replace(/^-+/, '').split('=')[0]!));
  const asOption = (k: string) => typed.has(k) || (options.alias?.[k] ?? []).some((x) => typed.has(x));
  const key = Object.keys(args).find((k) => k !== '_' && k !== '$0' && !/[A-Z]/.test(k) && empty(args[k]) && !asOption(k));
  return key ? `<${key}> is given as "": give a value` : 'an empty word ("") is no value here: leave it out or give one';
}

/** True when an empty word on the line stands where a positional goes: not an option's value (`--title ""`). */
function emptyOperand(argv: readonly string[], options: KnownOptions): boolean {
  let ended = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') ended = true;
    // the words after -- are the command's, as written (a search's query): it says what an empty one lacks
    if (a !== '' || ended) continue;
    const before = argv[i - 1];
    if (before === undefined || !before.startsWith('-') || before === '--' || before.includes('=')) return true;
    const name = before.replace(/^-+/, '').replace(/^no-/, '');
    if (options.boolean.includes(name)) return true;
  }
  return false;
}
