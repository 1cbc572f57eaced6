/** How lists of items changed, by position in their concatenation (`diffLists`). */
export interface ListsDiff {
  /** position before -> position after, -1 for an item no longer there */
  newOf: Int32Array;
  /** the positions after of the items that were not there before (ascending), with the list each is in and the item */
  added: Array<{ at: number; list: number; item: object }>;
  /** the length of the concatenation after */
  size: number;
  /** the positions before of the items no longer there (ascending), and the runs of items kept together (`[from, end, to]` a run: items `[from, end)` before, now at `to` onwards): patch-postings.ts `Moves`, made in the same pass */
  gone: number[];
  runs: number[];
}

/**
 * How `after` differs from `before` (lists of items, the same number of lists, each sorted by
 * `order`), the lists taken one after the other: an item is the same only when it is the same
 * object (a parsed item is shared between the states that hold it unchanged). A list that is the
 * same array costs nothing but its length; one that changed is walked once, in step with the
 * one before. Undefined once more than `max` items changed: the caller then reads them all.
 */
export function diffLists<T extends object>(
  before: ReadonlyArray<readonly T[]>,
  after: ReadonlyArray<readonly T[]>,
  order: (a: T, b: T) => number,
  max: number,
): ListsDiff | undefined {
  if (before.length !== after.length) return undefined;
  const oldSize = before.reduce((n, l) => n + l.length, 0);
  const size = after.reduce((n, l) => n + l.length, 0);
  const newOf = new Int32Array(oldSize);
  const added: ListsDiff['added'] = [];
  const gone: number[] = [];
  const runs: number[] = [];
  // items [x, y) before kept, now at z onwards: the last run grows when they follow it on both sides
  const kept = (x: number, y: number, z: number) => {
    const r = runs.length;
    if (r && runs[r - 2] === x && runs[r - 1]! + (x - runs[r - 3]!) === z) runs[r - 2] = y;
    else runs.push(x, y, z);
  };
  let changes = 0;
  let from = 0;
  let to = 0;
  for (let l = 0; l < before.length; l++) {
    const a = before[l]!;
    const b = after[l]!;
    if (a === b) {
      keepSame(a, 0, a, 0, newOf, from, to);
      if (a.length) kept(from, from + a.length, to);
    } else {
      let i = 0;
      let j = 0;
      while (i < a.length || j < b.length) {
        // the items the same object on both sides from here on: one run
        const same = keepSame(a, i, b, j, newOf, from + i, to + j);
        if (same) {
          kept(from + i, from + i + same, to + j);
          i += same;
          j += same;
        }
        if (i >= a.length && j >= b.length) break;
        // sorted lists walked in step: the lower one is gone (before) or new (after); equal in order, replaced
        const c = i >= a.length ? 1 : j >= b.length ? -1 : order(a[i]!, b[j]!);
        if (c <= 0) {
          gone.push(from + i);
          newOf[from + i++] = -1;
        }
        if (c >= 0) added.push({ at: to + j, list: l, item: b[j++]! });
        if (++changes > max) return undefined;
      }
    }
    from += a.length;
    to += b.length;
  }
  return { newOf, added, size, gone, runs };
}

// The one loop over every kept item, a function of its own: small, with one type each argument,
// so that V8 compiles it at once and keeps it, where the same loop inside `diffLists` made it
// compile the whole comparison (its closures and the order inlined) again at each write.

/**
 * How many items from `a[i]` and `b[j]` on are the same objects, one for one; `newOf` says where
 * they are now (the `k`-th of them, at `from + k` before, is at `to + k`).
 */
function keepSame(a: readonly object[], i: number, b: readonly object[], j: number, newOf: Int32Array, from: number, to: number): number {
  const most = Math.min(a.length - i, b.length - j);
  let k = 0;
  for (; k < most && a[i + k] === b[j + k]; k++) newOf[from + k] = to + k;
  return k;
}
