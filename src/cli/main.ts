import yargs from 'yargs';
import { z } from 'zod';
import { AxmeError, USAGE_CODES } from '../model/errors.ts';
import { fileSystemError } from '../model/file-system-error.ts';
import { invalidInput } from '../model/validate.ts';
import { choiceError, emptyListError } from './choice-values.ts';
import { OPERATION_WORDS } from './command-index.ts';
import { commandWords } from './command-line.ts';
import { commandsOf, topLevelWords } from './command-tree.ts';
import { emptyWordProblem } from './empty-words.ts';
import { type CliIO, SilentExit, terminalIO } from './io.ts';
import { extraOperands, markOperands, unmarkedText, unmarkOperands } from './operand-words.ts';
import type { Command } from './operation-tree.ts';
import { DASH_VALUE_ADVICE, unknownOption } from './unknown-options.ts';

declare const AXME_VERSION: string | undefined;

/** A command line yargs could not parse (unknown command, bad flag value). */
class UsageError extends Error {}

/**
 * The commands a command line needs: those of its first word only, so that it loads only its own
 * modules (their cores load when a handler runs); every command for a line without a known one
 * (`--help`, a typo: suggestions come from all); none for `axme --version`.
 */
async function commandsFor(argv: string[], io: CliIO): Promise<Command[]> {
  if (argv.length === 1 && argv[0] === '--version') return [];
  const [word] = commandWords(argv);
  const all = topLevelWords();
  return commandsOf(io, word !== undefined && all.includes(word) ? [word] : all);
}

/**
 * Runs one axme command line. Returns the exit code: 0 ok, 1 failure, 2 usage or configuration
 * error. The only place errors become exit codes and messages.
 */
export async function run(argv: string[], io: CliIO): Promise<number> {
  // text from git (a remote's commit subjects) never drives the terminal: its control characters are shown as escapes
  io = terminalIO(io);
  const json = argv.includes('--json');
  // the words after `--` and a search's lone "-": operands, whatever they start with (operand-words.ts)
  const parsed = markOperands(argv, commandWords(argv)[0] === WORDS_COMMAND);
  // the parser, for its middleware: the options known once the command's builder ran (getOptions is yargs' own, untyped)
  let self: { getOptions(): { boolean: string[]; array: string[]; key: Record<string, unknown>; alias?: Record<string, string[]> } } | undefined;
  const parser = yargs()
    .scriptName('axme')
    .usage('axme <command>\n\nGit-native project knowledge for coding agents, kept on refs/memory/main.')
    .option('C', { type: 'string', describe: 'run as if started in this folder', global: true })
    .option('json', { type: 'boolean', describe: 'print the result as JSON', global: true })
    .command(await commandsFor(parsed, io))
    // every word marked as an operand back to itself, before anything reads the words
    .middleware(unmarkOperands, true)
    // a flag given a value yargs would silently read as false (--json=yes): a usage error instead
    .middleware(() => checkFlagValues(argv, self?.getOptions().boolean ?? []), true)
    // a value an option does not take, with the choice meant (choice-values.ts), before yargs' "Invalid values";
    // a list option named with no value (`--status` alone), which would filter by nothing
    .middleware((a) => {
      const choices = (self?.getOptions() as { choices?: Record<string, unknown[]> } | undefined)?.choices ?? {};
      const said = choiceError(a, choices, argv);
      if (said) throw new AxmeError('INVALID_INPUT', said);
      const bare = emptyListError(a, self?.getOptions().array ?? [], choices, argv);
      if (bare) throw new AxmeError('INVALID_INPUT', bare);
    }, true)
    // an empty positional word or -C "": a usage error for every command (empty-words.ts)
    .middleware((a) => {
      const said = emptyWordProblem(a, argv, self?.getOptions() ?? { key: {}, boolean: [] });
      if (said) throw new AxmeError('INVALID_INPUT', said);
    }, true)
    .demandCommand(1, 'say which command to run (axme --help lists them)')
    .recommendCommands()
    .strict()
    // positional words kept as written, not read as numbers (`axme search -- 1e3` looks for "1e3", not 1000; an all-digit commit stays its digits)
    .parserConfiguration({ 'dot-notation': false, 'parse-positional-numbers': false })
    .version(typeof AXME_VERSION === 'string' ? AXME_VERSION : 'dev')
    .help()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((msg, err, usage) => {
      // yargs reports its own usage problems as a message; errors from commands come as `err`.
      // Its third argument is the usage of the command that failed (typed as the parser)
      // an option's value refused as it was parsed (number-values.ts): yargs passes it on as its own YError, with the message kept
      if (err?.name === 'YError') throw new AxmeError('INVALID_INPUT', err.message);
      const line = usageLine(usage as unknown as YargsUsage);
      throw err ?? new UsageError(missingPositionals(msg, line) ?? extraOperands(msg, argv, line) ?? (msg && unmarkedText(msg)));
    });
  self = parser as unknown as typeof self;
  let helpShown = false;
  parser.showHelpOnFail(false);
  try {
    await positionalAsFlag(argv);
    await parser.parseAsync(parsed, {}, (err, _argv, output) => {
      if (output && !err) {
        helpShown = true;
        io.stdout.write(`${output}\n`);
      }
    });
    return 0;
  } catch (err) {
    if (helpShown) return 0;
    return report(
      io,
      err instanceof UsageError
        ? ((await misplacedVerb(argv)) ?? unknownCommand(err, argv) ?? (await unknownOptionFirst(err, argv, self?.getOptions() ?? null)))
        : err,
      json,
    );
  }
}

