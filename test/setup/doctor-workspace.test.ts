/**
 * `axme doctor` in a workspace folder (docs/workspaces.md): the folder has no repository of its
 * own, and must not get one — a `git init` around `.axme.git` hides the workspace's store from
 * every member (its required decisions and deny rules stop applying). Doctor said "no git
 * repository … fix: git init"; it now checks the workspace as one.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeIn } from '../cli-in-process.ts';
import { axmeOk, git } from '../helpers.ts';

describe('axme doctor in a workspace folder', () => {
  let root: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'axme-ws-doctor-'));
    for (const n of ['api', 'web']) {
      const d = join(root, n);
      mkdirSync(d);
      git(d, ['init', '-q', '-b', 'main']);
      git(d, ['config', 'user.name', 'Test User']);
      git(d, ['config', 'user.email', 'test@example.com']);
      git(d, ['commit', '-q', '--allow-empty', '-m', 'first']);
    }
    await axmeOk(root, ['init', '--workspace', '--no-claude', '--no-git-hooks', '--no-scan']);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('checks the workspace store and its members, and never advises git init', async () => {
    const r = await axmeIn(root, ['doctor', '--json']);
    const report = JSON.parse(r.stdout);
    const checks: Array<{ name: string; status: string; detail?: string; fix?: string }> = report.checks;
    assert.ok(!checks.some((c) => /git init/.test(`${c.detail ?? ''} ${c.fix ?? ''}`)), JSON.stringify(checks, null, 1));
    const by = new Map(checks.map((c) => [c.name, c]));
    assert.equal(by.get('workspace')?.status, 'ok', JSON.stringify(checks, null, 1));
    assert.equal(by.get('store')?.status, 'ok');
    assert.match(by.get('members')?.detail ?? '', /api.*web|web.*api/);
  });
});
