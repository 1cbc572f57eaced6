import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { rejectsWith } from '../core.ts';
import { cleanEnv, git } from '../helpers.ts';
import { closingClones, type Person, twoPeople } from '../team-clones.ts';

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

/** A commit on refs/memory/main by `dir`'s identity that removes `path` (by hand, as an older axme or a script would). */
function removeByHand(dir: string, path: string): string {
  const env = { ...cleanEnv(), GIT_INDEX_FILE: join(dir, '.git', 'by-hand-index') };
  const run = (args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim();
  const blob = run(['rev-parse', `refs/memory/main:${path}`]);
  run(['read-tree', 'refs/memory/main']);
  run(['rm', '--cached', '-q', path]);
  const c = run(['commit-tree', run(['write-tree']), '-p', 'refs/memory/main', '-m', `remove ${path}`]);
  run(['update-ref', 'refs/memory/main', c]);
  return blob;
}

/** A commit on refs/memory/main by `dir`'s identity that puts `blob` back at `path`. */
function restoreByHand(dir: string, path: string, blob: string): void {
  const env = { ...cleanEnv(), GIT_INDEX_FILE: join(dir, '.git', 'by-hand-index') };
  const run = (args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim();
  run(['read-tree', 'refs/memory/main']);
  run(['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`]);
  const c = run(['commit-tree', run(['write-tree']), '-p', 'refs/memory/main', '-m', `restore ${path}`]);
  run(['update-ref', 'refs/memory/main', c]);
}

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
