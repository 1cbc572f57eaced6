import { SPLIT, UNKNOWN } from './expand.ts';
import type { Word } from './syntax.ts';

/**
 * The positional parameters of a command line's own shell, kept among its variables
 * (shell-vars.ts) as `1`, `2`…, `*` (joined by spaces) and `@` (each word apart, even quoted):
 * what `set -- a b` gives them and `shift` moves.
 */

/** A positional parameter's name: `1`, `2`…, `*`, `@`. */
export const POSITIONAL = /^([0-9]+|[@*])$/;

/** The words `"$@"` stands for where the command line told them (`set -- a b`); none otherwise. */
export function positionalWords(values: ReadonlyMap<string, string>): string[] {
  return values.get('@')?.split(SPLIT).filter(Boolean) ?? [];
}

/**
 * `set -- a b` (or `set a b`), given the words after `set`: later `$1`, `$2`, `$*` and `"$@"`
 * expand to them. Options alone (`set -e`) leave them; an unknown word forgets them.
 */
export function setPositionals(values: Map<string, string>, args: readonly Word[]): void {
  const first = args[0]?.value;
  if (first === undefined || (first !== '--' && /^[-+]/.test(first))) return;
  const words = (first === '--' ? args.slice(1) : args).map((w) => w.value);
  forget(values);
  if (!words.some((v) => v.includes(UNKNOWN))) put(values, words);
}

/** `shift [n]`: the positional parameters move down by n (1 by default); an unknown n forgets them. */
export function shiftPositionals(values: Map<string, string>, by: string | undefined): void {
  const n = by === undefined ? 1 : /^[0-9]+$/.test(by) ? Number(by) : -1;
  const known = values.has('@');
  const words = positionalWords(values).slice(n);
  forget(values);
  if (known && n >= 0 && words.length) put(values, words);
}

function forget(values: Map<string, string>): void {
  for (const k of [...values.keys()]) if (POSITIONAL.test(k)) values.delete(k);
}

function put(values: Map<string, string>, words: readonly string[]): void {
  words.forEach((v, i) => values.set(String(i + 1), v));
  values.set('*', words.join(' '));
  values.set('@', words.join(SPLIT));
}
