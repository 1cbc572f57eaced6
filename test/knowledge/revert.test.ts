import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { mutate } from '../../src/knowledge/core/mutate.ts';
import { revert } from '../../src/operations/revert.ts';
import { coreAt, rejectsWith, runOp, runOpText, withCore } from '../core.ts';
import { axme, git, tempRepo } from '../helpers.ts';

/** `axme revert <commit>`: one commit undone as a new commit, on real repositories with the real git CLI. */

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));
const REF = 'refs/memory/main';
const rev = (dir: string, r = REF) => git(dir, ['rev-parse', r]).trim();

async function store() {
  const { dir, cleanup } = tempRepo({ commit: true });
  cleanups.push(cleanup);
  const A = coreAt(dir);
  await A.init();
  return { dir, A };
}

describe('axme revert', () => {
  test('restores the previous state as a new commit; history keeps the undone commit', async () => {
    const { dir, A } = await store();
    await A.addDecision({ title: 'Use Postgres', decision: 'pg' });
    const beforeMemory = rev(dir);
    const added = await A.addMemory({ title: 'Tabs not spaces', type: 'feedback', description: 'tabs', body: 'the team uses tabs' });
    await A.addBacklog({ title: 'Add request logging' });
    const r = await runOp(dir, revert, { commit: added.commit!.slice(0, 10) });
    assert.equal(r.reverted, added.commit);
    assert.deepEqual(r.files, [{ path: added.path, change: 'removed' }]);
    assert.equal(rev(dir), r.commit, 'a new commit on refs/memory/main');
    assert.equal(git(dir, ['rev-parse', `${r.commit}^`]).trim() !== added.commit, true);
    // the memory is gone, the later backlog item stays; the undone commit is still in history
    assert.deepEqual(
      (await A.list('memory')).map((m: { slug: string }) => m.slug),
      [],
    );
    assert.deepEqual(
      (await A.list('backlog')).map((b: { id: string }) => b.id),
      ['B-001'],
    );
    assert.match(git(dir, ['log', '--format=%H', REF]), new RegExp(added.commit!));
    assert.equal(
      git(dir, ['ls-tree', '-r', '--name-only', REF, 'memories/']).trim(),
      git(dir, ['ls-tree', '-r', '--name-only', beforeMemory, 'memories/']).trim(),
    );
    assert.match(git(dir, ['log', '-1', '--format=%B', REF]), /^revert: memory: .*\n[\s\S]*Axme-Event: store.reverted/);
    assert.equal((await A.fsck()).ok, true);
  });

  test('a change with a later change of the same file is refused naming that commit; reverting newest first gets back the earlier tree', async () => {
    const { dir, A } = await store();
    const start = rev(dir);
    const add = await A.addBacklog({ title: 'Add request logging' });
    const update = await A.updateBacklog({ id: 'B-001', priority: 'high', notes: 'raised' });
    const refused = await rejectsWith(
      runOp(dir, revert, { commit: add.commit! }),
      'WRONG_STATE',
      new RegExp(
        `a later commit changed the same files — ${update.commit!.slice(0, 12)} \\(backlog: update B-001 .*\\) changed backlog/add-request-logging\\.md`,
      ),
    );
    assert.match(refused.message, new RegExp(`axme revert ${update.commit!.slice(0, 12)}`));
    assert.equal(rev(dir), update.commit, 'nothing was written');
    const first = await runOpText(dir, revert, { commit: update.commit! });
    assert.match(first, /restored backlog\/add-request-logging\.md/);
    assert.equal((await A.show('backlog', 'B-001')).priority, 'medium', 'the update is undone');
    // the revert itself is now the later change: undoing the add must wait for it... unless it is undone too
    await rejectsWith(runOp(dir, revert, { commit: add.commit! }), 'WRONG_STATE', /revert: backlog: update B-001/);
  });

  test('refuses what is not a commit of the store, its first commit and bad input', async () => {
    const { dir } = await store();
    await rejectsWith(runOp(dir, revert, { commit: rev(dir, 'HEAD') }), 'NOT_FOUND', /is not a commit of refs\/memory\/main/);
    await rejectsWith(runOp(dir, revert, { commit: rev(dir) }), 'WRONG_STATE', /the first commit of refs\/memory\/main/);
    await rejectsWith(runOp(dir, revert, { commit: 'deadbeef' }), 'NOT_FOUND', /no commit deadbeef/);
    await rejectsWith(runOp(dir, revert, { commit: 'HEAD~1' }), 'INVALID_INPUT', /hex digits/);
  });

  test("an agent's revert follows the agent's rules: no loosening of the safety rules or a required decision; its proposal under review.required", async () => {
    const { dir, A } = await store();
    const denied = await A.safety('add', 'bash_deny', 'make deploy');
    const required = await A.addDecision({ title: 'Never skip CI', decision: 'no --no-verify', enforce: 'required' });
    const agent = { actor: 'agent' as const, session: 'agent-1' };
    // removing a deny rule, or a required decision, is a person's call
    const e1 = await rejectsWith(
      runOp(dir, revert, { commit: denied.commit! }, agent),
      'NOT_ALLOWED',
      /safety\/rules\.yaml would let more through.*ask the user to run `axme revert/,
    );
    assert.equal(e1.data.actor, 'agent');
    await rejectsWith(
      runOp(dir, revert, { commit: required.commit! }, agent),
      'NOT_ALLOWED',
      /the required decision D-001 "Never skip CI" would no longer bind/,
    );
    // tightening is anyone's: the agent may undo the removal of a rule
    const removed = await A.safety('remove', 'bash_deny', 'make deploy');
    const back = await runOp(dir, revert, { commit: removed.commit! }, agent);
    assert.deepEqual(back.files, [{ path: 'safety/rules.yaml', change: 'restored' }]);
    assert.ok((await A.rules()).bash.deniedPrefixes.includes('make deploy'));
    // a person may loosen
    const person = await runOp(dir, revert, { commit: back.commit });
    assert.ok(!(await A.rules()).bash.deniedPrefixes.includes('make deploy'), person.commit);
    // with review.required the agent's revert goes to its proposal; refs/memory/main stays
    await withCore(dir, (kb) =>
      mutate(kb, async (s) => ({
        result: null,
        files: new Map([
          ['axme.yaml', `${(await kb.repo.backend.readBlob(s.snapshot.files.get('axme.yaml')!.oid)).toString('utf8').trimEnd()}\nreview:\n  required: true\n`],
        ]),
        subject: 'config: review required',
        event: 'config.changed',
      })),
    );
    const mem = await A.addMemory({ title: 'Use tabs', type: 'feedback', description: 'tabs', body: 'tabs' });
    const main = rev(dir);
    const proposed = await runOp(dir, revert, { commit: mem.commit! }, agent);
    assert.equal(proposed.ref, 'refs/memory/proposals/agent-1');
    assert.equal(rev(dir), main, 'the accepted knowledge is unchanged');
    assert.equal(rev(dir, 'refs/memory/proposals/agent-1'), proposed.commit);
  });

  test('the CLI: --json, text, exit 1 for a refusal and 2 for bad input; an agent (CLAUDECODE=1) is refused a loosening revert', async () => {
    const { dir, A } = await store();
    const add = await A.addBacklog({ title: 'Export metrics' });
    const rule = await A.safety('add', 'bash_deny', 'make deploy');
    const bad = await axme(dir, ['revert', 'not-a-commit']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /hex digits/);
    const agent = await axme(dir, ['revert', rule.commit!], { env: { CLAUDECODE: '1' } });
    assert.equal(agent.code, 1, agent.stderr);
    assert.match(agent.stderr, /only a person may do: ask the user/);
    const ok = await axme(dir, ['revert', add.commit!, '--json']);
    assert.equal(ok.code, 0, ok.stderr);
    const j = JSON.parse(ok.stdout);
    assert.equal(j.reverted, add.commit);
    assert.deepEqual(j.files, [{ path: 'backlog/export-metrics.md', change: 'removed' }]);
    const again = await axme(dir, ['revert', add.commit!]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, new RegExp(`${j.commit.slice(0, 12)} \\(revert: backlog: add B-001`));
  });

  test('an item put back whose display ID another item took meanwhile is renumbered, the old ID kept as its alias: the store stays valid', async () => {
    const { dir, A } = await store();
    const go = await A.addDecision({ title: 'Use Go', decision: 'Go 1.22' });
    const removal = await runOp(dir, revert, { commit: go.commit! });
    await A.addDecision({ title: 'Use Rust', decision: 'Rust' });
    await A.addBacklog({ title: 'Port the CLI' });
    const back = await runOp(dir, revert, { commit: removal.commit });
    assert.deepEqual(back.files, [{ path: 'decisions/use-go.md', change: 're-added' }]);
    assert.deepEqual(back.renumbered, [{ path: 'decisions/use-go.md', from: 'D-001', to: 'D-002' }]);
    const list = await A.list('decision');
    assert.deepEqual(
      list.map((d: { id: string; slug: string; aliases?: string[] }) => [d.id, d.slug, d.aliases ?? []]),
      [
        ['D-001', 'use-rust', []],
        ['D-002', 'use-go', ['D-001']],
      ],
    );
    assert.equal((await A.fsck()).ok, true);
    assert.equal((await A.show('decision', 'D-001')).slug, 'use-rust', 'the ID finds the item that holds it now');
    assert.match(git(dir, ['log', '-1', '--format=%B', back.commit]), /Renumbered D-001 -> D-002 \(decisions\/use-go\.md\)/);
  });
});
