import type { Options } from 'yargs';
import { type NumberBounds, numberValue } from '../model/number-value.ts';

/** The bounds of each number option's coerce function: how the sweep and the docs tell a number option. */
const BOUNDS = new WeakMap<object, NumberBounds>();

/**
 * A yargs option that takes a number: read as the text typed (yargs' own number type reads an
 * empty value as 0, and "abc" as NaN, and lets both through) and checked by numberValue
 * (model/number-value.ts) when the command line is parsed, before any command runs, so every number
 * option of every command says the same thing: `--budget takes a whole number of at least 1, not "abc"`
 * (`--limit (-k) takes …` for an option with a short form).
 */
export function numberOption(flag: string, bounds: NumberBounds, o: Omit<Options, 'type' | 'coerce'> = {}, short?: string): Options {
  const dashed = (f: string) => (f.length === 1 ? `-${f}` : `--${f}`);
  // named as the docs name it, with its short form: the value may have come through either (`-k 0`)
  const name = short ? `${dashed(flag)} (${dashed(short)})` : dashed(flag);
  const one = (v: unknown) => numberValue(name, v, bounds);
  const coerce = (v: unknown) => (Array.isArray(v) ? v.map(one) : one(v));
  BOUNDS.set(coerce, bounds);
  return { ...o, type: 'string', coerce, requiresArg: true };
}

/** The bounds of an option made by numberOption, or undefined for any other option. */
export function numberBoundsOf(o: { coerce?: unknown }): NumberBounds | undefined {
  return typeof o.coerce === 'function' ? BOUNDS.get(o.coerce) : undefined;
}
