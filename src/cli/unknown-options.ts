import { eitherOf, nearNames } from '../model/near-names.ts';

/** The advice when an unknown option may be a value yargs read as one. */
export const DASH_VALUE_ADVICE =
  'a value that starts with "-" must be attached (--title="-x") or read with --stdin; words to search follow -- (axme search -- --no-verify)';

/** Options every command has: left out when a command's own are listed. */
const EVERY_COMMAND = new Set(['help', 'version', 'json', 'C']);

/**
 * The first long option on the command line (before `--`) that the command does not know, as a
 * usage error's message naming it and the known option spelt nearest (`--titel is not an option: did you
 * mean --title?`), else the command's own options; undefined when every option is known. Asked
 * before yargs' own message, which names a required option left out (`Missing required argument:
 * title`) before the unknown one that is why it is missing. Where the unknown word follows an
 * option that takes a value (`--title --draft`), or the command takes free words (`takesWords`:
 * `axme search --no-verify`), it may be that value or a word: how to give one is said too. The
 * command's words (`positionals`: `<answer>`), which yargs counts among the names it knows, are
 * never offered as options: `--answer` would be refused in turn.
 */
export function unknownOption(
  argv: readonly string[],
  known: Iterable<string>,
  flags: Iterable<string> = [],
  takesWords = false,
  positionals: Iterable<string> = [],
): string | undefined {
  const names = new Set(known);
  const booleans = new Set(flags);
  const words = new Set([...positionals].flatMap((p) => [p, camel(p), p.replace(/_/g, '-')]));
  // the options as the command line spells them: yargs' camel-case copies (titleText beside title-text) are never offered
  const spelt = [...names].filter((k) => !/[A-Z]/.test(k) && !words.has(k));
  for (const [i, arg] of argv.entries()) {
    if (arg === '--') break;
    const m = /^--([^=]+)/.exec(arg);
    if (!m) continue;
    const name = m[1]!;
    if (names.has(name) || names.has(camel(name)) || (name.startsWith('no-') && names.has(name.slice(3)))) continue;
    const meant = nearNames(name, spelt);
    if (meant.length) return `--${name} is not an option: did you mean ${eitherOf(meant.map((m) => `--${m}`))}?`;
    // near one of the command's words: said as the word it is, given after the command
    const word = nearNames(name, [...positionals]);
    if (word.length) return `--${name} is not an option: did you mean <${word[0]}>? It is a word after the command, not an option`;
    const before = /^--([^=]+)$/.exec(argv[i - 1] ?? '')?.[1];
    const maybeValue = takesWords || (before !== undefined && names.has(before) && !booleans.has(before));
    const own = spelt.filter((k) => k.length > 1 && !EVERY_COMMAND.has(k));
    return `--${name} is not an option${own.length ? `; the options here: ${own.map((k) => `--${k}`).join(', ')}` : ''}${maybeValue ? `; ${DASH_VALUE_ADVICE}` : ''}`;
  }
  return undefined;
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
