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
 * `axme search --no-verify`), it may be that value or a word: how to give one is said too.
 */
export function unknownOption(argv: readonly string[], known: Iterable<string>, flags: Iterable<string> = [], takesWords = false): string | undefined {
  const names = new Set(known);
  const booleans = new Set(flags);
  for (const [i, arg] of argv.entries()) {
    if (arg === '--') break;
    const m = /^--([^=]+)/.exec(arg);
    if (!m) continue;
    const name = m[1]!;
    if (names.has(name) || names.has(camel(name)) || (name.startsWith('no-') && names.has(name.slice(3)))) continue;
    const meant = nearest(name, names);
    if (meant) return `--${name} is not an option: did you mean --${meant}?`;
    const before = /^--([^=]+)$/.exec(argv[i - 1] ?? '')?.[1];
    const maybeValue = takesWords || (before !== undefined && names.has(before) && !booleans.has(before));
    const own = [...names].filter((k) => k.length > 1 && !/[A-Z]/.test(k) && !EVERY_COMMAND.has(k));
    return `--${name} is not an option${own.length ? `; the options here: ${own.map((k) => `--${k}`).join(', ')}` : ''}${maybeValue ? `; ${DASH_VALUE_ADVICE}` : ''}`;
  }
  return undefined;
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The known long option closest to `name` by edits (at most 2, and fewer than a third of its length), or a singular/plural of it; undefined when none is that close. */
function nearest(name: string, known: Set<string>): string | undefined {
  let best: string | undefined;
  let bestD = Math.min(2, Math.ceil(name.length / 3));
  for (const k of known) {
    if (k.length < 2 || /[A-Z]/.test(k)) continue; // one-letter aliases and yargs' camel-case copies
    const d = k === name.replace(/s$/, '') || k === `${name}s` ? 0 : edits(name, k, bestD);
    if (d < bestD || (d === bestD && best === undefined)) {
      best = k;
      bestD = d;
    }
  }
  return best;
}

/** Damerau-Levenshtein distance (adjacent swaps count one), or more than `max` when it exceeds it. */
function edits(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
