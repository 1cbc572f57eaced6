import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { axme, axmeOk, commitFiles, git, tempRepo } from '../helpers.ts';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

const manifest = (deps: Record<string, string>) => `${JSON.stringify({ name: 'shop', version: '1.0.0', devDependencies: deps }, null, 2)}\n`;

/** A project with a committed package.json that the user then changes without committing (as `npm i -D axme` does). */
function dirtyProject(): string {
  const { dir, cleanup } = tempRepo();
  cleanups.push(cleanup);
  commitFiles(dir, { 'package.json': manifest({ typescript: '^5.0.0' }), 'src/index.ts': 'export const a = 1;\n' }, 'initial code');
  writeFileSync(join(dir, 'package.json'), manifest({ typescript: '^5.0.0', axme: '^1.0.0' }));
  return dir;
}

describe('a manifest scanned while it differed from HEAD is anchored by the content scanned', () => {
  test('init with a changed package.json, then committing it: verify and the context show nothing outdated', async () => {
    const dir = dirtyProject();
    await axmeOk(dir, ['init', '--json']);
    commitFiles(dir, {}, 'add axme');
    const v = await axmeOk(dir, ['verify', '--json']);
    assert.equal(v.checked >= 1, true, JSON.stringify(v));
    assert.deepEqual(v.stale, [], JSON.stringify(v.stale));
    const ctx = await axme(dir, ['context']);
    assert.doesNotMatch(ctx.stdout, /Possibly outdated/);
  });

  test('a later real change of that manifest is still reported', async () => {
    const dir = dirtyProject();
    await axmeOk(dir, ['init', '--json']);
    commitFiles(dir, {}, 'add axme');
    const c = commitFiles(dir, { 'package.json': manifest({ typescript: '^5.4.0', axme: '^1.0.0' }) }, 'bump typescript');
    const v = await axmeOk(dir, ['verify', '--json']);
    const stack = v.stale.find((s: { slug: string }) => s.slug === 'stack');
    assert.ok(stack, JSON.stringify(v));
    assert.deepEqual(
      stack.commits.map((x: { sha: string }) => x.sha),
      [c],
      'only the later commit: the one that committed what was scanned is not a change',
    );
  });

  test('content committed other than what was scanned is a change', async () => {
    const dir = dirtyProject();
    await axmeOk(dir, ['init', '--json']);
    commitFiles(dir, { 'package.json': manifest({ typescript: '^5.0.0', axme: '^2.0.0' }) }, 'add axme 2');
    const v = await axmeOk(dir, ['verify', '--json']);
    assert.ok(
      v.stale.find((s: { slug: string }) => s.slug === 'stack'),
      JSON.stringify(v),
    );
    assert.equal(git(dir, ['status', '--porcelain', '--', 'package.json']), '');
  });
});
