import { AxmeError } from './errors.ts';

/** What a number option takes: a whole number or any, and its bounds (both included). */
export interface NumberBounds {
  integer?: boolean;
  min?: number;
  max?: number;
}

/** `axme sync --rounds`: fetch-merge-push rounds when the remote keeps moving. */
export const SYNC_ROUNDS: NumberBounds = { integer: true, min: 1, max: 100 };

/** A TCP port to listen on; 0 picks a free one. */
export const PORT: NumberBounds = { integer: true, min: 0, max: 65535 };

/** A number as a person writes one: digits, a sign, a point, an exponent; no hex, no spaces, no "NaN" or "Infinity". */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** "a whole number from 1 to 100", "a number of at least 0", "a number". */
export function numberKind(b: NumberBounds): string {
  const kind = b.integer ? 'a whole number' : 'a number';
  if (b.min !== undefined && b.max !== undefined) return `${kind} from ${b.min} to ${b.max}`;
  if (b.min !== undefined) return `${kind} of at least ${b.min}`;
  if (b.max !== undefined) return `${kind} of at most ${b.max}`;
  return kind;
}

/**
 * The number `given` stands for, checked against `bounds`, or INVALID_INPUT naming `name` (`--budget`)
 * and what it takes: `--budget takes a whole number of at least 1, not "abc"`. `given` is the text
 * as typed (an empty text, "NaN", "1e999", "0x10" are no numbers here) or a number already parsed
 * (NaN and the infinities refused). The one check of every number a command line gives.
 */
export function numberValue(name: string, given: unknown, bounds: NumberBounds = {}): number {
  const n = typeof given === 'number' ? given : typeof given === 'string' && DECIMAL.test(given) ? Number(given) : Number.NaN;
  const fits =
    Number.isFinite(n) &&
    (!bounds.integer || Number.isInteger(n)) &&
    (bounds.min === undefined || n >= bounds.min) &&
    (bounds.max === undefined || n <= bounds.max);
  if (fits) return n;
  const said = typeof given === 'string' ? given.slice(0, 40) : String(given);
  throw new AxmeError('INVALID_INPUT', `${name} takes ${numberKind(bounds)}, not ${JSON.stringify(said)}`, { option: name, given: said });
}
