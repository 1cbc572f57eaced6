/**
 * Attacks through the remote's refs/memory/main, by anyone with push access to it: a commit that
 * deletes the team's items, and trees no axme writes (`..` entries, a path out of the store, a
 * symbolic link, a folder axme does not keep, a blob far over the item limit). Sync must take
 * none of it silently: removals are held with a question until `--accept-removals`; the rest is
 * refused naming each entry, with nothing changed.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { followRemoteStore } from '../../src/knowledge/sync/follow-remote.ts';
import { LIMITS } from '../../src/model/limits.ts';
import { coreAt, exitCodeOf, rejectsWith, withCore } from '../core.ts';
import { axme, git } from '../helpers.ts';
import { teamOfTwo } from '../knowledge/fixture-copies.ts';
import { storeCommit } from './bounded.ts';

const REF = 'refs/memory/main';
/** A bare remote and two clones; the first holds three decisions, a memory and a backlog item, synced; the second started from them. */
const team = teamOfTwo('axme-sec-sync-', async (A) => {
  for (const t of ['Use Postgres', 'Use Kafka', 'Use Valkey']) await A.addDecision({ title: t, decision: `${t}.` });
  await A.addMemory({ type: 'feedback', title: 'Run the tests', description: 'Before every push.' });
  await A.addBacklog({ title: 'Rate limits', description: 'Per token.' });
});

const files = (dir: string, ref = REF) => git(dir, ['ls-tree', '-r', '--name-only', ref]).trim().split('\n').filter(Boolean);
const decisionsOf = (dir: string, ref = REF) => files(dir, ref).filter((f) => f.startsWith('decisions/'));

/** Pushes (unforced) a commit that deletes every decision from the remote's store, made in `attacker`; returns it. */
function pushDeletion(attacker: string): string {
  const tip = git(attacker, ['rev-parse', REF]).trim();
  const wipe = storeCommit(attacker, tip, Object.fromEntries(decisionsOf(attacker).map((f) => [f, null])), 'tidy up');
  git(attacker, ['push', '-q', 'origin', `${wipe}:${REF}`]);
  return wipe;
}

