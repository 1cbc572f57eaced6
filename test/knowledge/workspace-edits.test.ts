/**
 * In a member repository, the workspace's decisions the repository lists (`[workspace]`) are
 * edited and read like its own where the docs promise it: `decision revoke` overrides one here
 * alone (a revoked copy under its slug), `history` reads it from the workspace store, and
 * amend / supersede / reconfirm say where it lives and what to run there instead of "no decision".
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decisionAdd, decisionSupersede } from '../../src/operations/decision/add.ts';
import { decisionAmend } from '../../src/operations/decision/amend.ts';
import { decisionList } from '../../src/operations/decision/list.ts';
import { decisionRevoke } from '../../src/operations/decision/revoke.ts';
import { history } from '../../src/operations/history.ts';
import { reconfirm } from '../../src/operations/reconfirm.ts';
import { rejectsWith, runOp } from '../core.ts';
import { axmeOk, git } from '../helpers.ts';

describe('a workspace decision, edited and read from a member repository', () => {
  let root: string;
  const api = () => join(root, 'api');
  const web = () => join(root, 'web');
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'axme-ws-edits-'));
    for (const n of ['api', 'web']) {
      const d = join(root, n);
      mkdirSync(d);
      git(d, ['init', '-q', '-b', 'main']);
      git(d, ['config', 'user.name', 'Test User']);
      git(d, ['config', 'user.email', 'test@example.com']);
      git(d, ['commit', '-q', '--allow-empty', '-m', 'first']);
    }
    await axmeOk(root, ['init', '--workspace', '--no-claude', '--no-git-hooks', '--no-scan']);
    await runOp(root, decisionAdd, { title: 'Use pnpm everywhere', decision: 'pnpm', enforce: 'required' }, { actor: 'human' });
    await runOp(root, decisionAdd, { title: 'Use tabs', decision: 'tabs' }, { actor: 'human' });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('history of a workspace decision comes from the workspace store', async () => {
    const r = await runOp(api(), history, { id_or_slug: 'use-pnpm-everywhere' });
    assert.equal(r.path, 'decisions/use-pnpm-everywhere.md');
    assert.equal(r.store, join(root, '.axme.git'));
    assert.deepEqual(
      r.versions.map((v: { change: string }) => v.change),
      ['added'],
    );
  });

  test('amend, supersede and reconfirm name the workspace store and the command to run there', async () => {
    await rejectsWith(
      runOp(api(), decisionAmend, { id: 'use-tabs', title: 'Use tabs, always' }),
      'NOT_FOUND',
      new RegExp(`use-tabs is the workspace's \\(${root}/\\.axme\\.git\\).*axme -C ${root} decision amend use-tabs --title`),
    );
    await rejectsWith(
      runOp(api(), decisionSupersede, { id: 'use-tabs', title: 'Use spaces', decision: 'spaces' }),
      'NOT_FOUND',
      new RegExp(`axme -C ${root} decision supersede use-tabs`),
    );
    await rejectsWith(runOp(api(), reconfirm, { id: 'use-tabs' }), 'NOT_FOUND', /use-tabs is the workspace's .*workspace folder/);
  });

  test("revoke overrides it in this repository alone: a revoked copy under its slug; required stays a person's", async () => {
    await rejectsWith(runOp(api(), decisionRevoke, { id: 'use-pnpm-everywhere', reason: 'not here' }, { actor: 'agent' }), 'NOT_ALLOWED');
    const r = await runOp(api(), decisionRevoke, { id: 'use-pnpm-everywhere', reason: 'not here' }, { actor: 'human' });
    assert.equal(r.status, 'revoked');
    assert.equal(r.slug, 'use-pnpm-everywhere');
    assert.equal(git(api(), ['show', 'refs/memory/main:decisions/use-pnpm-everywhere.md']).includes('status: revoked'), true);
    const here = await runOp(api(), decisionList, {});
    assert.deepEqual(
      here.items.map((d: { slug: string }) => d.slug),
      ['use-tabs'],
    );
    const there = await runOp(web(), decisionList, {});
    assert.deepEqual(there.items.map((d: { slug: string }) => d.slug).sort(), ['use-pnpm-everywhere', 'use-tabs']);
    assert.match(git(join(root, '.axme.git'), ['show', 'refs/memory/main:decisions/use-pnpm-everywhere.md']), /status: active/);
  });
});
