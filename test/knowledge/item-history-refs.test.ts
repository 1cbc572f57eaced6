/**
 * `axme history <ref>` finds an item however it is named elsewhere: a display ID with any padding
 * (`D-1`, `b-01`), and the slug of an item no longer in the tree (a reverted add), whose file
 * still has its history.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { history } from '../../src/operations/history.ts';
import { revert } from '../../src/operations/revert.ts';
import { coreAt, rejectsWith, runOp } from '../core.ts';
import { tempRepo } from '../helpers.ts';

describe('history by every name of an item', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await coreAt(dir).init();
    await coreAt(dir).addDecision({ title: 'Use Valkey', decision: 'valkey' });
    await coreAt(dir).addBacklog({ title: 'Add request logging' });
  });
  after(() => cleanup());

  for (const ref of ['D-1', 'd-01', 'D-0001'])
    test(`decision ${ref}`, async () => {
      const r = await runOp(dir, history, { id_or_slug: ref });
      assert.equal(r.path, 'decisions/use-valkey.md');
      assert.deepEqual(
        r.versions.map((v: { change: string }) => v.change),
        ['added'],
      );
    });

  test('backlog B-1', async () => {
    assert.equal((await runOp(dir, history, { id_or_slug: 'B-1' })).path, 'backlog/add-request-logging.md');
  });

  test('the slug of a removed item (a reverted add) finds its file and both versions', async () => {
    const added = await coreAt(dir).addBacklog({ title: 'Rate limit' });
    await runOp(dir, revert, { commit: added.commit! });
    const r = await runOp(dir, history, { id_or_slug: 'rate-limit' });
    assert.equal(r.path, 'backlog/rate-limit.md');
    assert.deepEqual(
      r.versions.map((v: { change: string }) => v.change),
      ['removed', 'added'],
    );
    assert.equal((await runOp(dir, history, { id_or_slug: 'rate-limit', kind: 'backlog' })).path, 'backlog/rate-limit.md');
  });

  test('a slug no file ever had is NOT_FOUND, and the message says where to look', async () => {
    await rejectsWith(runOp(dir, history, { id_or_slug: 'never-was' }), 'NOT_FOUND', /no item never-was, now or earlier: .*`axme log` show/);
  });
});
