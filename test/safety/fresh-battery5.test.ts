/**
 * The fifth fresh battery (fresh-battery5.ts: the shapes agents give their shell tool — heredoc
 * commits, multi-line scripts, loops, background servers — and stacks the first four did not
 * cover, written from docs/safety.md alone) through the engine: every row gets the verdict it
 * says. An `ask` row may be denied by a stricter rule; a `deny` row must be denied with a reason.
 * Every failure is listed. bench/guard-battery.ts --battery 5 prints the same verdicts row by row.
 *
 * The context is context.ts's: the project /home/u/proj on branch main, home /home/u, the
 * default policy.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testBattery } from './context.ts';
import { FRESH5_DANGEROUS, FRESH5_EVERYDAY } from './fresh-battery5.ts';

describe('the fifth fresh battery', () => {
  test('holds its rows: 222 dangerous, 432 everyday (1 moved to everyday by the docs, see its header)', () => {
    assert.deepEqual([FRESH5_DANGEROUS.length, FRESH5_EVERYDAY.length], [222, 432]);
  });
  testBattery([...FRESH5_DANGEROUS, ...FRESH5_EVERYDAY]);
});
