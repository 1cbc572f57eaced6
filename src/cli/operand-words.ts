import { commandWords } from './command-line.ts';

/**
 * Words a command line gives as operands, whatever they look like: every word after `--` (the end
 * of options, as POSIX and git read it: `axme question show -- Q-002`, `axme search -- --no-verify`),
 * and in `axme search` a lone "-" (`axme search -`). yargs fills no positional from the words after
 * `--` (it keeps them apart until the command's own words are read, so the command lacked them), and
 * it drops a lone "-"; so, before yargs reads the line, each such word is marked — OPERAND before
 * it, a character no command line can hold — which makes it a plain word to yargs whatever it
 * starts with, and the mark is taken off (unmarkOperands) before anything else reads the words.
 */
export const OPERAND = '\u0000';

/**
 * The command line with the words after its first `--` marked (the `--` itself dropped) when a
 * command comes before it, and with `loneDashes` each lone "-" before it that is not an option's
 * value (it follows a word, or --json): an option's "-" (`--title -`) is left to yargs.
 */
export function markOperands(argv: readonly string[], loneDashes: boolean): string[] {
  const end = argv.indexOf('--');
  const operandAfter = (w: string | undefined) => w === undefined || w === '-' || !w.startsWith('-') || w === '--json' || w === '--no-json' || w.includes('=');
  const before = (end < 0 ? argv : argv.slice(0, end)).map((a, i) => (loneDashes && a === '-' && operandAfter(argv[i - 1]) ? `${OPERAND}-` : a));
  // `axme -- status`: no command before `--`, nothing to give words to
  if (end < 0 || !commandWords(argv.slice(0, end)).length) return end < 0 ? before : [...before, ...argv.slice(end)];
  return [...before, ...argv.slice(end + 1).map((w) => `${OPERAND}${w}`)];
}

/** The parsed command line with every marked word back to the word it stands for (a yargs middleware, run before any other). */
export function unmarkOperands(a: Record<string, unknown>): void {
  const back = (v: unknown): unknown => (typeof v === 'string' && v.startsWith(OPERAND) ? v.slice(OPERAND.length) : Array.isArray(v) ? v.map(back) : v);
  for (const key of Object.keys(a)) a[key] = back(a[key]);
}

/** A message of yargs' that quotes a marked word, with the word as it was typed. */
export const unmarkedText = (text: string): string => text.replaceAll(OPERAND, '');

/**
 * yargs' "Unknown argument: b" when the words it names came after `--`, beyond the words the
 * command takes (`axme sync -- origin upstream`), said as that with the command's usage
 * (`"upstream" is one word too many: axme sync [remote]`); undefined for any other message.
 */
export function extraOperands(msg: string | undefined, argv: readonly string[], usage: string | undefined): string | undefined {
  const m = /^Unknown arguments?: (.*)$/s.exec(msg ?? '');
  const end = argv.indexOf('--');
  if (!m || end < 0 || !usage) return undefined;
  const after = argv.slice(end + 1);
  const extra = m[1]!.split(', ').map(unmarkedText);
  if (!extra.every((w) => after.includes(w))) return undefined;
  const words = extra.map((w) => JSON.stringify(w)).join(', ');
  return `${words} ${extra.length === 1 ? 'is one word' : 'are words'} too many: ${usage.replace(/^\$0\b/, 'axme')}`;
}
