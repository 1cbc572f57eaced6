import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { rejectsWith } from '../core.ts';
import { git } from '../helpers.ts';
import { closingClones, type Person, removeByHand, restoreByHand, twoPeople } from '../team-clones.ts';

/**
 * What holds a sync (docs/sync.md, "Removals are held" and "Loosenings are held"), as a team meets
 * it: every hold of one sync is reported at once (text and --json), each with its question; a
 * question whose cause is gone at the next sync is withdrawn there, before anything is pushed, so
 * no teammate ever gets an open question about another clone's hold (real git: a bare remote, two
 * clones with their own identity).
 */

const root = mkdtempSync(join(tmpdir(), 'axme-sync-holds-'));
after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

const { sync } = closingClones();

/** The questions of `p`'s store whose text starts "Sync held", with their status. */
async function holdQuestions(p: Person): Promise<Array<{ question: string; status: string; answer: string }>> {
  const all = await axmeInOk(p.dir, ['question', 'list', '--all', '--json'], { env: p.env });
  return (all as Array<{ question: string; status: string; answer: string }>).filter((q) => q.question.startsWith('Sync held'));
}

describe('a remote change that both removes an item and loosens the rules', () => {
  test('is held with both reasons at once; each question is withdrawn when its cause is gone, and no teammate gets one open', async () => {
    const {
      people: [ann, bob],
    } = await twoPeople(root);
    await axmeInOk(ann.dir, ['decision', 'add', '--title', 'Use Valkey for caching', '--decision', 'Valkey replaces Redis.'], { env: ann.env });
    await sync(ann.dir);
    await sync(bob.dir);

    // ann removes the decision by hand and lets through two denied commands
    const blob = removeByHand(ann.dir, 'decisions/use-valkey-for-caching.md');
    for (const v of ['chmod 777', 'npm publish']) await axmeInOk(ann.dir, ['safety', 'remove', 'bash_deny', v], { env: ann.env });
    await sync(ann.dir);

    // one sync of bob's: both holds, both questions
    const held = await rejectsWith(sync(bob.dir), 'WRONG_STATE', /removes 1 item this store has — decisions\/use-valkey-for-caching\.md/);
    assert.match(held.message, /loosens what binds agents here — .*"chmod 777".*"npm publish"/);
    assert.deepEqual(
      (held.data?.holds as Array<{ held: string }>).map((h) => h.held),
      ['removals', 'loosening'],
    );
    const cli = await axmeIn(bob.dir, ['sync', '--json'], { env: bob.env });
    assert.equal(cli.code, 1, cli.stderr);
    const error = JSON.parse(cli.stderr).error;
    assert.equal(error.code, 'WRONG_STATE');
    assert.deepEqual(
      error.data.holds.map((h: { held: string; question: string }) => [h.held, /^questions\/sync-held-/.test(h.question)]),
      [
        ['removals', true],
        ['loosening', true],
      ],
    );
    assert.deepEqual(error.data.removed, ['decisions/use-valkey-for-caching.md']);
    assert.equal(error.data.said.length, 1);
    assert.deepEqual(
      (await holdQuestions(bob)).map((q) => q.status),
      ['open', 'open'],
      'one question a hold, asked once',
    );

    // ann restores the decision: the removal's question is withdrawn, the loosening still held
    restoreByHand(ann.dir, 'decisions/use-valkey-for-caching.md', blob);
    await sync(ann.dir);
    const still = await rejectsWith(sync(bob.dir), 'WRONG_STATE', /loosens what binds agents here/);
    assert.doesNotMatch(still.message, /removes/);
    const mid = await holdQuestions(bob);
    assert.deepEqual(
      mid.map((q) => [q.question.includes('removes items') ? 'removals' : 'loosening', q.status]),
      [
        ['removals', 'archived'],
        ['loosening', 'open'],
      ],
    );
    assert.match(mid.find((q) => q.status === 'archived')!.answer, /Withdrawn by axme sync .*no longer removes/);

    // ann puts the rules back: bob's sync goes through, its last question withdrawn before the push
    for (const v of ['chmod 777', 'npm publish']) await axmeInOk(ann.dir, ['safety', 'add', 'bash_deny', v], { env: ann.env });
    await sync(ann.dir);
    await sync(bob.dir);
    assert.deepEqual(
      (await holdQuestions(bob)).map((q) => q.status),
      ['archived', 'archived'],
    );
    await sync(ann.dir);
    assert.deepEqual(
      (await holdQuestions(ann)).filter((q) => q.status === 'open'),
      [],
      "no open question about bob's hold reached ann",
    );
    assert.match(git(bob.dir, ['show', 'refs/memory/main:safety/rules.yaml']), /chmod 777/);
  });
});

