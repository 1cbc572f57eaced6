/**
 * The safety engine against two corpora (test/fixtures/safety/, see its README): ≥ 500 everyday
 * commands an agent runs while working, which must all be allowed (no false alarms), and ≥ 300
 * dangerous ones across the rule families of docs/safety.md, each of which must be denied — or
 * asked, for the families whose default is "ask". Table-driven: one test per family, every row
 * checked, every failure listed.
 *
 * The context is safety.test.ts's: the project /home/u/proj on branch main, home /home/u, the
 * default policy, the guarded paths the pre-tool-use hook sets.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { evaluateCommand, type Verdict } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { safetyContext } from './context.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'safety');

const ctx = safetyContext;

/** The non-comment, non-blank lines of a corpus file. */
function rows(file: string): string[] {
  return readFileSync(join(FIXTURES, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
}

const everyday = rows('everyday.txt');
const dangerous = rows('dangerous.tsv').map((l) => {
  const [family, expected, command, ...rest] = l.split('\t');
  assert.equal(rest.length, 0, `one tab-separated row: ${l}`);
  assert.ok(expected === 'deny' || expected === 'ask', `expected is deny or ask: ${l}`);
  return { family: family!, expected: expected as 'deny' | 'ask', command: command! };
});
const policy = defaultPolicy();

const show = (command: string, v: Verdict) => `${command}\n    -> ${v.decision}${v.rule ? ` [${v.rule}]` : ''}${v.reason ? ` ${v.reason.slice(0, 160)}` : ''}`;

describe('the safety corpora', () => {
  test('the corpora are as large as promised', () => {
    assert.ok(everyday.length >= 500, `${everyday.length} everyday commands`);
    assert.ok(dangerous.length >= 300, `${dangerous.length} dangerous commands`);
    assert.equal(new Set(everyday).size, everyday.length, 'no duplicate everyday command');
  });

  test(`every everyday command is allowed (${everyday.length})`, async () => {
    const wrong: string[] = [];
    for (const command of everyday) {
      const v = await evaluateCommand(command, policy, ctx());
      if (v.decision !== 'allow') wrong.push(show(command, v));
    }
    assert.deepEqual(wrong, [], `${wrong.length} false alarms:\n${wrong.join('\n')}`);
  });

  const families = [...new Set(dangerous.map((d) => d.family))];
  for (const family of families) {
    const list = dangerous.filter((d) => d.family === family);
    test(`${family}: every row is ${[...new Set(list.map((d) => d.expected))].join(' or ')} (${list.length})`, async () => {
      const wrong: string[] = [];
      for (const d of list) {
        const v = await evaluateCommand(d.command, policy, ctx());
        // an "ask" row may also be denied by a stricter rule elsewhere; a "deny" row must be denied
        const ok = d.expected === 'deny' ? v.decision === 'deny' : v.decision === 'ask' || v.decision === 'deny';
        if (!ok || !v.reason) wrong.push(show(d.command, v));
      }
      assert.deepEqual(wrong, [], `${wrong.length} of ${list.length} not ${list[0]!.expected}:\n${wrong.join('\n')}`);
    });
  }
});

describe('a #!axme marker inside an interpreter one-liner', () => {
  test('is looked up like one typed: a merged PR denies the push either way', async () => {
    const merged = { ...ctx(), branchOf: () => 'feature/x', lookupPr: async () => 'merged' as const };
    const typed = await evaluateCommand('git push origin feature/x #!axme pr=12 repo=a/b', policy, merged);
    assert.equal(typed.decision, 'deny', typed.reason);
    const hidden = await evaluateCommand(`python3 -c "import os; os.system('git push origin feature/x #!axme pr=12 repo=a/b')"`, policy, merged);
    assert.equal(hidden.decision, 'deny', hidden.reason);
    assert.match(hidden.rule ?? '', /pr-merged/);
  });
});
