import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { git } from '../helpers.ts';
import { type Person, twoPeople } from '../team-clones.ts';

/**
 * `axme revert` after a sync merged concurrent edits of one item (real git: a bare remote, two
 * clones, real syncs). The other side's edit is not "later" than this one: each side can be
 * undone on its own, the merge keeping what the other side changed; only a commit that descends
 * from the reverted one and changed the item after it blocks the revert.
 */

const root = mkdtempSync(join(tmpdir(), 'axme-revert-sync-'));
after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));
let ann: Person;
let bob: Person;
const run = (p: Person, args: string[]) => axmeInOk(p.dir, args, { env: p.env });
const show = async (p: Person, id: string) => run(p, ['backlog', 'show', id, '--json']);
let annEdit: string;
let bobEdit: string;

before(async () => {
  [ann, bob] = (await twoPeople(root)).people;
  await run(ann, ['backlog', 'add', '--title', 'Retry failed webhooks']);
  await run(ann, ['backlog', 'add', '--title', 'Export metrics']);
  await run(ann, ['sync']);
  await run(bob, ['sync']);
  // concurrent edits of B-001 (different fields) and of B-002 (the same field)
  annEdit = (await run(ann, ['backlog', 'update', 'B-001', '--priority', 'high', '--json'])).commit;
  bobEdit = (await run(bob, ['backlog', 'update', 'B-001', '--status', 'in-progress', '--json'])).commit;
  await run(ann, ['backlog', 'update', 'B-002', '--priority', 'low']);
  await run(bob, ['backlog', 'update', 'B-002', '--priority', 'high']);
  // bob's sync merges, ann's fast-forwards over bob's merge: both clones hold the same merge
  await run(ann, ['sync']);
  await run(bob, ['sync']);
  await run(ann, ['sync']);
  assert.equal(git(ann.dir, ['rev-parse', 'refs/memory/main']), git(bob.dir, ['rev-parse', 'refs/memory/main']));
  const merged = await show(ann, 'B-001');
  assert.deepEqual([merged.priority, merged.status], ['high', 'in-progress']);
});

describe('axme revert after a sync merged concurrent edits', () => {
  test("either side's edit is undone on its own; the other side's edit stays", async () => {
    const a = await axmeIn(ann.dir, ['revert', annEdit, '--json'], { env: ann.env });
    assert.equal(a.code, 0, a.stderr);
    assert.deepEqual(JSON.parse(a.stdout).files, [{ path: 'backlog/retry-failed-webhooks.md', change: 'restored' }]);
    const afterAnn = await show(ann, 'B-001');
    assert.deepEqual([afterAnn.priority, afterAnn.status], ['medium', 'in-progress'], "ann's priority undone, bob's status kept");
    const b = await axmeIn(bob.dir, ['revert', bobEdit, '--json'], { env: bob.env });
    assert.equal(b.code, 0, b.stderr);
    const afterBob = await show(bob, 'B-001');
    assert.deepEqual([afterBob.priority, afterBob.status], ['high', 'open'], "bob's status undone, ann's priority kept");
    assert.equal((await run(ann, ['fsck', '--json'])).ok, true);
  });

  test("a revert that descends from the reverted edit blocks it; the other side's edit is never named", async () => {
    // on ann's clone her revert is now a later change of B-001 that descends from bob's edit
    const r = await axmeIn(ann.dir, ['revert', bobEdit], { env: ann.env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /a later commit changed the same files — [0-9a-f]{12} \(revert: backlog: update B-001/);
    assert.doesNotMatch(r.stderr, new RegExp(annEdit.slice(0, 12)));
  });

  test('both sides changed the same field: refused, naming the merge that combined them, not the other side', async () => {
    const log = git(ann.dir, ['log', '--format=%H %s', 'refs/memory/main']);
    const low = log
      .split('\n')
      .find((l) => /update B-002 .*priority low/.test(l))!
      .split(' ')[0]!;
    const high = log
      .split('\n')
      .find((l) => /update B-002 .*priority high/.test(l))!
      .split(' ')[0]!;
    const merge = git(ann.dir, ['log', '--merges', '-1', '--format=%H', 'refs/memory/main']).trim();
    const r = await axmeIn(ann.dir, ['revert', low], { env: ann.env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`${merge.slice(0, 12)} \\(sync: .*\\) combined .*priority`));
    assert.doesNotMatch(r.stderr, new RegExp(high.slice(0, 12)));
    assert.match(r.stderr, /Nothing was changed/);
    assert.equal((await show(ann, 'B-002')).priority, 'high');
  });
});
