/**
 * The sixth fresh battery (fresh-battery6.ts: the other clients' shell shapes — Codex's `bash -lc
 * '…'`, Gemini CLI's scripts —, databases, containers and clusters, system administration,
 * secrets managers, git's less common corners, odd tool flags; written from docs/safety.md alone)
 * through the engine: every row gets the verdict it says. An `ask` row may be denied by a stricter
 * rule; a `deny` row must be denied with a reason. Every failure is listed. bench/guard-battery.ts
 * --battery 6 prints the same verdicts row by row.
 *
 * The context is context.ts's: the project /home/u/proj on branch main, home /home/u, the
 * default policy.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testBattery } from './context.ts';
import { FRESH6_DANGEROUS, FRESH6_EVERYDAY } from './fresh-battery6.ts';

describe('the sixth fresh battery', () => {
  test('holds its rows: 428 dangerous, 511 everyday', () => {
    assert.deepEqual([FRESH6_DANGEROUS.length, FRESH6_EVERYDAY.length], [428, 511]);
  });
  testBattery([...FRESH6_DANGEROUS, ...FRESH6_EVERYDAY]);
});
