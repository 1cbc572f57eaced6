/**
 * Reading a command line before yargs does, to know which command it runs: main.ts then loads
 * only that command's module, and the loader (cli-loader.ts) picks that command's code cache.
 * No imports: the loader's small bundle includes this file.
 */

/**
 * Top-level commands with subcommands (`decision add`): a code cache per subcommand. Generated
 * from the operations' command words and the hand-written groups (scripts/command-index.ts).
 */
// generated:groups
// biome-ignore format: written by npm run docs (scripts/command-index.ts)
export const GROUPS: ReadonlySet<string> = new Set([
  'audit',
  'backlog',
  'decision',
  'export',
  'import',
  'memory',
  'models',
  'oracle',
  'question',
  'safety',
  'session',
  'token',
]);
// /generated

/**
 * The words of the command a line runs, when only global options come before it (`-C <dir>`,
 * `--json`): its command word, and the next word too when that command is a group (`decision
 * add`). None otherwise: `--help`, `--version`, an unknown option or no command at all need the
 * whole command table (the help lists every command, a typo gets suggestions from all of them).
 */
export function commandWords(argv: string[]): string[] {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-C' || a === '--C') i++;
    else if (a === '--json' || a === '--no-json' || a.startsWith('-C') || a.startsWith('--C=')) continue;
    else if (a.startsWith('-')) return [];
    else return GROUPS.has(a) && /^[a-z][a-z-]*$/.test(argv[i + 1] ?? '') ? [a, argv[i + 1]!] : [a];
  }
  return [];
}
