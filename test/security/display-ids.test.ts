/**
 * A display ID once shared stays its item's (h/trust14). A merge renumbers only newcomers: items
 * new on one side since the merge base, and of two, the one the remote already holds keeps the ID
 * (it is published: teammates may have cited it), the clone's own takes the next free number. So an
 * item that this clone holds with the ID it had at the common base never changes ID in a remote
 * that is the team's merge of concurrent work; a remote that changes it (and gives the old ID to
 * its own new item, so every `D-001` cited reads the newcomer) is refused before anything is taken.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { coreAt, rejectsWith } from '../core.ts';
import { git } from '../helpers.ts';
import { teamOfTwo } from '../knowledge/fixture-copies.ts';
import { storeCommit } from './bounded.ts';

const REF = 'refs/memory/main';
const TEAMS = 'decisions/migrations-are-reviewed.md';

const team = teamOfTwo('axme-display-ids-', async (A) => {
  await A.addDecision({ title: 'Migrations are reviewed', decision: 'Every migration goes through a pull request.', enforce: 'required' });
});

/** `a`'s store with the team's decision renumbered to D-007 (its old ID kept as an alias, as a merge would) and a newcomer given D-001, pushed unforced. */
function pushRenumbered(a: string): void {
  const tip = git(a, ['rev-parse', REF]).trim();
  const renumbered = git(a, ['show', `${REF}:${TEAMS}`]).replace(/^id: D-001$/m, 'id: D-007\naliases:\n  - D-001');
  const newcomer = `---\nid: D-001\ntitle: Migrations are reviewed\nstatus: active\nenforce: advisory\ncreated: 2000-01-01T00:00:00.000Z\nupdated: 2000-01-01T00:00:00.000Z\n---\n\nMigrations may go straight to main.\n`;
  const c = storeCommit(a, tip, { [TEAMS]: renumbered, 'decisions/aaa-migrations.md': newcomer }, 'sync: merge origin');
  git(a, ['update-ref', REF, c]);
  git(a, ['push', '-q', 'origin', `${c}:${REF}`]);
}

describe("security: a remote that renumbers the team's decision and gives its ID to a newcomer", () => {
  test('refused, by a fast-forward and by a merge with local work: the error names the item, both IDs and what to do; nothing is taken and D-001 stays the required decision', async () => {
    for (const how of ['fast-forward', 'merge'] as const) {
      const { a, b } = await team();
      pushRenumbered(a);
      if (how === 'merge') await coreAt(b).addMemory({ type: 'feedback', title: 'Run the tests', description: 'Before every push.' });
      const before = git(b, ['rev-parse', REF]).trim();
      const err = await rejectsWith(coreAt(b).sync(), 'CORRUPT', new RegExp(`${TEAMS.replace('.', '\\.')}: display ID changed from D-001 to D-007`));
      assert.match(err.message, /refusing to merge origin's knowledge/, how);
      assert.match(err.message, /Nothing was changed/, how);
      assert.equal(git(b, ['rev-parse', REF]).trim(), before, `${how}: nothing taken`);
      const d1 = await coreAt(b).show('decision', 'D-001');
      assert.equal(d1.enforce, 'required', `${how}: D-001 is the team's required decision`);
    }
  });
});

describe('concurrent newcomers sharing a display ID are still renumbered', () => {
  test("the one the remote already holds keeps the ID, even when the clone's own was created earlier; the clone whose item it is takes the merge with no refusal", async () => {
    const { a, b } = await team();
    // b's decision is created first, a's second; a publishes first
    await coreAt(b).addDecision({ title: 'Use Redis', decision: 'cache' });
    await coreAt(a).addDecision({ title: 'Use Kafka', decision: 'events' });
    await coreAt(a).sync();
    const merged = await coreAt(b).sync();
    assert.equal(merged.integrated, 'merged');
    assert.deepEqual(
      merged.merges[0]!.renumbered.map((r) => `${r.path} ${r.from} -> ${r.to}`),
      ['decisions/use-redis.md D-002 -> D-003'],
      "the clone's own newcomer, not the published one",
    );
    assert.equal((await coreAt(a).sync()).integrated, 'fast-forward', 'the teammate takes the merge');
    assert.equal((await coreAt(a).show('decision', 'D-002')).title, 'Use Kafka', 'the published ID did not move');
    assert.deepEqual((await coreAt(a).show('decision', 'use-redis')).aliases, ['D-002']);
    assert.equal(git(a, ['rev-parse', REF]).trim(), git(b, ['rev-parse', REF]).trim());
  });
});

describe('a remote force-pushed from before the decision existed, renumbering it', () => {
  test("refused: the ID the decision had at this clone's last sync is its own, whatever merge base the rewritten history offers; nothing is taken", async () => {
    const { a, b } = await team();
    await coreAt(b).sync();
    // history rewritten from the store's first commit, before the team's decision: the decision comes back as D-007 and a newcomer takes D-001
    const root = git(a, ['rev-list', '--max-parents=0', REF]).trim().split('\n')[0]!;
    const renumbered = git(a, ['show', `${REF}:${TEAMS}`]).replace(/^id: D-001$/m, 'id: D-007\naliases:\n  - D-001');
    const newcomer = `---\nid: D-001\ntitle: Migrations are reviewed\nstatus: active\nenforce: advisory\ncreated: 2000-01-01T00:00:00.000Z\nupdated: 2000-01-01T00:00:00.000Z\n---\n\nMigrations may go straight to main.\n`;
    const c = storeCommit(a, root, { [TEAMS]: renumbered, 'decisions/aaa-migrations.md': newcomer }, 'sync: merge origin');
    git(a, ['push', '-q', '-f', 'origin', `${c}:${REF}`]);
    const before = git(b, ['rev-parse', REF]).trim();
    await rejectsWith(coreAt(b).sync(), 'CORRUPT', new RegExp(`${TEAMS.replace('.', '\\.')}: display ID changed from D-001 to D-007`));
    assert.equal(git(b, ['rev-parse', REF]).trim(), before, 'nothing taken');
    assert.equal((await coreAt(b).show('decision', 'D-001')).enforce, 'required');
  });
});
