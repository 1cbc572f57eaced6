/**
 * The second fresh battery (fresh-battery2.ts: written from docs/safety.md alone, none of the
 * first battery's commands) through the engine: every row gets the verdict it says. An `ask` row
 * may be denied by a stricter rule; a `deny` row must be denied with a reason. Every failure is
 * listed. bench/guard-battery.ts --battery 2 prints the same verdicts row by row.
 *
 * The context is context.ts's: the project /home/u/proj on branch main, home /home/u, the
 * default policy.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testBattery } from './context.ts';
import { FRESH2_DANGEROUS, FRESH2_EVERYDAY } from './fresh-battery2.ts';

describe('the second fresh battery', () => {
  test('holds its rows: 524 dangerous, 321 everyday (3 moved to everyday by the docs, see its header)', () => {
    assert.deepEqual([FRESH2_DANGEROUS.length, FRESH2_EVERYDAY.length], [524, 321]);
  });
  testBattery([...FRESH2_DANGEROUS, ...FRESH2_EVERYDAY]);
});
