/**
 * The fresh battery (fresh-battery.ts: dangerous commands in spellings the corpora do not hold,
 * everyday commands of a first day) through the engine: every row gets the verdict it says. An
 * `ask` row may be denied by a stricter rule; a `deny` row must be denied. Every failure listed.
 *
 * The context is corpus.test.ts's: the project /home/u/proj on branch main, home /home/u.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluateCommand, type Verdict } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { safetyContext } from './context.ts';
import { type BatteryRow, FRESH_DANGEROUS, FRESH_EVERYDAY } from './fresh-battery.ts';

const policy = defaultPolicy();

const show = (row: BatteryRow, v: Verdict) =>
  `${JSON.stringify(row.command)} (${row.expect})\n    -> ${v.decision}${v.rule ? ` [${v.rule}]` : ''} ${v.reason.slice(0, 140)}`;

function meets(row: BatteryRow, v: Verdict): boolean {
  if (row.expect === 'allow') return v.decision === 'allow';
  if (row.expect === 'ask') return (v.decision === 'ask' || v.decision === 'deny') && v.reason !== '';
  return v.decision === 'deny' && v.reason !== '';
}

describe('the fresh battery', () => {
  const all = [...FRESH_DANGEROUS, ...FRESH_EVERYDAY];
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
