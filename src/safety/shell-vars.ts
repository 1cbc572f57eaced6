import { SPLIT, UNKNOWN } from './expand.ts';
import type { SimpleCommand, Word } from './syntax.ts';

/**
 * What a command line tells the parser (shell.ts) of its own variables, in the order it runs:
 * plain assignments (`r=rm; $r -rf /`), the positional parameters `set --` gives, a `for` loop's
 * variable. A value holding something only the running shell knows forgets the variable.
 */
export type ShellVars = Map<string, string>;

/** `NAME=value` alone (or after export/local/declare/readonly), and `set -- …`: later `$NAME`, `$1` expand to them. */
export function recordAssignments(vars: ShellVars, cmd: SimpleCommand): void {
  if (cmd.words[0]?.raw === 'set') recordPositionals(vars, cmd.words.slice(1));
  const words = /^(export|local|declare|typeset|readonly)$/.test(cmd.words[0]?.raw ?? '') ? cmd.words.slice(1) : cmd.words;
  if (!words.length || !words.every((w) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.raw))) return;
  for (const w of words) {
    const eq = w.value.indexOf('=');
    const name = w.value.slice(0, eq);
    const value = w.value.slice(eq + 1);
    if (value.includes(UNKNOWN)) vars.delete(name);
    else vars.set(name, value);
  }
}

/**
 * `set -- a b` (or `set a b`): later `$1`, `$2`, `$*` and `"$@"` (each word apart, even quoted)
 * expand to them. Options alone (`set -e`) leave them; an unknown word forgets them.
 */
function recordPositionals(vars: ShellVars, args: Word[]): void {
  const first = args[0]?.value;
  if (first === undefined || (first !== '--' && /^[-+]/.test(first))) return;
  const words = (first === '--' ? args.slice(1) : args).map((w) => w.value);
  for (const k of [...vars.keys()]) if (/^([0-9]+|[@*])$/.test(k)) vars.delete(k);
  if (words.some((v) => v.includes(UNKNOWN))) return;
  words.forEach((v, i) => vars.set(String(i + 1), v));
  vars.set('*', words.join(' '));
  vars.set('@', words.join(SPLIT));
}

/**
 * `for d in / /tmp; do rm -rf "$d"; done`: in the body `$d` stands for every value at once, as
 * `"$@"` does (each checked as an argument of its own); a value only the shell knows, or a glob,
 * leaves it unknown.
 */
export function recordLoopVariable(vars: ShellVars, words: Word[]): void {
  const name = words[1]?.raw;
  if (!name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
  const values = words[2]?.raw === 'in' ? words.slice(3) : null;
  if (!values?.length || values.some((w) => w.glob || w.value.includes(UNKNOWN))) vars.delete(name);
  else vars.set(name, values.map((w) => w.value).join(SPLIT));
}

/** The value of `$name` when the command line itself tells it: HOME, IFS, an earlier assignment. */
export function knownValue(vars: ShellVars, home: string, name: string, inDouble: boolean): string | null {
  if (name === 'HOME') return home;
  // unquoted $IFS splits words: `rm$IFS-rf$IFS/` is `rm -rf /`
  if (name === 'IFS') return inDouble ? ' ' : SPLIT;
  const v = vars.get(name);
  if (v === undefined) return null;
  // unquoted, a value splits into words: `c="npm publish"; $c` runs npm
  return inDouble ? v : v.replace(/[ \t\n]+/g, SPLIT);
}
