/**
 * The GitBackend contract (src/store/backend.ts), one suite run against every backend on real
 * repositories, checked against what the git CLI itself computes.
 */

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isAxmeError } from '../../src/model/errors.ts';
import type { BackendName, CommitObject, Signature, TreeEntry } from '../../src/store/backend.ts';
import { openRepo, type Repo } from '../../src/store/repo.ts';
import { cleanEnv, git, gitFsck, tempRepo } from '../helpers.ts';

const BACKENDS = ['isogit', 'cli', 'hybrid'] as const satisfies readonly BackendName[];

/** Runs git with binary input and extra environment; returns trimmed stdout. */
function gitIn(cwd: string, args: string[], input: Buffer | string, env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('git', args, { cwd, env: cleanEnv(env), input, stdio: ['pipe', 'pipe', 'pipe'] })
    .toString('utf8')
    .trim();
}

async function rejectsWith(p: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(isAxmeError(err), `expected an AxmeError, got ${String(err)}`);
    assert.equal(err.code, code);
    return true;
  });
}

const sig = (name: string, email: string, timestamp: number, tz: string): Signature => ({ name, email, timestamp, tz });

for (const name of BACKENDS) {
  describe(`GitBackend contract: ${name}`, () => {
    let dir: string;
    let cleanup: () => void;
    let repo: Repo;

    before(async () => {
      ({ dir, cleanup } = tempRepo());
      repo = await openRepo({ cwd: dir, env: cleanEnv(), backend: name });
    });
    after(async () => {
      await repo.close();
      cleanup();
    });

    test('reports its name', () => {
      assert.equal(repo.backend.name, name);
    });

    describe('blobs', () => {
      const allBytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const cases: Array<[string, Buffer]> = [
        ['text', Buffer.from('# Use Valkey\n\nBecause ünïcödé and\r\nCRLF stay as they are.\n')],
        ['empty', Buffer.alloc(0)],
        ['all 256 byte values', Buffer.concat([allBytes, allBytes.reverse()])],
        ['1 MB of random bytes', randomBytes(1024 * 1024)],
      ];
      for (const [label, data] of cases) {
        test(`writeBlob/readBlob round trip: ${label}`, async () => {
          const oid = await repo.backend.writeBlob(data);
          assert.equal(oid, gitIn(dir, ['hash-object', '--stdin'], data));
          const back = await repo.backend.readBlob(oid);
          assert.ok(Buffer.isBuffer(back));
          assert.equal(back.length, data.length);
          assert.ok(back.equals(data), 'content differs after the round trip');
          // complete on disk: git itself finds and reads it
          assert.doesNotThrow(() => git(dir, ['cat-file', '-e', oid]));
          assert.equal(git(dir, ['cat-file', '-t', oid]).trim(), 'blob');
          assert.equal(Number(git(dir, ['cat-file', '-s', oid]).trim()), data.length);
        });
      }

      test('writeBlobs stores many blobs at once, OIDs in order, the same OIDs as git', async () => {
        const datas = [Buffer.alloc(0), Buffer.from([0, 1, 2, 255]), ...Array.from({ length: 30 }, (_, i) => Buffer.from(`batch ${i}\r\n`.repeat(i + 1)))];
        const oids = await repo.backend.writeBlobs(datas);
        assert.equal(oids.length, datas.length);
        oids.forEach((o, i) => assert.equal(o, gitIn(dir, ['hash-object', '--no-filters', '--stdin'], datas[i]!).trim(), `blob ${i}`));
        const back = await Promise.all(oids.map((o) => repo.backend.readBlob(o)));
        back.forEach((b, i) => assert.ok(b.equals(datas[i]!), `blob ${i} differs`));
        assert.deepEqual(await repo.backend.writeBlobs([]), []);
      });

      test('many concurrent reads come back in order with the right content', async () => {
        const datas = Array.from({ length: 40 }, (_, i) => Buffer.from(`blob number ${i}\n`.repeat(i * 50 + 1)));
        const oids = await Promise.all(datas.map((d) => repo.backend.writeBlob(d)));
        const back = await Promise.all(oids.map((o) => repo.backend.readBlob(o)));
        back.forEach((b, i) => assert.ok(b.equals(datas[i]!), `blob ${i} differs`));
      });
    });

    describe('trees', () => {
      test('writeTree sorts entries the way git does and matches git mktree', async () => {
        const text = await repo.backend.writeBlob(Buffer.from('text\n'));
        const script = await repo.backend.writeBlob(Buffer.from('#!/bin/sh\necho hi\n'));
        const target = await repo.backend.writeBlob(Buffer.from('a.md'));
        const sub = await repo.backend.writeTree([{ mode: '100644', name: 'inner.md', oid: text, type: 'blob' }]);
        // out of order on purpose; `a` (tree, compared as `a/`) must come after `a.md` and `a-b`
        const entries: TreeEntry[] = [
          { mode: '100644', name: 'z.md', oid: text, type: 'blob' },
          { mode: '040000', name: 'a', oid: sub, type: 'tree' },
          { mode: '100644', name: 'a0', oid: text, type: 'blob' },
          { mode: '100755', name: 'a.md', oid: script, type: 'blob' },
          { mode: '120000', name: 'a-link', oid: target, type: 'blob' },
          { mode: '100644', name: 'B.md', oid: text, type: 'blob' },
          { mode: '100644', name: 'é.md', oid: text, type: 'blob' },
          { mode: '100644', name: '\u{1F600}.md', oid: text, type: 'blob' }, // UTF-8 byte order, not UTF-16
          { mode: '100644', name: '\uFF61.md', oid: text, type: 'blob' },
          { mode: '040000', name: 'decisions', oid: sub, type: 'tree' },
          { mode: '100644', name: 'decisions.md', oid: text, type: 'blob' },
        ];
        const oid = await repo.backend.writeTree(entries);
        const mktree = gitIn(dir, ['mktree'], entries.map((e) => `${e.mode} ${e.type} ${e.oid}\t${e.name}\n`).join(''));
        assert.equal(oid, mktree);
        assert.deepEqual(gitFsck(dir), { code: 0, out: '' });

        // stored in git order, which `git ls-tree` lists as stored
        const stored = git(dir, ['ls-tree', '-z', oid])
          .split('\0')
          .filter(Boolean)
          .map((l) => l.slice(l.indexOf('\t') + 1));
        assert.deepEqual(stored, ['B.md', 'a-link', 'a.md', 'a', 'a0', 'decisions.md', 'decisions', 'z.md', 'é.md', '\uFF61.md', '\u{1F600}.md']);

        const read = await repo.backend.readTree(oid);
        const byName = (a: TreeEntry, b: TreeEntry) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name));
        assert.deepEqual([...read].sort(byName), [...entries].sort(byName));
      });

      test('writeTree of no entries is the empty tree; a gitlink entry is kept', async () => {
        assert.equal(await repo.backend.writeTree([]), '4b825dc642cb6eb9a060e54bf8d69288fbee4904');
        const gitlink: TreeEntry = { mode: '160000', name: 'vendor', oid: '1'.repeat(40), type: 'commit' };
        const oid = await repo.backend.writeTree([gitlink]);
        assert.equal(oid, gitIn(dir, ['mktree'], `160000 commit ${'1'.repeat(40)}\tvendor\n`));
        assert.deepEqual(await repo.backend.readTree(oid), [gitlink]);
      });

      test('readTree reports mode, name, oid and type of every entry', async () => {
        const blob = await repo.backend.writeBlob(Buffer.from('x\n'));
        const inner = await repo.backend.writeTree([{ mode: '100644', name: 'x.md', oid: blob, type: 'blob' }]);
        const oid = await repo.backend.writeTree([
          { mode: '040000', name: 'memories', oid: inner, type: 'tree' },
          { mode: '100755', name: 'run.sh', oid: blob, type: 'blob' },
        ]);
        const entries = await repo.backend.readTree(oid);
        const memories = entries.find((e) => e.name === 'memories');
        const run = entries.find((e) => e.name === 'run.sh');
        assert.deepEqual(memories, { mode: '040000', name: 'memories', oid: inner, type: 'tree' });
        assert.deepEqual(run, { mode: '100755', name: 'run.sh', oid: blob, type: 'blob' });
        assert.equal(entries.length, 2);
      });
    });

    describe('commits', () => {
      test('writeCommit with 0, 1 and 2 parents: same OID on every backend and as git commit-tree, and round-trips', async () => {
        const others = await Promise.all(BACKENDS.map((b) => openRepo({ cwd: dir, env: cleanEnv(), backend: b })));
        try {
          const blob = await repo.backend.writeBlob(Buffer.from('version: 1\n'));
          const tree = await repo.backend.writeTree([{ mode: '100644', name: 'axme.yaml', oid: blob, type: 'blob' }]);
          const author = sig('Zoë Ünïcode-Ærøskøbing', 'zoe@example.com', 1_790_000_000, '+0130');
          const committer = sig('Комитер 山田', 'committer@example.org', 1_790_000_042, '-0530');
          const message = 'decision: add use-valkey Use Valkey ✓\n\nWhy: latency.\nSecond body line.\n\nAxme-Event: decision.added\nAxme-Actor: agent\n';

          const made: string[] = [];
          for (let n = 0; n < 3; n++) {
            const parents = n === 0 ? [] : n === 1 ? [made[0]!] : [made[1]!, made[0]!];
            const c: CommitObject = { tree, parents, author, committer, message: `${message}Parents: ${n}\n` };
            const oids = await Promise.all(others.map((r) => r.backend.writeCommit(c)));
            assert.equal(new Set(oids).size, 1, `backends disagree: ${oids.join(' ')}`);
            const oid = await repo.backend.writeCommit(c);
            assert.equal(oid, oids[0]);

            // what git itself makes of the same commit
            const viaGit = gitIn(dir, ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'], c.message, {
              GIT_AUTHOR_NAME: author.name,
              GIT_AUTHOR_EMAIL: author.email,
              GIT_AUTHOR_DATE: `@${author.timestamp} ${author.tz}`,
              GIT_COMMITTER_NAME: committer.name,
              GIT_COMMITTER_EMAIL: committer.email,
              GIT_COMMITTER_DATE: `@${committer.timestamp} ${committer.tz}`,
            });
            assert.equal(oid, viaGit);

            const shown = git(dir, ['cat-file', '-p', oid]);
            assert.ok(shown.includes(`\nauthor Zoë Ünïcode-Ærøskøbing <zoe@example.com> 1790000000 +0130\n`), shown);
            assert.ok(shown.includes(`\ncommitter Комитер 山田 <committer@example.org> 1790000042 -0530\n`), shown);
            assert.equal(shown.split('\n').filter((l) => l.startsWith('parent ')).length, n);

            const back = await repo.backend.readCommit(oid);
            assert.deepEqual(back, { tree, parents, author, committer, message: c.message });
            made.push(oid);
          }
          assert.deepEqual(gitFsck(dir), { code: 0, out: '' });
          assert.deepEqual(git(dir, ['rev-list', '--parents', '-1', made[2]!]).trim().split(' '), [made[2], made[1], made[0]]);
        } finally {
          await Promise.all(others.map((r) => r.close()));
        }
      });

      test('writeCommit normalizes the message (CR, leading and trailing blank lines) like git', async () => {
        const tree = await repo.backend.writeTree([]);
        const who = sig('Test User', 'test@example.com', 1_790_000_000, '+0200');
        const oid = await repo.backend.writeCommit({ tree, parents: [], author: who, committer: who, message: '\n\nSubject\r\n\r\nBody\r\n\n\n' });
        const raw = git(dir, ['cat-file', 'commit', oid]);
        assert.ok(raw.endsWith('\n\nSubject\n\nBody\n'), JSON.stringify(raw));
        assert.equal((await repo.backend.readCommit(oid)).message, 'Subject\n\nBody\n');
      });
    });

    describe('refs', () => {
      test('resolveRef: missing, loose, then packed', async () => {
        assert.equal(await repo.backend.resolveRef('refs/memory/contract'), null);
        const tree = await repo.backend.writeTree([]);
        const who = sig('Test User', 'test@example.com', 1_790_000_000, '+0100');
        const commit = await repo.backend.writeCommit({ tree, parents: [], author: who, committer: who, message: 'ref test' });
        git(dir, ['update-ref', 'refs/memory/contract', commit]);
        assert.ok(existsSync(join(dir, '.git', 'refs', 'memory', 'contract')), 'expected a loose ref');
        assert.equal(await repo.backend.resolveRef('refs/memory/contract'), commit);

        git(dir, ['pack-refs', '--all']);
        assert.ok(!existsSync(join(dir, '.git', 'refs', 'memory', 'contract')), 'expected the ref to be packed');
        assert.equal(await repo.backend.resolveRef('refs/memory/contract'), commit);
        assert.equal(await repo.backend.resolveRef('refs/memory/other'), null);

        // a loose ref shadows its stale packed copy
        const next = await repo.backend.writeCommit({ tree, parents: [commit], author: who, committer: who, message: 'ref test 2' });
        git(dir, ['update-ref', 'refs/memory/contract', next]);
        assert.equal(await repo.backend.resolveRef('refs/memory/contract'), next);
      });
    });

    describe('errors', () => {
      test('reading a missing object rejects with CORRUPT', async () => {
        const missing = '0123456789abcdef0123456789abcdef01234567';
        await rejectsWith(repo.backend.readBlob(missing), 'CORRUPT');
        await rejectsWith(repo.backend.readTree(missing), 'CORRUPT');
        await rejectsWith(repo.backend.readCommit(missing), 'CORRUPT');
        // the backend is still usable afterwards
        const oid = await repo.backend.writeBlob(Buffer.from('after a miss\n'));
        assert.equal((await repo.backend.readBlob(oid)).toString(), 'after a miss\n');
      });

      test('reading an object as the wrong type rejects with CORRUPT', async () => {
        const blob = await repo.backend.writeBlob(Buffer.from('I am a blob\n'));
        const tree = await repo.backend.writeTree([{ mode: '100644', name: 'f', oid: blob, type: 'blob' }]);
        await rejectsWith(repo.backend.readTree(blob), 'CORRUPT');
        await rejectsWith(repo.backend.readCommit(blob), 'CORRUPT');
        await rejectsWith(repo.backend.readBlob(tree), 'CORRUPT');
        await rejectsWith(repo.backend.readCommit(tree), 'CORRUPT');
      });

      test('a commit read as a tree, or an annotated tag as a commit or a tree, rejects with CORRUPT (never peeled)', async () => {
        const blob = await repo.backend.writeBlob(Buffer.from('tagged\n'));
        const tree = await repo.backend.writeTree([{ mode: '100644', name: 't', oid: blob, type: 'blob' }]);
        const who = sig('Test User', 'test@example.com', 1_790_000_000, '+0000');
        const commit = await repo.backend.writeCommit({ tree, parents: [], author: who, committer: who, message: 'tagged' });
        const tagName = `contract-${name}-${randomBytes(3).toString('hex')}`;
        git(dir, ['-c', 'user.name=t', '-c', 'user.email=t@e', 'tag', '-a', tagName, commit, '-m', 'an annotated tag']);
        const tag = git(dir, ['rev-parse', `refs/tags/${tagName}`]).trim();
        assert.notEqual(tag, commit);
        await rejectsWith(repo.backend.readTree(commit), 'CORRUPT');
        await rejectsWith(repo.backend.readCommit(tag), 'CORRUPT');
        await rejectsWith(repo.backend.readTree(tag), 'CORRUPT');
        assert.equal((await repo.backend.readCommit(commit)).tree, tree);
      });
    });

    test('objects written by the backend are in the repository for git', async () => {
      const blob = await repo.backend.writeBlob(Buffer.from(`unique ${randomBytes(8).toString('hex')}\n`));
      const tree = await repo.backend.writeTree([{ mode: '100644', name: 'n.md', oid: blob, type: 'blob' }]);
      const who = sig('Test User', 'test@example.com', 1_790_000_000, '+0100');
      const commit = await repo.backend.writeCommit({ tree, parents: [], author: who, committer: who, message: 'objects' });
      for (const [oid, type] of [
        [blob, 'blob'],
        [tree, 'tree'],
        [commit, 'commit'],
      ] as const) {
        assert.equal(spawnSync('git', ['cat-file', '-e', oid], { cwd: dir, env: cleanEnv() }).status, 0, `${type} ${oid} not found by git`);
        assert.equal(git(dir, ['cat-file', '-t', oid]).trim(), type);
      }
      assert.deepEqual(gitFsck(dir), { code: 0, out: '' });
    });

    test('objects are still read after git packs them', async () => {
      const data = Buffer.from(`packed ${randomBytes(8).toString('hex')}\n`);
      const blob = await repo.backend.writeBlob(data);
      const entries: TreeEntry[] = [{ mode: '100644', name: 'p.md', oid: blob, type: 'blob' }];
      const tree = await repo.backend.writeTree(entries);
      const who = sig('Test User', 'test@example.com', 1_790_000_000, '-0100');
      const commit = await repo.backend.writeCommit({ tree, parents: [], author: who, committer: who, message: 'packed' });
      git(dir, ['update-ref', `refs/memory/packed-${name}`, commit]);
      git(dir, ['repack', '-a', '-d', '-q']);
      git(dir, ['prune-packed']);
      assert.ok(!existsSync(join(dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2))), 'expected the blob to be packed');
      assert.ok((await repo.backend.readBlob(blob)).equals(data));
      assert.deepEqual(await repo.backend.readTree(tree), entries);
      assert.equal((await repo.backend.readCommit(commit)).tree, tree);
    });
  });
}
