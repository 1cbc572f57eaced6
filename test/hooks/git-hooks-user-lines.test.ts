import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { axmeIn } from '../cli-in-process.ts';
import { git, tempRepo } from '../helpers.ts';

/** Lines a user adds to a hook axme installed in .git/hooks are theirs: neither re-init nor uninstall may lose them. */

const MINE = '\n# my own check\necho "user line ran" >> "$(git rev-parse --git-dir)/mine.log"\n';

async function ok(dir: string, args: string[]): Promise<string> {
  const r = await axmeIn(dir, args);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

test('re-running axme init keeps the lines a user appended to an axme git hook, and they still run', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    await ok(dir, ['init', '--no-claude', '--no-scan']);
    const hook = join(dir, '.git', 'hooks', 'commit-msg');
    appendFileSync(hook, MINE);
    const edited = readFileSync(hook, 'utf8');
    const again = JSON.parse(await ok(dir, ['init', '--no-claude', '--no-scan', '--json']));
    assert.equal(again.gitHooks.find((h: { hook: string }) => h.hook === 'commit-msg').action, 'unchanged');
    assert.equal(readFileSync(hook, 'utf8'), edited, 'nothing of the user is lost');
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'x']);
    assert.match(readFileSync(join(dir, '.git', 'mine.log'), 'utf8'), /user line ran/);
  } finally {
    cleanup();
  }
});

test("axme uninstall takes out only its own lines of a hook the user added to; the user's hook stays and runs", async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    await ok(dir, ['init', '--no-claude', '--no-scan']);
    const hook = join(dir, '.git', 'hooks', 'pre-push');
    appendFileSync(hook, MINE);
    const out = await ok(dir, ['uninstall']);
    assert.match(out, /pre-push/);
    assert.equal(readFileSync(hook, 'utf8'), `#!/bin/sh\n${MINE.trimStart()}`);
    assert.equal(existsSync(join(dir, '.git', 'hooks', 'commit-msg')), false, 'a hook of axme only goes whole');
    // a second uninstall finds nothing of axme's
    assert.equal(readFileSync(hook, 'utf8'), `#!/bin/sh\n${MINE.trimStart()}`);
    assert.doesNotMatch(await ok(dir, ['uninstall']), /pre-push/);
  } finally {
    cleanup();
  }
});

test('a hook axme chained and the user then added to is not guessed at: uninstall refuses, naming the files, and changes nothing', async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    const hook = join(dir, '.git', 'hooks', 'commit-msg');
    writeFileSync(hook, '#!/bin/sh\necho before\n');
    chmodSync(hook, 0o755);
    await ok(dir, ['init', '--no-claude', '--no-scan']);
    appendFileSync(hook, MINE);
    const edited = readFileSync(hook, 'utf8');
    const r = await axmeIn(dir, ['uninstall']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /commit-msg\.axme-previous/);
    assert.equal(readFileSync(hook, 'utf8'), edited);
    assert.equal(readFileSync(`${hook}.axme-previous`, 'utf8'), '#!/bin/sh\necho before\n');
    assert.ok(existsSync(join(dir, '.git', 'hooks', 'pre-push')), 'no other hook was removed either');
  } finally {
    cleanup();
  }
});

test("uninstall of a husky hook file that stays reports axme's line taken out, not the file removed", async () => {
  const { dir, cleanup } = tempRepo({ commit: true });
  try {
    mkdirSync(join(dir, '.husky'));
    writeFileSync(join(dir, '.husky', 'pre-push'), 'npm test\n');
    git(dir, ['config', 'core.hooksPath', '.husky/_']);
    await ok(dir, ['init', '--no-claude', '--no-scan']);
    const r = JSON.parse(await ok(dir, ['uninstall', '--json']));
    const changes = (r.gitHooks ?? r) as Array<{ hook: string; action: string }>;
    assert.equal(changes.find((h) => h.hook === 'pre-push')?.action, 'updated');
    assert.equal(changes.find((h) => h.hook === 'commit-msg')?.action, 'removed');
    assert.match(readFileSync(join(dir, '.husky', 'pre-push'), 'utf8'), /^#!\/bin\/sh\nnpm test\n$/);
  } finally {
    cleanup();
  }
});
