/**
 * The second fresh battery (fresh-battery2.ts: written from docs/safety.md alone, none of the
 * first battery's commands) through the engine: every row gets the verdict it says. An `ask` row
 * may be denied by a stricter rule; a `deny` row must be denied with a reason. Every failure is
 * listed. bench/guard-battery2.ts prints the same verdicts row by row.
 *
 * The context is context.ts's: the project /home/u/proj on branch main, home /home/u, the
 * default policy.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluateCommand, type Verdict } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { safetyContext } from './context.ts';
import type { BatteryRow } from './fresh-battery.ts';
import { FRESH2_DANGEROUS, FRESH2_EVERYDAY } from './fresh-battery2.ts';

const policy = defaultPolicy();

const show = (row: BatteryRow, v: Verdict) =>
  `${JSON.stringify(row.command)} (${row.expect})\n    -> ${v.decision}${v.rule ? ` [${v.rule}]` : ''} ${v.reason.slice(0, 140)}`;

function meets(row: BatteryRow, v: Verdict): boolean {
  if (row.expect === 'allow') return v.decision === 'allow';
  if (row.expect === 'ask') return (v.decision === 'ask' || v.decision === 'deny') && v.reason !== '';
  return v.decision === 'deny' && v.reason !== '';
}

describe('the second fresh battery', () => {
  const all = [...FRESH2_DANGEROUS, ...FRESH2_EVERYDAY];
  test('holds its rows: 524 dangerous, 321 everyday (3 moved to everyday by the docs, see its header)', () => {
    assert.deepEqual([FRESH2_DANGEROUS.length, FRESH2_EVERYDAY.length], [524, 321]);
  });
  for (const area of [...new Set(all.map((r) => r.area))]) {
    const list = all.filter((r) => r.area === area);
    test(`${area}: every row gets its verdict (${list.length})`, async () => {
      const wrong: string[] = [];
      for (const row of list) {
        const v = await evaluateCommand(row.command, policy, safetyContext());
        if (!meets(row, v)) wrong.push(show(row, v));
      }
      assert.deepEqual(wrong, [], `${wrong.length} of ${list.length} wrong:\n${wrong.join('\n')}`);
    });
  }
});
