import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { rejectsWith } from '../core.ts';
import { cleanEnv, git } from '../helpers.ts';
import { closingClones, twoPeople } from '../team-clones.ts';

/**
 * A clone may prune only its own writer's handoffs (docs/sessions.md): a remote change that removes
 * a teammate's handoff — by a commit of someone other than the handoff's `author` — is held like the
 * removal of an item (WRONG_STATE, nothing taken, `--accept-removals` takes it); the writer's own
 * prune comes in without a word (real git: a bare remote, two clones with their own identity).
 */

const root = mkdtempSync(join(tmpdir(), 'axme-handoff-removal-'));
after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

const { close, sync } = closingClones();
const tree = (dir: string) => git(dir, ['ls-tree', '-r', '--name-only', 'refs/memory/main', 'handoffs/']).trim().split('\n').filter(Boolean);

/** A commit on refs/memory/main by `dir`'s identity that removes `path` (by hand, as an older axme or a script would). */
function removeByHand(dir: string, path: string): void {
  const env = { ...cleanEnv(), GIT_INDEX_FILE: join(dir, '.git', 'by-hand-index') };
  const run = (args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim();
  run(['read-tree', 'refs/memory/main']);
  run(['rm', '--cached', '-q', path]);
  const c = run(['commit-tree', run(['write-tree']), '-p', 'refs/memory/main', '-m', `handoff: remove ${path}`]);
  run(['update-ref', 'refs/memory/main', c]);
}

describe("a teammate's handoff removed on another clone", () => {
  test("is held on the writer's clone; the writer's own prune is not", async () => {
    const {
      people: [ann, bob],
    } = await twoPeople(root);
    await close(bob.dir, 'b1');
    await close(ann.dir, 'a1');
    await sync(bob.dir);
    await sync(ann.dir);
    await sync(bob.dir);
    assert.deepEqual(tree(bob.dir), ['handoffs/a1.md', 'handoffs/b1.md']);

    // ann removes bob's handoff by hand and pushes it
    removeByHand(ann.dir, 'handoffs/b1.md');
    await sync(ann.dir);
    const held = await rejectsWith(sync(bob.dir), 'WRONG_STATE', /handoffs\/b1\.md/);
    assert.deepEqual(held.data?.removed, ['handoffs/b1.md']);
    assert.deepEqual(tree(bob.dir), ['handoffs/a1.md', 'handoffs/b1.md'], 'nothing taken');
    const taken = await sync(bob.dir, true);
    assert.deepEqual(taken.removed, ['handoffs/b1.md']);

    // ann's own handoff removed by ann: her prune, taken silently
    removeByHand(ann.dir, 'handoffs/a1.md');
    await sync(ann.dir);
    const r = await sync(bob.dir);
    assert.deepEqual(r.removed, []);
    assert.deepEqual(tree(bob.dir), []);
  });
});
