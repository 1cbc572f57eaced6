import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { axme, axmeOk, git, tempRepo } from '../helpers.ts';

// `axme session finalize` reads the close as JSON on stdin, where a misspelt field (`next_step`,
// a decision's `enforcment`) was dropped without a word: the decision was stored advisory and the
// next step was lost. Every field the close does not know, at any depth, is now refused by name
// (INVALID_INPUT, exit 2), with the fields accepted there; nothing is written.
describe('a close with a field it does not know', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await axmeOk(dir, ['init', '--no-claude', '--no-git-hooks', '--no-scan']);
  });
  after(() => cleanup());

  for (const [name, input, field, meant] of [
    ['a misspelt top-level field', { summary: 's', next_step: 'Run migration 42 first' }, 'next_step', 'next_steps'],
    [
      "a decision's misspelt field",
      { summary: 's', decisions: [{ title: 'Never rebase shared branches', decision: 'No rebase on shared/*.', enforcment: 'required' }] },
      'decisions[0].enforcment',
      'enforce',
    ],
    ["a memory's unknown field", { memories: [{ type: 'feedback', title: 'T', description: 'D', body: 'x', colour: 'red' }] }, 'memories[0].colour', 'title'],
  ] as const)
    test(`${name}: refused by name, nothing written`, async () => {
      const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      const r = await axme(dir, ['session', 'finalize'], { input: JSON.stringify(input), env: { AXME_SESSION: 'unknown-1' } });
      assert.equal(r.code, 2, r.stderr);
      assert.ok(r.stderr.includes(field), r.stderr);
      assert.ok(r.stderr.includes(meant), r.stderr);
      assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), tip, 'nothing written');
    });

  test('a close of known fields only still closes', async () => {
    const r = await axmeOk(dir, ['session', 'finalize', '--json'], {
      input: JSON.stringify({
        summary: 's',
        next_steps: 'n',
        decisions: [{ title: 'Use queues', decision: 'Send email through the queue.', enforce: 'required' }],
      }),
      env: { AXME_SESSION: 'known-1' },
    });
    assert.equal(r.decisions[0].outcome, 'saved');
  });
});