describe("security: a remote that deletes the team's items", () => {
  test('a deletion that would fast-forward is held: exit 1 naming what goes, nothing taken or pushed, an open question; --accept-removals takes it and answers the question', async () => {
    const { remote, a, b } = await team();
    const before = decisionsOf(b);
    assert.equal(before.length, 3);
    const wipe = pushDeletion(a);

    const held = await axme(b, ['sync']);
    assert.equal(held.code, 1, held.stdout + held.stderr);
    assert.match(held.stderr, /holding origin's knowledge .*removes 3 items/);
    for (const f of before) assert.ok(held.stderr.includes(f), `the message names ${f}`);
    assert.match(held.stderr, /axme sync origin --accept-removals/);
    assert.deepEqual(decisionsOf(b), before, 'the decisions are still here');
    assert.equal(git(remote, ['rev-parse', REF]).trim(), wipe, 'nothing was pushed over the remote');
    const asked = (await coreAt(b).list('question')).filter((q: { question: string }) => /^Sync held origin's knowledge/.test(q.question));
    assert.equal(asked.length, 1, 'an open question names the hold');
    assert.match(asked[0].context, /decisions\/use-postgres\.md/);
    // held again (a background sync at every session start): still one question
    assert.equal(exitCodeOf(await rejectsWith(coreAt(b).sync(), 'WRONG_STATE', /holding origin's knowledge .*removes 3 items/)), 1);
    assert.equal((await coreAt(b).list('question')).filter((q: { question: string }) => /^Sync held/.test(q.question)).length, 1);

    const took = await axme(b, ['sync', '--accept-removals', '--json']);
    assert.equal(took.code, 0, took.stderr);
    const r = JSON.parse(took.stdout);
    assert.deepEqual(r.removed, before);
    assert.deepEqual(decisionsOf(b), []);
    assert.equal(git(remote, ['rev-parse', REF]).trim(), git(b, ['rev-parse', REF]).trim(), 'pushed once taken');
    const settled = await coreAt(b).show('question', asked[0].id);
    assert.equal(settled.status, 'answered');
    assert.match(settled.answer, /--accept-removals/);
  });

  test('a deletion that meets local work (a three-way merge) is held too: no merge commit, the local work and the items kept', async () => {
    const { remote, a, b } = await team();
    const wipe = pushDeletion(a);
    await coreAt(b).addDecision({ title: 'Use gRPC', decision: 'Between services.' });
    const mine = git(b, ['rev-parse', REF]).trim();
    await rejectsWith(coreAt(b).sync(), 'WRONG_STATE', /holding origin's knowledge .*removes 3 items/);
    assert.equal(decisionsOf(b).length, 4, 'three team decisions and the new one');
    assert.equal(git(b, ['rev-parse', `${REF}~1`]).trim(), mine, 'only the question was committed on top of the local work');
    assert.equal(git(b, ['log', '-1', '--format=%P', REF]).trim().split(' ').length, 1, 'no merge commit');
    assert.equal(git(remote, ['rev-parse', REF]).trim(), wipe);
  });

  test('a handoff pruned by a close on the remote is not held (closes prune handoffs in normal use)', async () => {
    const { a, b } = await team();
    const tip = git(a, ['rev-parse', REF]).trim();
    const handoff = '---\nsession: s1\nsource: agent\ncreated: 2026-01-01T00:00:00.000Z\nupdated: 2026-01-01T00:00:00.000Z\n---\n\nDone.\n';
    const added = storeCommit(a, tip, { 'handoffs/s1.md': handoff });
    git(a, ['push', '-q', 'origin', `${added}:${REF}`]);
    await coreAt(b).sync();
    git(a, ['push', '-q', 'origin', `${storeCommit(a, added, { 'handoffs/s1.md': null })}:${REF}`]);
    const r = await coreAt(b).sync();
    assert.equal(r.integrated, 'fast-forward');
    assert.deepEqual(r.removed, []);
  });
});

/** A commit on top of `dir`'s store whose tree also holds `entries` (mktree lines: mode, type, oid, name) at the top level and in decisions/. */
function hostileCommit(dir: string, top: string[], inDecisions: string[]): string {
  const mktree = (lines: string[]) => git(dir, ['mktree', '-z'], lines.map((l) => `${l}\0`).join('')).trim();
  const ls = (treeish: string) => git(dir, ['ls-tree', '-z', treeish]).split('\0').filter(Boolean);
  const decisions = mktree([...ls(`${REF}:decisions`), ...inDecisions]);
  const root = mktree([...ls(`${REF}^{tree}`).filter((l) => !l.endsWith('\tdecisions')), `040000 tree ${decisions}\tdecisions`, ...top]);
  return git(dir, ['commit-tree', root, '-p', git(dir, ['rev-parse', REF]).trim(), '-m', 'hostile tree']).trim();
}

describe('security: a remote tree no axme store holds', () => {
  test('`..` entries, decisions/../../x.md, a control character, a symbolic link, an unknown folder and a blob over the item limit (none of them an item, so no validation stops them) are refused, each named; nothing changes', async () => {
    const { remote, a, b } = await team();
    const blob = (text: string | Buffer) => git(a, ['hash-object', '-w', '--stdin'], text as string).trim();
    const x = blob('---\nid: D-900\ntitle: Out\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\nEscaped.\n');
    const mk = (lines: string[]) => git(a, ['mktree', '-z'], lines.map((l) => `${l}\0`).join('')).trim();
    const withX = mk([`100644 blob ${x}\tx.md`]);
    const big = blob('a'.repeat(LIMITS.fileBytes + 1));
    const hostile = hostileCommit(
      a,
      [`040000 tree ${withX}\t..`, `040000 tree ${withX}\tscripts`],
      [
        `040000 tree ${mk([`040000 tree ${withX}\t..`])}\t..`,
        `120000 blob ${blob('/etc/passwd')}\tlink`,
        `100644 blob ${big}\thuge.bin`,
        `100644 blob ${x}\tbell\u0007.txt`,
      ],
    );
    git(a, ['push', '-q', 'origin', `${hostile}:${REF}`]);
    const before = git(b, ['rev-parse', REF]).trim();

    const err = await rejectsWith(coreAt(b).sync(), 'CORRUPT', /refusing origin's knowledge/);
    for (const [path, why] of [
      ['../x.md', /"\.\." component/],
      ['decisions/../../x.md', /"\.\." component/],
      ['decisions/link', /symbolic link/],
      ['decisions/huge.bin', /over the 256\.0 KB limit/],
      ['decisions/bell\\u0007.txt', /control character/],
      ['scripts/x.md', /not a file or folder of an axme store/],
    ] as const) {
      const at = err.message.indexOf(`"${path}"`);
      assert.ok(at >= 0, `${path} is named: ${err.message}`);
      assert.match(err.message.slice(at), why);
    }
    assert.ok(!err.message.includes('\u0007'), 'a control character is never printed raw');
    assert.equal(git(b, ['rev-parse', REF]).trim(), before, 'nothing local changed');
    assert.equal(git(remote, ['rev-parse', REF]).trim(), hostile, 'nothing pushed');

    // a clone's init does not start its store from such a remote either
    const c = join(remote, '..', 'c');
    git(join(remote, '..'), ['clone', '-q', remote, c]);
    const followed = await withCore(c, (kb) => followRemoteStore(kb));
    assert.equal(followed?.followed, false);
    assert.match(followed && !followed.followed ? followed.reason : '', /refusing origin's knowledge .*"\.\.\/x\.md"/);
  });
});