/**
 * The command whose words are free text, where a lone "-" is one of them (`axme search -`); in
 * any other command it is refused as before (an empty value, a usage error), never read as a
 * question's text or a folder's name.
 */
const WORDS_COMMAND = 'search';

/** What yargs' usage of a command says of it: its usage line, and its subcommands (a default one flagged). */
interface YargsUsage {
  getUsage(): Array<[line: string, describe: string]>;
  getCommands(): Array<[command: string, describe: string, isDefault: boolean, ...rest: unknown[]]>;
}

/** The usage line of the command that failed, with its default subcommand's positionals when it runs one (`$0 audit <transcript>`). */
function usageLine(usage: YargsUsage): string | undefined {
  const line = usage.getUsage()[0]?.[0];
  const byDefault = usage.getCommands().find((c) => c[2])?.[0];
  return line && byDefault ? `${line} ${byDefault.replace(/^\$0\s*/, '')}` : line;
}

/**
 * yargs' "Not enough non-option arguments: got 1, need at least 2" for a command whose positional
 * arguments were left out, said as what to give and the command's usage
 * (`give <transcript>: axme audit <transcript>`); undefined for any other message.
 */
export function missingPositionals(msg: string | undefined, usage: string | undefined): string | undefined {
  const m = /^Not enough non-option arguments: got (\d+), need at least \d+$/.exec(msg ?? '');
  if (!m || !usage) return undefined;
  const line = usage.replace(/^\$0\b/, 'axme');
  const missing = (line.match(/<[^>]+>/g) ?? []).slice(Number(m[1]));
  if (!missing.length) return undefined;
  const names = missing.length > 1 ? `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}` : missing[0];
  return `give ${names}: ${line}`;
}

/**
 * A subcommand's word given as the command (`axme add decision`, `axme list`): the commands that
 * have it, said instead of the top-level word spelt nearest (yargs' "Did you mean audit?"). The
 * one whose group is also on the line is named alone. Undefined when the command word is known,
 * or no group has it.
 */
async function misplacedVerb(argv: string[]): Promise<UsageError | undefined> {
  const [verb] = commandWords(argv);
  if (!verb || topLevelWords().includes(verb)) return undefined;
  const groups: string[] = [];
  for (const [group, load] of Object.entries(OPERATION_WORDS))
    if ((await load()).some(({ cli }) => cli?.command.length === 2 && cli.command[0] === group && (cli.command[1] === verb || cli.aliases?.includes(verb))))
      groups.push(group);
  if (!groups.length) return undefined;
  const named = groups.find((g) => argv.includes(g));
  if (named) return new UsageError(`"${verb}" is not a command: did you mean axme ${named} ${verb}?`);
  const list = groups.length > 1 ? `${groups.slice(0, -1).join(', ')} and ${groups.at(-1)}` : groups[0];
  return new UsageError(`"${verb}" is not a command: it is a subcommand of ${list} (${groups.map((g) => `axme ${g} ${verb}`).join(', ')})`);
}

/**
 * A first word that is no command and that yargs found none spelt near (`axme frobnicate`): said
 * as such, instead of "Unknown argument" and the advice about values that start with "-".
 */
function unknownCommand(err: UsageError, argv: string[]): UsageError | undefined {
  const [word] = commandWords(argv);
  const m = /^Unknown arguments?: (.*)$/.exec(err.message);
  if (!word || !m || topLevelWords().includes(word) || !m[1]!.split(', ').includes(word)) return undefined;
  return new UsageError(`"${word}" is not a command`);
}

/**
 * An option the command does not know, named before whatever yargs said (a required option left
 * out is most often the one misspelt: `--titel` for `--title`), with the known one spelt nearest.
 */
