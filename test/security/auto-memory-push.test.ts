import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { coreAt, rejectsWith } from '../core.ts';
import { axme, git } from '../helpers.ts';
import { storeCommit } from './bounded.ts';

/**
 * `autoMemory: sync` in the shared axme.yaml makes every clone's session end import what Claude Code
 * wrote in that machine's auto memory into the store, which the next sync pushes: a teammate's push
 * that switches it on sends each other clone's local notes to the remote. It is held like a
 * loosening (docs/sync.md): only a person here takes it (--accept-loosening); switching it off lands.
 */

const REF = 'refs/memory/main';
const root = mkdtempSync(join(tmpdir(), 'axme-automem-push-'));
after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

/** `dir`'s axme.yaml with `edit` applied, committed by plain git on its store and pushed. */
function pushConfig(dir: string, edit: (text: string) => string): string {
  const text = edit(git(dir, ['show', `${REF}:axme.yaml`]));
  const c = storeCommit(dir, git(dir, ['rev-parse', REF]).trim(), { 'axme.yaml': text }, 'config');
  git(dir, ['update-ref', REF, c]);
  git(dir, ['push', '-q', 'origin', `${c}:${REF}`]);
  return c;
}

describe('security: a push that switches autoMemory: sync on for every clone', () => {
  test('held with a question, the setting here unchanged; an agent cannot take it, a person can; switching it off again lands', async () => {
    const remote = join(root, 'remote.git');
    git(root, ['init', '-q', '--bare', remote]);
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    for (const d of [a, b]) {
      git(root, ['clone', '-q', remote, d]);
      git(d, ['config', 'user.name', 'Dev']);
      git(d, ['config', 'user.email', 'dev@example.com']);
    }
    await coreAt(a).init();
    await coreAt(a).sync();
    await coreAt(b).init();

    const on = pushConfig(a, (t) => `${t.trimEnd()}\nautoMemory: sync\n`);
    const held = await axme(b, ['sync']);
    assert.equal(held.code, 1, held.stdout + held.stderr);
    assert.match(held.stderr, /holding origin's knowledge .*autoMemory: sync would import .*auto memory/, held.stderr);
    assert.doesNotMatch(git(b, ['show', `${REF}:axme.yaml`]), /autoMemory/, 'the setting here is unchanged');
    assert.notEqual(git(remote, ['rev-parse', REF]).trim(), git(b, ['rev-parse', REF]).trim());
    await rejectsWith(coreAt(b).sync(), 'WRONG_STATE', /autoMemory/);

    const agent = await axme(b, ['sync', '--accept-loosening'], { env: { CLAUDECODE: '1' } });
    assert.equal(agent.code, 1, agent.stdout + agent.stderr);
    assert.match(agent.stderr, /only a person may/);

    const took = await axme(b, ['sync', '--accept-loosening']);
    assert.equal(took.code, 0, took.stderr);
    git(b, ['merge-base', '--is-ancestor', on, REF]);
    assert.match(git(b, ['show', `${REF}:axme.yaml`]), /autoMemory: sync/);

    // switching it off is anyone's: it lands on a's next sync without a hold
    pushConfig(b, (t) => t.replace(/autoMemory: sync\n/, 'autoMemory: off\n'));
    const off = await axme(a, ['sync']);
    assert.equal(off.code, 0, off.stderr);
    assert.match(git(a, ['show', `${REF}:axme.yaml`]), /autoMemory: off/);
  });
});
