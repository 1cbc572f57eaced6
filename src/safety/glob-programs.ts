import { globMatcher } from '../model/glob.ts';
import type { Invocation } from './command.ts';
import { SHELLS } from './command.ts';
import { REMOVAL_PROGRAM_NAMES } from './removers.ts';

/**
 * A command name that is a glob (docs/safety.md, "Shell commands are parsed, not grepped"): `/bin/r? -rf ~`,
 * `/???/?m -rf ~` — the shell expands it to the programs it names, and runs the first. Which one
 * the guard cannot tell (the folder's listing is the machine's), so the command is judged as each
 * program the rules single out that the name's last part matches (`rm` for `r?`, `?m`, `[r]m`,
 * `r*`), and denied when any of them would be with these arguments. A quoted name is no glob;
 * a name of wildcards alone (`*`, `/bin/??`) and a name matching none of them (`/bin/l?`) are
 * judged as before.
 */

/** The programs a glob is matched against: what the rules judge by a program's name — removers, shells, disk and mode tools, fetchers, interpreters, git. */
const GUARDED_PROGRAMS: readonly string[] = [
  'rm',
  ...REMOVAL_PROGRAM_NAMES,
  ...SHELLS,
  'dd',
  'mkfs',
  'wipefs',
  'shred',
  'truncate',
  'chmod',
  'chown',
  'mv',
  'cp',
  'tee',
  'cat',
  'curl',
  'wget',
  'nc',
  'git',
  'python',
  'python3',
  'perl',
  'ruby',
  'node',
  'php',
  'sudo',
  'find',
  'xargs',
  'eval',
  'crontab',
  'kill',
];

/** The invocations a glob command name may be (see the module comment): one for each guarded program it matches; none for a plain name. */
export function globProgramReadings(inv: Invocation | null): Invocation[] {
  // a name of wildcards alone (`*`, `??`) is the first file of the folder it lists, which no rule singles out
  if (!inv || !/[?*[]/.test(inv.program) || !/[A-Za-z0-9_.-]/.test(inv.program.replace(/\[[^\]]*\]/g, ''))) return [];
  const word = inv.command.words.find((w) => w.value.endsWith(inv.program) && w.glob);
  if (!word) return [];
  // matched in time linear in the name whatever the glob (`***…*.pem` would make a regular expression backtrack for ever)
  const matcher = globMatcher(inv.program, { braces: false });
  return [...new Set(GUARDED_PROGRAMS)].filter((p) => matcher.test(p)).map((program) => ({ ...inv, program }));
}