async function unknownOptionFirst(
  err: UsageError,
  argv: readonly string[],
  options: { key: Record<string, unknown>; boolean?: string[] } | null,
): Promise<UsageError> {
  if (!options) return err;
  const shape = await commandShape(argv);
  const said = unknownOption(argv, Object.keys(options.key), options.boolean, shape.takesWords, shape.positionals);
  return said ? new UsageError(said) : err;
}

/**
 * Refuses a command's word given as an option too (`axme question ask "Which region?" --question
 * "Which cloud?"`): yargs would take one and drop the other without a word. Loaded only for a
 * command line that holds an option.
 */
async function positionalAsFlag(argv: readonly string[]): Promise<void> {
  if (!argv.some((a) => a.startsWith('--') && a.length > 2)) return;
  const words = commandWords([...argv]);
  const load = words[0] !== undefined && Object.hasOwn(OPERATION_WORDS, words[0]) ? OPERATION_WORDS[words[0]] : undefined;
  if (!load) return;
  const op = (await load()).find((o) => o.cli?.command.join(' ') === words.join(' '));
  if (!op) return;
  const said = (await import('./operation-command.ts')).positionalFlag(op, argv);
  if (said) throw new AxmeError('INVALID_INPUT', said);
}

/**
 * What an unknown option's message needs of the command the line runs: whether it takes free words
 * (`axme search <query..>`: an unknown `--word` there may be one of them), and the names of its
 * words after the command (`<answer>`), which yargs counts among its options but are none.
 */
async function commandShape(argv: readonly string[]): Promise<{ takesWords: boolean; positionals: string[] }> {
  const words = commandWords([...argv]);
  const load = words[0] !== undefined && Object.hasOwn(OPERATION_WORDS, words[0]) ? OPERATION_WORDS[words[0]] : undefined;
  const op = load ? (await load()).find((o) => o.cli?.command.join(' ') === words.join(' ')) : undefined;
  if (!op?.cli) return { takesWords: false, positionals: [] };
  const { cliName } = await import('./operation-command.ts');
  return { takesWords: op.cli.variadic === true, positionals: (op.cli.positional ?? []).map((f) => cliName(op, String(f))) };
}

/**
 * Refuses `--flag=<value>` for a boolean option unless the value is true or false: yargs reads any
 * other value (`--json=yes`, `--dry-run=1`) as false, and the command would run without the flag.
 */
export function checkFlagValues(argv: readonly string[], booleans: readonly string[]): void {
  const flags = new Set(booleans);
  for (const arg of argv) {
    if (arg === '--') break;
    const m = /^--(?:no-)?([^=]+)=(.*)$/s.exec(arg);
    if (!m || !flags.has(m[1]!) || m[2] === 'true' || m[2] === 'false') continue;
    throw new UsageError(`--${m[1]} is a flag: give it alone (--${m[1]}) or as --${m[1]}=true or --${m[1]}=false, not ${JSON.stringify(m[2]!.slice(0, 40))}`);
  }
}

/** Prints a failed command's error (text or --json) on stderr; returns its exit code. */
export function report(io: CliIO, err: unknown, json: boolean): number {
  if (err instanceof SilentExit) return err.code;
  // the file system's refusal (a git folder this user may not write, a full disk) is said as such, not as a bug
  err = fileSystemError(err) ?? err;
  let code: number;
  let payload: { code: string; message: string; data?: Record<string, unknown> };
  if (err instanceof z.ZodError) {
    // input that reached a schema unchecked: still the user's input (exit 2), said in words; the
    // check belongs at the boundary (parseInput), so with AXME_DEBUG it is reported as the bug it is
    const e = invalidInput(err, 'input');
    code = 2;
    payload = { code: e.code, message: e.message, data: e.data };
  } else if (err instanceof AxmeError) {
    code = USAGE_CODES.has(err.code) ? 2 : 1;
    payload = { code: err.code, message: err.message, data: err.data };
  } else if (err instanceof UsageError) {
    code = 2;
    const dash = /^Unknown arguments?:/.test(err.message) ? `; ${DASH_VALUE_ADVICE}` : '';
    payload = { code: 'USAGE', message: `${err.message}${dash} (see axme --help, or axme <command> --help)` };
  } else {
    code = 1;
    const e = err instanceof Error ? err : new Error(String(err));
    payload = { code: 'INTERNAL', message: `internal error: ${e.message}${io.env.AXME_DEBUG ? `\n${e.stack}` : ' (set AXME_DEBUG=1 for the stack trace)'}` };
  }
  io.stderr.write(json ? `${JSON.stringify({ error: payload })}\n` : `axme: ${payload.message}\n`);
  if (err instanceof z.ZodError && io.env.AXME_DEBUG)
    io.stderr.write(
      `axme: a bug: this input should have been checked before it reached the core (parseInput in src/model/validate.ts); please report it\n${err.stack}\n`,
    );
  return code;
}
