/**
 * A display ID is found however a person types its number: `D-001`, `d-001`, `D-1`, `d-1`,
 * `D-0001` all name D-001 (an ID is never written with other padding); a memory whose slug looks
 * like an ID (`d-042`) is still found by it when no item has the ID.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { coreAt } from '../core.ts';
import { tempRepo } from '../helpers.ts';

describe('display IDs in every spelling', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await coreAt(dir).init();
    await coreAt(dir).addDecision({ title: 'Use Postgres', decision: 'pg' });
    await coreAt(dir).addBacklog({ title: 'Add request logging' });
    await coreAt(dir).addMemory({ type: 'feedback', title: 'D-042', description: 'A memory titled like an ID.' });
  });
  after(() => cleanup());

  for (const ref of ['D-001', 'd-001', 'D-1', 'd-1', 'D-0001', ' D-01 '])
    test(`decision ${JSON.stringify(ref)}`, async () => {
      assert.equal((await coreAt(dir).show('decision', ref)).title, 'Use Postgres');
    });

  test('backlog B-1, and a slug that looks like an ID', async () => {
    assert.equal((await coreAt(dir).show('backlog', 'B-1')).title, 'Add request logging');
    assert.equal((await coreAt(dir).show('memory', 'd-042')).title, 'D-042');
  });
});
