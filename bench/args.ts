/**
 * Reading a benchmark's command line, with nothing else loaded: a script that checks its options
 * before it imports the code it measures answers a usage error (exit 2) at the cost of Node's start.
 */

/** `--name value` from the command line, or the default. */
export function argOf(argv: string[], name: string, fallback: string): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
}
