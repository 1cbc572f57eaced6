/**
 * Readers of a command's words as strings, below every rule that reads them: the program's base
 * name and where its operands stand. They allocate little: they run on every command.
 */

const NONE: ReadonlySet<string> = new Set();

/** The base name of a program path: `/usr/bin/git` -> `git`; zsh's `=rm` (the path of `rm`) -> `rm`. */
export function programName(value: string): string {
  const name = value.slice(value.lastIndexOf('/') + 1);
  return name.length > 1 && name.charCodeAt(0) === 61 /* = */ && !value.includes('/') ? name.slice(1) : name;
}

/**
 * The index of the first operand at or after `from`: options are skipped, with the value of those
 * in `valued` (`--registry x`, `-C dir`; `--opt=value` and `-Cdir` carry theirs); after `--` the
 * next word is an operand. -1 when there is none.
 */
export function operandAt(args: readonly string[], valued: ReadonlySet<string> = NONE, from = 0): number {
  for (let i = from; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return i + 1 < args.length ? i + 1 : -1;
    if (a.length < 2 || a.charCodeAt(0) !== 45 /* - */) return i;
    if (valued.has(a)) i++;
  }
  return -1;
}

/** The operands from `from` on, in order (see operandAt). */
export function operands(args: readonly string[], valued: ReadonlySet<string> = NONE, from = 0): string[] {
  const out: string[] = [];
  for (let i = operandAt(args, valued, from); i >= 0; i = operandAt(args, valued, i + 1)) out.push(args[i]!);
  return out;
}
