import { type Invocation, programName } from '../command.ts';
import type { Hit } from './args.ts';

/**
 * History rewriters run as programs of their own (docs/safety.md, the `gitHistory` row), read as
 * `git filter-repo` is: BFG Repo-Cleaner (`bfg --strip-blobs-bigger-than 100M`, and as its
 * download is run, `java -jar bfg-1.14.0.jar --delete-files id_rsa`), and git's rewriters called
 * by their own names (`git-filter-repo --path x --invert-paths`, `git-filter-branch`). Each
 * rewrites every commit of the branches it reaches; a push then replaces them for everyone.
 * Their help, versions and filter-repo's `--analyze` and `--dry-run` change nothing.
 */

/** The rewriters' program names (a path's last part, a jar's name without its version). */
const REWRITERS: Readonly<Record<string, string>> = {
  bfg: 'BFG rewrites every commit of the repository, dropping the files and text it is told to',
  'git-filter-repo': '`git filter-repo` rewrites every commit of the branches it is given',
  'git-filter-branch': '`git filter-branch` rewrites every commit of the branches it is given',
};

/** Words that make the run change nothing. */
const READ_ONLY = new Set(['-h', '--help', '-v', '--version', '--analyze', '--dry-run']);

/** The program a `java -jar FILE.jar` runs, by the jar's name without its version (`bfg-1.14.0.jar` -> `bfg`), and the words after it. */
function jarRun(inv: Invocation): { program: string; args: string[] } | null {
  if (programName(inv.program) !== 'java') return null;
  const args = inv.args.map((w) => w.value);
  const at = args.indexOf('-jar');
  const jar = at >= 0 ? args[at + 1] : undefined;
  if (!jar) return null;
  const name = jar.slice(jar.lastIndexOf('/') + 1).replace(/\.jar$/i, '');
  return { program: name.replace(/[-_.]v?\d[\w.-]*$/, '').toLowerCase(), args: args.slice(at + 2) };
}

/** What such a rewriter would do, as a hit, or null for any other command. */
export function checkHistoryRewriter(inv: Invocation): Hit | null {
  const run = jarRun(inv) ?? { program: programName(inv.program), args: inv.args.map((w) => w.value) };
  const what = Object.hasOwn(REWRITERS, run.program) ? REWRITERS[run.program] : undefined;
  if (!what || !run.args.length || run.args.some((a) => READ_ONLY.has(a))) return null;
  return { rule: run.program, reason: `${what}, and a push then replaces them for everyone who fetches them` };
}
