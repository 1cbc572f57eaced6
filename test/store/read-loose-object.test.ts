/**
 * Loose objects read in-process (store/read-loose-object.ts), checked against what the git CLI
 * says of the same objects in a real repository.
 */

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { looseObjectWriter } from '../../src/store/loose-objects.ts';
import { looseObjectType, readLooseObject } from '../../src/store/read-loose-object.ts';
import { cleanEnv, git, tempRepo } from '../helpers.ts';

const { dir, cleanup } = tempRepo({ commit: true });
after(cleanup);
const commonDir = join(dir, '.git');

test('a loose object: its type and content are what git says, whatever its size', () => {
  const big = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 251));
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, env: cleanEnv(), input: big }).toString().trim();
  const commit = git(dir, ['rev-parse', 'HEAD']).trim();
  const tree = git(dir, ['rev-parse', 'HEAD^{tree}']).trim();
  const tag = git(dir, ['mktag'], `object ${commit}\ntype commit\ntag v1\ntagger T <t@example.com> 1767225600 +0000\n\nv1\n`).trim();
  for (const oid of [blob, commit, tree, tag]) {
    const type = git(dir, ['cat-file', '-t', oid]).trim();
    assert.equal(looseObjectType(commonDir, oid), type, `the type of ${type} ${oid}`);
    const read = readLooseObject(commonDir, oid);
    assert.equal(read?.type, type);
    assert.deepEqual(read?.content, execFileSync('git', ['cat-file', type, oid], { cwd: dir, env: cleanEnv() }), `the content of ${type} ${oid}`);
  }
});

test('what the in-process writer writes, git and the in-process reader read, at the path git looks at', async () => {
  const content = Buffer.from('written in-process\n');
  const oid = await looseObjectWriter(commonDir).writeBlob(content);
  assert.equal(git(dir, ['hash-object', '--stdin'], content.toString()).trim(), oid);
  assert.equal(git(dir, ['cat-file', '-t', oid]).trim(), 'blob');
  assert.deepEqual(readLooseObject(commonDir, oid), { type: 'blob', content });
});

test('an object git packed, or one that is absent, is left to git (null)', () => {
  const commit = git(dir, ['rev-parse', 'HEAD']).trim();
  git(dir, ['gc', '-q', '--prune=now']);
  for (const oid of [commit, '0123456789abcdef0123456789abcdef01234567']) {
    assert.equal(looseObjectType(commonDir, oid), null);
    assert.equal(readLooseObject(commonDir, oid), null);
  }
});
