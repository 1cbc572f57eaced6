/**
 * Reading a benchmark's command line, with nothing else loaded: a script that checks its options
 * before it imports the code it measures answers a usage error (exit 2) at the cost of Node's start.
 */

/** `--name value` from the command line, or the default. */
export function argOf(argv: string[], name: string, fallback: string): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
}

/**
 * `--name N` as a whole number of at least `min`, or the default; anything else is a usage error
 * (what the option takes, on stderr, and exit 2) before the run seeds or starts anything.
 */
export function wholeArg(script: string, argv: string[], name: string, fallback: number, min = 1): number {
  const given = argOf(argv, name, String(fallback));
  const n = Number(given);
  if (!/^\d+$/.test(given) || n < min) usageError(script, `--${name} takes a whole number of at least ${min}; got ${given}`);
  return n;
}

/** `--name N,M,...`: whole numbers of at least `min`, comma-separated, or the default; anything else a usage error as for wholeArg. */
export function wholeListArg(script: string, argv: string[], name: string, fallback: string, min = 1): number[] {
  const given = argOf(argv, name, fallback);
  const list = given.split(',');
  if (!list.every((s) => /^\d+$/.test(s) && Number(s) >= min))
    usageError(script, `--${name} takes whole numbers of at least ${min}, comma-separated (e.g. ${fallback}); got ${given}`);
  return list.map(Number);
}

/** A benchmark's usage error: the message on stderr, exit 2. */
export function usageError(script: string, message: string): never {
  process.stderr.write(`${script}: ${message}\n`);
  process.exit(2);
}
