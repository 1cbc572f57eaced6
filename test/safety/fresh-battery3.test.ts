/**
 * The third fresh battery (fresh-battery3.ts: the spellings an agent or a prompt injection would
 * use — obfuscation, wrappers, shells fed text, other tools doing the same harm — and their
 * everyday neighbours, written from docs/safety.md alone, none of the first two batteries'
 * commands) through the engine: every row gets the verdict it says. An `ask` row may be denied by
 * a stricter rule; a `deny` row must be denied with a reason. Every failure is listed.
 * bench/guard-battery.ts --battery 3 prints the same verdicts row by row.
 *
 * The context is context.ts's: the project /home/u/proj on branch main, home /home/u, the
 * default policy.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testBattery } from './context.ts';
import { FRESH3_DANGEROUS, FRESH3_EVERYDAY } from './fresh-battery3.ts';

describe('the third fresh battery', () => {
  test('holds its rows: 596 dangerous, 169 everyday (1 moved to everyday and 1 to dangerous by the docs, see its header)', () => {
    assert.deepEqual([FRESH3_DANGEROUS.length, FRESH3_EVERYDAY.length], [596, 169]);
  });
  testBattery([...FRESH3_DANGEROUS, ...FRESH3_EVERYDAY]);
});
