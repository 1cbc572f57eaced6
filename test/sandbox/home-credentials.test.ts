import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { sandboxPolicy } from '../../src/sandbox/policy.ts';

/**
 * The home folder's credential files the parser denies (model/home-credentials.ts HOME_CREDENTIALS) are
 * the ones the sandbox hides: a real home folder holding them, the policy built for a command in
 * a project there (no repository: its folder alone).
 */
const root = realpathSync(mkdtempSync(join(tmpdir(), 'axme-home-creds-')));
after(() => rmSync(root, { recursive: true, force: true }));

test("the sandbox hides the home's credential files the parser denies, and leaves their neighbours", () => {
  const home = join(root, 'home');
  const project = join(home, 'proj');
  const files = [
    '.kube/config',
    '.npmrc',
    '.pgpass',
    '.gem/credentials',
    '.claude/.credentials.json',
    '.claude/settings.json',
    '.codex/auth.json',
    '.bash_history',
    '.mozilla/firefox/p.default/cookies.sqlite',
    '.local/share/keyrings/login.keyring',
    '.gitconfig',
    '.bashrc',
  ];
  for (const f of files) {
    mkdirSync(dirname(join(home, f)), { recursive: true });
    writeFileSync(join(home, f), 'x');
  }
  mkdirSync(project, { recursive: true });
  const policy = sandboxPolicy({ loc: null, cwd: project, home, env: {}, guarded: [] });
  const hidden = [...policy.hiddenFiles, ...policy.hiddenDirs];
  for (const p of ['.kube', '.mozilla', '.local/share/keyrings']) assert.ok(policy.hiddenDirs.includes(join(home, p)), `${p} is hidden: ${hidden}`);
  for (const p of ['.npmrc', '.pgpass', '.gem/credentials', '.claude/.credentials.json', '.codex/auth.json', '.bash_history'])
    assert.ok(policy.hiddenFiles.includes(join(home, p)), `${p} is hidden: ${hidden}`);
  for (const p of ['.claude/settings.json', '.claude', '.gitconfig', '.bashrc', 'proj']) assert.ok(!hidden.includes(join(home, p)), `${p} stays readable`);
});