describe("a sync held on both the remote's knowledge and its reviewed branch (axme/memory)", () => {
  test('names every hold of both at once (text and --json data.holds), each with its own question', async () => {
    const {
      remote,
      people: [ann, bob],
    } = await twoPeople(mkdirSync(join(root, 'reviewed'), { recursive: true })!);
    for (const title of ['Use Valkey for caching', 'Use Postgres for storage'])
      await axmeInOk(ann.dir, ['decision', 'add', '--title', title, '--decision', `${title}.`], { env: ann.env });
    await sync(ann.dir);
    await sync(bob.dir);

    // the reviewed branch, from the shared tip, removes one decision (a pull request merged on the host)
    git(ann.dir, ['update-ref', 'refs/scratch/reviewed', 'refs/memory/main']);
    removeByHand(ann.dir, 'decisions/use-postgres-for-storage.md', 'refs/scratch/reviewed');
    git(ann.dir, ['push', '-q', remote, 'refs/scratch/reviewed:refs/heads/axme/memory']);
    // the knowledge itself removes the other (pushed by hand: ann's own sync would hold the reviewed branch)
    removeByHand(ann.dir, 'decisions/use-valkey-for-caching.md');
    git(ann.dir, ['push', '-q', remote, 'refs/memory/main:refs/memory/main']);

    const r = await axmeIn(bob.dir, ['sync'], { env: bob.env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /holding origin's knowledge \([0-9a-f]{12}\): it removes 1 item this store has — decisions\/use-valkey-for-caching\.md/);
    assert.match(
      r.stderr,
      /holding origin's axme\/memory's knowledge \([0-9a-f]{12}\): it removes 1 item this store has — decisions\/use-postgres-for-storage\.md/,
    );
    const cli = await axmeIn(bob.dir, ['sync', '--json'], { env: bob.env });
    assert.equal(cli.code, 1, cli.stderr);
    const error = JSON.parse(cli.stderr).error;
    assert.equal(error.code, 'WRONG_STATE');
    assert.deepEqual(
      error.data.holds.map((h: { from: string; held: string; what: string[]; question: string | null }) => [
        h.from,
        h.held,
        h.what,
        /^questions\/sync-held-/.test(h.question ?? ''),
      ]),
      [
        ['origin', 'removals', ['decisions/use-valkey-for-caching.md'], true],
        ["origin's axme/memory", 'removals', ['decisions/use-postgres-for-storage.md'], true],
      ],
    );
    assert.deepEqual(error.data.removed, ['decisions/use-postgres-for-storage.md', 'decisions/use-valkey-for-caching.md']);
    assert.deepEqual(
      (await holdQuestions(bob)).map((q) => [q.question.split(':')[0], q.status]).sort(),
      [
        ["Sync held origin's axme/memory's knowledge", 'open'],
        ["Sync held origin's knowledge", 'open'],
      ],
      'one question a hold, asked once over two syncs',
    );
    assert.equal(git(bob.dir, ['cat-file', '-t', 'refs/memory/main:decisions/use-valkey-for-caching.md']).trim(), 'blob', 'nothing taken');

    // the one command named takes both
    const took = await axmeInOk(bob.dir, ['sync', '--accept-removals', '--json'], { env: bob.env });
    assert.deepEqual(took.removed, ['decisions/use-postgres-for-storage.md', 'decisions/use-valkey-for-caching.md']);
    assert.deepEqual(
      (await holdQuestions(bob)).map((q) => q.status),
      ['answered', 'answered'],
    );
  });
});
