/**
 * The look-up a marked read makes in a term's postings (search/marked-postings.ts `locate`): where
 * a document is in a stretch of strictly ascending positions, or where it would go — checked
 * against a plain scan on random stretches (fast-check), every bound and every value around them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { locate } from '../../src/knowledge/views/search/marked-postings.ts';

/** What `locate` must answer, by a scan: the index of `x` in `a[lo..hi)`, else `-1 - p` with `p` the first index past it. */
function scanned(a: Int32Array, lo: number, hi: number, x: number): number {
  for (let i = lo; i < hi; i++) {
    if (a[i] === x) return i;
    if (a[i]! > x) return -1 - i;
  }
  return -1 - hi;
}

test('locate finds a position or where it would go, as a scan does, in any stretch of ascending positions', () => {
  const stretch = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 0, maxLength: 80 }).chain((gaps) => {
    const a = new Int32Array(gaps.length);
    let v = -1;
    for (const [i, g] of gaps.entries()) a[i] = v += g;
    return fc.record({
      a: fc.constant(a),
      lo: fc.integer({ min: 0, max: a.length }),
      span: fc.integer({ min: 0, max: a.length }),
      x: fc.integer({ min: -2, max: v + 3 }),
    });
  });
  fc.assert(
    fc.property(stretch, ({ a, lo, span, x }) => {
      const hi = Math.min(a.length, lo + span);
      assert.equal(locate(a, lo, hi, x), scanned(a, lo, hi, x), `${x} in [${[...a.subarray(lo, hi)]}]`);
    }),
    { numRuns: 2000 },
  );
});
