import type { Invocation } from './command.ts';
import { globAlternatives } from './paths.ts';
import { plainWord, type Word } from './syntax.ts';

/**
 * The programs of the npm world and the desktop that remove what they are handed, read as the
 * command whose rules they get: `rimraf`, `del-cli` and `del` are `rm -rf` of their operands (a
 * quoted pattern is theirs to expand: `del-cli '~/**'`); a trash (`trash` of trash-cli, `trash-put`)
 * moves its operands into the bin, taken away from where they were as `mv` takes them.
 */

/** How each removal program is read: its options that take a value, and what it does to its operands. */
const REMOVAL_PROGRAMS: Record<string, { valued: readonly string[]; reads: 'rm' | 'mv' }> = {
  rimraf: { valued: ['--impl'], reads: 'rm' },
  'del-cli': { valued: [], reads: 'rm' },
  del: { valued: [], reads: 'rm' },
  trash: { valued: [], reads: 'mv' },
  'trash-put': { valued: ['--trash-dir'], reads: 'mv' },
};

/** The names of the removal programs: what they name, they remove (path-access.ts). */
export const REMOVAL_PROGRAM_NAMES: readonly string[] = Object.keys(REMOVAL_PROGRAMS);

/** The removal programs that remove what they are handed as `rm -rf` does (`rimraf`, `del-cli`, `del`). */
export const RM_LIKE_PROGRAMS: readonly string[] = REMOVAL_PROGRAM_NAMES.filter((p) => REMOVAL_PROGRAMS[p]!.reads === 'rm');

/** Whether `program` (a base name) is one of them: for what xargs or find -exec hands it. */
export function removesAsRm(program: string): boolean {
  return RM_LIKE_PROGRAMS.includes(program);
}

/**
 * A removal program's command as the command it amounts to: `rimraf a b` as `rm -rf -- a b`
 * (with `--no-preserve-root` kept), `trash a` as `mv -t <the bin> -- a`; null for any other program.
 */
export function removalReading(inv: Invocation): Invocation | null {
  const spec = REMOVAL_PROGRAMS[inv.program];
  if (!spec) return null;
  const operands: Word[] = [];
  let noPreserveRoot = false;
  let optionsEnd = false;
  for (let i = 0; i < inv.args.length; i++) {
    const w = inv.args[i]!;
    if (!optionsEnd && w.value === '--') optionsEnd = true;
    else if (!optionsEnd && w.value === '--no-preserve-root') noPreserveRoot = true;
    else if (!optionsEnd && spec.valued.includes(w.value)) i++;
    else if (!optionsEnd && w.value.startsWith('-') && w.value !== '-') continue;
    // a pattern the program expands itself is a glob, quoted or not, each of its brace alternatives one (find's `{}` is no pattern)
    else if (/[*?[]|\{[^}]*,/.test(w.value)) for (const value of globAlternatives(w.value)) operands.push({ ...w, value, glob: /[*?[]/.test(value) });
    else operands.push(w);
  }
  const flags =
    spec.reads === 'rm' ? [plainWord('-rf'), ...(noPreserveRoot ? [plainWord('--no-preserve-root')] : [])] : [plainWord('-t'), plainWord('/dev/null')];
  return { ...inv, program: spec.reads, args: [...flags, plainWord('--'), ...operands] };
}
