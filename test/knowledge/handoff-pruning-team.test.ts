import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { initCore } from '../core.ts';
import { git } from '../helpers.ts';
import { closingClones } from '../team-clones.ts';

/**
 * Handoffs are pruned to the newest few of their writer's, not of the whole team: a busy teammate's
 * closes, synced in, never push out a handoff someone else left for their own next session (real
 * git: a bare remote, two clones, each with its own identity).
 */

const root = mkdtempSync(join(tmpdir(), 'axme-handoff-team-'));
after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

const { close, sync } = closingClones();
const handoffs = (dir: string) =>
  git(dir, ['ls-tree', '--name-only', 'refs/memory/main', 'handoffs/'])
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((p) => p.slice('handoffs/'.length, -'.md'.length))
    .sort();

describe('handoffs pruned per writer, not team-wide', () => {
  test("B's six closes keep B's newest five and never prune A's; A's close prunes none of B's", async () => {
    const remote = join(root, 'remote.git');
    git(root, ['init', '-q', '--bare', remote]);
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    for (const [d, who] of [
      [a, 'ann'],
      [b, 'bob'],
    ] as const) {
      git(root, ['clone', '-q', remote, d]);
      git(d, ['config', 'user.name', who]);
      git(d, ['config', 'user.email', `${who}@example.com`]);
    }
    await initCore(a, { claude: false, gitHooks: false, scan: false });
    await sync(a);
    await initCore(b, { claude: false, gitHooks: false, scan: false });

    await close(a, 'a1');
    await close(a, 'a2');
    await sync(a);
    await sync(b);
    const bobs = ['b1', 'b2', 'b3', 'b4', 'b5', 'b6'];
    let pruned: string[] = [];
    for (const s of bobs) pruned = (await close(b, s)).pruned;
    assert.deepEqual(pruned, ['handoffs/b1.md'], "b6's close prunes bob's oldest, no one else's");
    await sync(b);
    await sync(a);
    assert.deepEqual(handoffs(a), ['a1', 'a2', 'b2', 'b3', 'b4', 'b5', 'b6'], "ann's handoffs are still there after bob's busy day");

    // ann's close prunes none of bob's, and her own only past five
    for (const s of ['a3', 'a4', 'a5']) assert.deepEqual((await close(a, s)).pruned, []);
    assert.deepEqual((await close(a, 'a6')).pruned, ['handoffs/a1.md']);
    await sync(a);
    await sync(b);
    assert.deepEqual(handoffs(b), ['a2', 'a3', 'a4', 'a5', 'a6', 'b2', 'b3', 'b4', 'b5', 'b6']);
    const written = git(b, ['show', 'refs/memory/main:handoffs/a6.md']);
    assert.match(written, /^author: ann@example\.com$/m, 'the handoff names who wrote it');
  });
});
