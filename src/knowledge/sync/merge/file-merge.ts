import type { MergeConflict, SettledField } from './merge-plan.ts';
import type { Clash } from './values.ts';

/** One file changed on both sides, merged: its text, the conflict it leaves (if any), the fields it settled. */
export type FileMerge = { text: string; conflict?: MergeConflict; settled?: SettledField[] };

/** The side a tie goes to: the larger commit OID, so both clones pick the same. */
export function tieBreak(oursCommit: string, theirsCommit: string): 'ours' | 'theirs' {
  return oursCommit > theirsCommit ? 'ours' : 'theirs';
}

/** A conflict's `kept` and `other` commits when `winner`'s version stays in place. */
export function keptAndOther(winner: 'ours' | 'theirs', oursCommit: string, theirsCommit: string): { kept: string; other: string } {
  return winner === 'ours' ? { kept: oursCommit, other: theirsCommit } : { kept: theirsCommit, other: oursCommit };
}

/** Bookkeeping fields a merge settles every time (the later `updated`, the earlier `created`): not worth a line. */
const BOOKKEEPING = new Set(['updated', 'created']);

/** The clashes of one file as settled fields; `valueOf` reads a field's merged value. */
export function settledOf(
  path: string,
  id: string | null,
  title: string,
  clashes: Clash[],
  valueOf: (field: string) => unknown,
  oursCommit: string,
  theirsCommit: string,
): SettledField[] {
  return clashes
    .filter((c) => !BOOKKEEPING.has(c.field))
    .map((c) => ({
      path,
      id,
      title,
      field: c.field,
      rule: c.rule,
      value: valueOf(c.field),
      sides: [
        { commit: oursCommit, value: c.ours },
        { commit: theirsCommit, value: c.theirs },
      ],
    }));
}

/** The value at a dotted path of a plain object. */
export function valueAt(v: unknown, field: string): unknown {
  return field.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);
}
