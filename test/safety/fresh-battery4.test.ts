/**
 * The fourth fresh battery (fresh-battery4.ts: an agent's first day in Java, Ruby, PHP, .NET,
 * Elixir, Swift, C/C++, Deno, Bun, Docker, databases and data tools, written from docs/safety.md
 * alone) through the engine: every row gets the verdict it says. An `ask` row may be denied by a
 * stricter rule; a `deny` row must be denied with a reason. Every failure is listed.
 * bench/guard-battery.ts --battery 4 prints the same verdicts row by row.
 *
 * The context is context.ts's: the project /home/u/proj on branch main, home /home/u, the
 * default policy.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testBattery } from './context.ts';
import { FRESH4_DANGEROUS, FRESH4_EVERYDAY } from './fresh-battery4.ts';

describe('the fourth fresh battery', () => {
  test('holds its rows: 159 dangerous, 498 everyday (1 moved to dangerous by the docs, see its header)', () => {
    assert.deepEqual([FRESH4_DANGEROUS.length, FRESH4_EVERYDAY.length], [159, 498]);
  });
  testBattery([...FRESH4_DANGEROUS, ...FRESH4_EVERYDAY]);
});
