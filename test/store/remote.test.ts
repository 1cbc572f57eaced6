/**
 * Knowledge fetched from a remote (store/remote.ts): a real bare remote and a real clone, git's
 * own trace (GIT_TRACE) telling which git processes ran.
 */

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fetchKnowledge, type MirroredRef, remoteKnowledgeRefs } from '../../src/store/remote.ts';
import { openRepo } from '../../src/store/repo.ts';
import { cleanEnv, git, importCommit, tempRepo } from '../helpers.ts';

const cleanups: Array<() => void> = [];
after(() => {
  for (const c of cleanups) c();
});

function repoDir(opts: { bare?: boolean } = {}): string {
  const { dir, cleanup } = tempRepo(opts);
  cleanups.push(cleanup);
  return dir;
}

describe('fetchKnowledge', () => {
  test('fetches the knowledge and a mirrored ref in one fetch, then nothing while the tracking refs hold what the remote lists', async () => {
    const remote = repoDir({ bare: true });
    importCommit(remote, [['axme.yaml', 'version: 1\n']], { ref: 'refs/memory/main' });
    importCommit(remote, [['axme.yaml', 'version: 1\nreviewed: true\n']], { ref: 'refs/heads/axme/memory' });
    const dir = repoDir();
    git(dir, ['remote', 'add', 'origin', remote]);
    const trace = join(dir, '.git', 'trace.log');
    writeFileSync(trace, '');
    const repo = await openRepo({ cwd: dir, env: cleanEnv({ GIT_TRACE: trace }) });
    const fetches = () =>
      readFileSync(trace, 'utf8')
        .split('\n')
        .filter((l) => /trace: built-in: git fetch /.test(l)).length;
    const mirror: MirroredRef = { remoteRef: 'refs/heads/axme/memory', localRef: 'refs/axme-test/reviewed' };
    const fetchNow = async () => fetchKnowledge(repo, 'origin', await remoteKnowledgeRefs(repo, 'origin', [mirror.remoteRef]), [mirror]);
    const remoteTip = (ref: string) => git(remote, ['rev-parse', ref]).trim();
    const localTip = (ref: string) => git(dir, ['rev-parse', ref]).trim();

    const first = await fetchNow();
    assert.equal(fetches(), 1, 'one fetch brings the knowledge and the mirrored ref');
    assert.equal(localTip('refs/memory-remotes/origin/main'), remoteTip('refs/memory/main'));
    assert.equal(localTip(mirror.localRef), remoteTip(mirror.remoteRef));

    const again = await fetchNow();
    assert.equal(fetches(), 1, 'nothing moved: nothing fetched');
    const held = new Map([
      ['refs/memory-remotes/origin/main', remoteTip('refs/memory/main')],
      [mirror.localRef, remoteTip(mirror.remoteRef)],
    ]);
    assert.deepEqual(first, held, 'what the tracking and mirrored refs hold, read after the fetch');
    assert.deepEqual(again, held, 'the same, from the listing');

    // only the mirrored ref moves: it alone makes the next call fetch
    importCommit(remote, [['axme.yaml', 'version: 1\nreviewed: again\n']], { ref: mirror.remoteRef, from: remoteTip(mirror.remoteRef) });
    await fetchNow();
    assert.equal(fetches(), 2, 'the mirrored ref moved on the remote: fetched');
    assert.equal(localTip(mirror.localRef), remoteTip(mirror.remoteRef));
    await repo.close();
  });

  test('answers what the fetch brought, not the listing, when the remote moved between the two', async () => {
    const remote = repoDir({ bare: true });
    importCommit(remote, [['axme.yaml', 'version: 1\n']], { ref: 'refs/memory/main' });
    const dir = repoDir();
    git(dir, ['remote', 'add', 'origin', remote]);
    const repo = await openRepo({ cwd: dir, env: cleanEnv() });
    const listed = await remoteKnowledgeRefs(repo, 'origin');
    const old = git(remote, ['rev-parse', 'refs/memory/main']).trim();
    assert.equal(listed.memory.get('refs/memory/main'), old);
    importCommit(remote, [['axme.yaml', 'version: 2\n']], { ref: 'refs/memory/main', from: old });
    const moved = git(remote, ['rev-parse', 'refs/memory/main']).trim();
    const tracked = await fetchKnowledge(repo, 'origin', listed);
    assert.deepEqual(tracked, new Map([['refs/memory-remotes/origin/main', moved]]));
    assert.equal(git(dir, ['rev-parse', 'refs/memory-remotes/origin/main']).trim(), moved);
    await repo.close();
  });
});
