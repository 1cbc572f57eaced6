/**
 * The store layer above the object backends: opening repositories, snapshots and tree changes,
 * compare-and-swap on refs, the commit loop, the advisory lock, revisions, the log and the cache.
 * Everything runs on real repositories with the real git CLI.
 */

import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isAxmeError } from '../../src/model/errors.ts';
import type { BackendName } from '../../src/store/backend.ts';
import { diskCache } from '../../src/store/cache.ts';
import { type Change, type CommitOutcome, commitOperation, formatCommitMessage } from '../../src/store/commit.ts';
import { withAdvisoryLock } from '../../src/store/lock.ts';
import { readLog, splitMessage } from '../../src/store/log.ts';
import { compareAndSwapRef } from '../../src/store/refs.ts';
import { openRepo, type Repo } from '../../src/store/repo.ts';
import { parseDateSpec, resolveAt } from '../../src/store/revision.ts';
import { EMPTY_TREE, emptySnapshot, readSnapshot, writeChanges } from '../../src/store/tree.ts';
import { cleanEnv, git, gitFsck, tempRepo } from '../helpers.ts';

const REF = 'refs/memory/test';

/** A folder that is not inside any repository; removed by `cleanup`. */
function tempDir(prefix = 'axme-plain-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const real = (p: string) => realpathSync(p);

async function rejectsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(isAxmeError(err), `expected an AxmeError, got ${String(err)}`);
    assert.equal(err.code, code);
    if (message) assert.match(err.message, message);
    return true;
  });
}

/** Every file of a tree-ish: path -> mode and blob OID, as git lists them. */
function lsFiles(cwd: string, treeish: string): Map<string, { mode: string; oid: string }> {
  const files = new Map<string, { mode: string; oid: string }>();
  for (const line of git(cwd, ['ls-tree', '-r', '-z', treeish]).split('\0').filter(Boolean)) {
    const [meta, path] = line.split('\t');
    const [mode, , oid] = meta!.split(' ');
    files.set(path!, { mode: mode!, oid: oid! });
  }
  return files;
}

const files = (entries: Record<string, string | null>) =>
  new Map(Object.entries(entries).map(([k, v]) => [k, v === null ? null : Buffer.from(v)] as [string, Buffer | null]));

/** One commit on `ref` through commitOperation, at `at`. */
async function commitFiles(repo: Repo, ref: string, changes: Record<string, string | null>, at: Date, message = 'test: change'): Promise<string> {
  const out = await commitOperation(repo, { ref, now: () => at, apply: async () => ({ change: { files: files(changes), message }, result: null }) });
  assert.ok(out.commit, 'expected a commit');
  return out.commit;
}

/** "Another writer": commits the ref's tree plus one file with the git CLI (own index) and moves the ref. */
function foreignCommit(cwd: string, ref: string, path: string, content: string): string {
  const base = git(cwd, ['rev-parse', '--verify', '--quiet', ref]).trim();
  const idx = join(mkdtempSync(join(tmpdir(), 'axme-idx-')), 'index');
  const env = cleanEnv({ GIT_INDEX_FILE: idx });
  const run = (args: string[], input?: string) => execFileSync('git', args, { cwd, env, input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();
  run(['read-tree', base]);
  const blob = run(['hash-object', '-w', '--stdin'], content);
  run(['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`]);
  const tree = run(['write-tree']);
  const commit = run(['commit-tree', tree, '-p', base, '-m', `other writer: ${path}`]);
  git(cwd, ['update-ref', ref, commit, base]);
  rmSync(join(idx, '..'), { recursive: true, force: true });
  return commit;
}

const T1 = new Date('2026-01-10T10:00:00.000Z');
const T2 = new Date('2026-01-20T10:00:00.000Z');
const T3 = new Date('2026-01-30T10:00:00.000Z');

describe('openRepo', () => {
  const cleanups: Array<() => void> = [];
  after(() => cleanups.forEach((c) => c()));
  const track = <T extends { cleanup: () => void }>(x: T): T => (cleanups.push(x.cleanup), x);

  async function opened(cwd: string, env = cleanEnv()): Promise<Pick<Repo, 'gitDir' | 'commonDir' | 'bare' | 'axmeDir'>> {
    const repo = await openRepo({ cwd, env });
    await repo.close();
    return { gitDir: real(repo.gitDir), commonDir: real(repo.commonDir), bare: repo.bare, axmeDir: repo.axmeDir };
  }

  test('from a subfolder of a work tree', async () => {
    const { dir } = track(tempRepo());
    mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
    const r = await opened(join(dir, 'src', 'deep'));
    assert.deepEqual(r, { gitDir: real(join(dir, '.git')), commonDir: real(join(dir, '.git')), bare: false, axmeDir: join(r.commonDir, 'axme') });
  });

  test('from the .git folder itself and from inside it', async () => {
    const { dir } = track(tempRepo());
    for (const cwd of [join(dir, '.git'), join(dir, '.git', 'objects')]) {
      const r = await opened(cwd);
      assert.equal(r.gitDir, real(join(dir, '.git')));
      assert.equal(r.commonDir, real(join(dir, '.git')));
      assert.equal(r.bare, false);
    }
  });

  test('from a linked worktree: its own git dir, the main common dir, refs shared', async () => {
    const main = track(tempRepo({ commit: true }));
    const parent = track(tempDir('axme-wt-'));
    const wt = join(parent.dir, 'feature');
    git(main.dir, ['worktree', 'add', '-q', wt]);
    const r = await opened(wt);
    assert.equal(r.gitDir, real(join(main.dir, '.git', 'worktrees', 'feature')));
    assert.equal(r.commonDir, real(join(main.dir, '.git')));
    assert.equal(r.bare, false);
    assert.equal(r.axmeDir, join(r.commonDir, 'axme'));

    // a write through the worktree lands in the shared refs, and leaves HEAD and the index alone
    const headBefore = git(wt, ['rev-parse', 'HEAD']);
    const repo = await openRepo({ cwd: wt, env: cleanEnv() });
    try {
      const commit = await commitFiles(repo, REF, { 'axme.yaml': 'version: 1\n' }, T1);
      assert.equal(git(main.dir, ['rev-parse', REF]).trim(), commit);
      assert.equal(git(wt, ['rev-parse', 'HEAD']), headBefore);
      assert.equal(git(wt, ['status', '--porcelain']), '');
    } finally {
      await repo.close();
    }
  });

  test('a bare repository', async () => {
    const { dir } = track(tempRepo({ bare: true }));
    const r = await opened(dir);
    assert.deepEqual(r, { gitDir: real(dir), commonDir: real(dir), bare: true, axmeDir: join(r.commonDir, 'axme') });
  });

  test('GIT_DIR in the environment, started elsewhere', async () => {
    const { dir } = track(tempRepo());
    const elsewhere = track(tempDir());
    const r = await opened(elsewhere.dir, cleanEnv({ GIT_DIR: join(dir, '.git') }));
    assert.equal(r.gitDir, real(join(dir, '.git')));
    assert.equal(r.commonDir, real(join(dir, '.git')));
    assert.equal(r.bare, false);
  });

  test('outside any repository: NOT_A_REPO saying to run git init', async () => {
    const { dir } = track(tempDir());
    await rejectsWith(openRepo({ cwd: dir, env: cleanEnv() }), 'NOT_A_REPO', /git init/);
  });

  test('a folder that does not exist: NOT_A_REPO', async () => {
    const { dir } = track(tempDir());
    await rejectsWith(openRepo({ cwd: join(dir, 'missing', 'folder'), env: cleanEnv() }), 'NOT_A_REPO');
  });

  test('the backend comes from the option, else AXME_BACKEND, else hybrid', async () => {
    const { dir } = track(tempRepo());
    const names: string[] = [];
    for (const [env, backend] of [
      [{}, undefined],
      [{ AXME_BACKEND: 'cli' }, undefined],
      [{ AXME_BACKEND: 'cli' }, 'isogit'],
      [{ AXME_BACKEND: 'hybrid' }, undefined],
    ] as const) {
      const repo = await openRepo({ cwd: dir, env: cleanEnv(env), backend });
      names.push(repo.backend.name);
      await repo.close();
    }
    assert.deepEqual(names, ['hybrid', 'cli', 'isogit', 'hybrid']);
    await rejectsWith(openRepo({ cwd: dir, env: cleanEnv({ AXME_BACKEND: 'libgit2' }) }), 'INVALID_INPUT');
  });

  test('identity: git config, then GIT_AUTHOR_* variables, else a fallback', async () => {
    const { dir } = track(tempRepo());
    const ident = async (env: NodeJS.ProcessEnv) => {
      const repo = await openRepo({ cwd: dir, env: cleanEnv(env) });
      try {
        return await repo.identity();
      } finally {
        await repo.close();
      }
    };
    assert.deepEqual(await ident({}), { name: 'Test User', email: 'test@example.com' });
    assert.deepEqual(await ident({ GIT_AUTHOR_NAME: 'Env Name', GIT_AUTHOR_EMAIL: 'env@example.com' }), { name: 'Env Name', email: 'env@example.com' });
    git(dir, ['config', '--unset', 'user.name']);
    git(dir, ['config', '--unset', 'user.email']);
    assert.deepEqual(await ident({}), { name: 'axme', email: 'axme@localhost' });
  });
});

for (const backend of ['isogit', 'cli'] as const satisfies readonly BackendName[]) {
  describe(`writeChanges + readSnapshot (${backend})`, () => {
    let dir: string;
    let cleanup: () => void;
    let repo: Repo;
    before(async () => {
      ({ dir, cleanup } = tempRepo());
      repo = await openRepo({ cwd: dir, env: cleanEnv(), backend });
    });
    after(async () => {
      await repo.close();
      cleanup();
    });

    test('nested adds, a removal, an emptied folder disappears, untouched subtrees keep their OIDs', async () => {
      const b = repo.backend;
      const t1 = await writeChanges(
        b,
        emptySnapshot(),
        files({
          'axme.yaml': 'version: 1\n',
          'decisions/D-001-use-valkey.md': 'valkey\n',
          'decisions/D-002-use-zod.md': 'zod\n',
          'memories/feedback/m-1.md': 'feedback\n',
          'memories/patterns/deep/p-1.md': 'pattern\n',
        }),
      );
      const who = { name: 'Test User', email: 'test@example.com', timestamp: 1_790_000_000, tz: '+0100' };
      const c1 = await b.writeCommit({ tree: t1, parents: [], author: who, committer: who, message: 'one' });
      const s1 = await readSnapshot(b, c1);
      assert.equal(s1.commit, c1);
      assert.equal(s1.tree, t1);
      assert.deepEqual([...s1.files.keys()].sort(), [
        'axme.yaml',
        'decisions/D-001-use-valkey.md',
        'decisions/D-002-use-zod.md',
        'memories/feedback/m-1.md',
        'memories/patterns/deep/p-1.md',
      ]);
      assert.deepEqual([...s1.dirs.keys()].sort(), ['', 'decisions', 'memories', 'memories/feedback', 'memories/patterns', 'memories/patterns/deep']);
      const git1 = lsFiles(dir, t1);
      for (const [path, f] of s1.files) assert.deepEqual(f, git1.get(path), path);
      assert.equal((await b.readBlob(s1.files.get('memories/patterns/deep/p-1.md')!.oid)).toString(), 'pattern\n');

      // remove the only file of memories/patterns/deep: deep and patterns go; decisions is untouched
      const t2 = await writeChanges(b, s1, files({ 'memories/patterns/deep/p-1.md': null, 'memories/feedback/m-2.md': 'more\n' }));
      const c2 = await b.writeCommit({ tree: t2, parents: [c1], author: who, committer: who, message: 'two' });
      const s2 = await readSnapshot(b, c2);
      assert.deepEqual([...s2.files.keys()].sort(), [
        'axme.yaml',
        'decisions/D-001-use-valkey.md',
        'decisions/D-002-use-zod.md',
        'memories/feedback/m-1.md',
        'memories/feedback/m-2.md',
      ]);
      assert.deepEqual([...s2.dirs.keys()].sort(), ['', 'decisions', 'memories', 'memories/feedback']);
      assert.equal(s2.dirs.get('decisions')!.oid, s1.dirs.get('decisions')!.oid);
      assert.notEqual(s2.dirs.get('memories')!.oid, s1.dirs.get('memories')!.oid);

      // removing the last file of a top-level folder drops it from the root
      const t3 = await writeChanges(b, s2, files({ 'decisions/D-001-use-valkey.md': null, 'decisions/D-002-use-zod.md': null }));
      assert.deepEqual([...lsFiles(dir, t3).keys()].sort(), ['axme.yaml', 'memories/feedback/m-1.md', 'memories/feedback/m-2.md']);
      assert.ok(!git(dir, ['ls-tree', t3]).includes('decisions'));
      assert.equal(git(dir, ['rev-parse', `${t3}:memories`]).trim(), s2.dirs.get('memories')!.oid);

      // removing what is not there, or rewriting the same content, keeps the root tree
      assert.equal(await writeChanges(b, s2, files({ 'nope/none.md': null, 'axme.yaml': 'version: 1\n' })), s2.tree);
      // removing everything gives the empty tree
      assert.equal(await writeChanges(b, s2, new Map([...s2.files.keys()].map((p) => [p, null]))), EMPTY_TREE);
      assert.deepEqual(gitFsck(dir), { code: 0, out: '' });
    });

    test('files axme does not know keep their content and mode through a change elsewhere', async () => {
      const b = repo.backend;
      // committed by hand with git: an executable script, a symlink, and the store file
      const script = git(dir, ['hash-object', '-w', '--stdin'], '#!/bin/sh\necho hi\n').trim();
      const link = git(dir, ['hash-object', '-w', '--stdin'], '../axme.yaml').trim();
      const yaml = git(dir, ['hash-object', '-w', '--stdin'], 'version: 1\n').trim();
      const tools = git(dir, ['mktree'], `100755 blob ${script}\trun.sh\n120000 blob ${link}\tconfig-link\n`).trim();
      const root = git(dir, ['mktree'], `040000 tree ${tools}\ttools\n100644 blob ${yaml}\taxme.yaml\n`).trim();
      const commit = git(dir, ['commit-tree', root, '-m', 'by hand']).trim();

      const snap = await readSnapshot(b, commit);
      assert.deepEqual(snap.files.get('tools/run.sh'), { oid: script, mode: '100755' });
      assert.deepEqual(snap.files.get('tools/config-link'), { oid: link, mode: '120000' });

      const tree = await writeChanges(b, snap, files({ 'decisions/D-001-x.md': 'x\n', 'tools/notes.md': 'notes\n' }));
      const after = lsFiles(dir, tree);
      assert.deepEqual(after.get('tools/run.sh'), { mode: '100755', oid: script });
      assert.deepEqual(after.get('tools/config-link'), { mode: '120000', oid: link });
      assert.deepEqual(after.get('tools/notes.md')?.mode, '100644');
      assert.deepEqual(after.get('axme.yaml'), { mode: '100644', oid: yaml });
      assert.equal(after.size, 5);

      // a change elsewhere only: the tools subtree is the very same object
      const other = await writeChanges(b, snap, files({ 'decisions/D-002-y.md': 'y\n' }));
      assert.equal(git(dir, ['rev-parse', `${other}:tools`]).trim(), tools);
    });

    test('a file where a folder is needed, or the reverse, is CORRUPT', async () => {
      const snap = await readSnapshot(
        repo.backend,
        await repo.backend.writeCommit({
          tree: await writeChanges(repo.backend, emptySnapshot(), files({ 'a.md': 'file\n', 'dir/b.md': 'b\n' })),
          parents: [],
          author: { name: 'T', email: 't@e', timestamp: 1_790_000_000, tz: '+0100' },
          committer: { name: 'T', email: 't@e', timestamp: 1_790_000_000, tz: '+0100' },
          message: 'shape',
        }),
      );
      await rejectsWith(writeChanges(repo.backend, snap, files({ 'a.md/inner.md': 'x\n' })), 'CORRUPT');
      await rejectsWith(writeChanges(repo.backend, snap, files({ dir: 'x\n' })), 'CORRUPT');
    });
  });
}

describe('compareAndSwapRef', () => {
  let dir: string;
  let cleanup: () => void;
  let repo: Repo;
  const commits: string[] = [];
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    repo = await openRepo({ cwd: dir, env: cleanEnv() });
    for (let i = 0; i < 4; i++) commits.push(git(dir, ['commit-tree', EMPTY_TREE, '-m', `c${i}`]).trim());
  });
  after(async () => {
    await repo.close();
    cleanup();
  });
  const c0 = () => commits[0]!;
  const c1 = () => commits[1]!;
  const c2 = () => commits[2]!;
  const c3 = () => commits[3]!;
  const tip = () => spawnSync('git', ['rev-parse', '--verify', '--quiet', REF], { cwd: dir, env: cleanEnv(), encoding: 'utf8' }).stdout.trim();
  const lockPath = () => join(repo.commonDir, `${REF}.lock`);
  const WHO = { name: 'Test User', email: 'test@example.com', timestamp: 1767225600, tz: '+0000' };

  test('creates a ref when expected is null, with a reflog entry', async () => {
    assert.equal(await compareAndSwapRef(repo, REF, c0(), null, 'axme: create the test ref', WHO), 'updated');
    assert.equal(tip(), c0());
    const reflog = git(dir, ['reflog', 'show', '--format=%H %gs', REF]).trim().split('\n');
    assert.deepEqual(reflog, [`${c0()} axme: create the test ref`]);
    assert.match(
      git(dir, ['reflog', 'show', '--format=%gn <%ge> %gd', '--date=unix', REF]),
      /^Test User <test@example.com> (refs\/)?memory\/test@\{1767225600\}/,
      'git reads the reflog line axme wrote',
    );
  });

  test('a wrong expected value is stale and changes nothing', async () => {
    assert.equal(await compareAndSwapRef(repo, REF, c1(), c2(), 'wrong old', WHO), 'stale');
    assert.equal(await compareAndSwapRef(repo, REF, c1(), null, 'create again', WHO), 'stale');
    assert.equal(tip(), c0());
    assert.equal(await compareAndSwapRef(repo, REF, c1(), c0(), 'right old', WHO), 'updated');
    assert.equal(tip(), c1());
    assert.equal(git(dir, ['reflog', 'show', REF]).trim().split('\n').length, 2);
  });

  test('a fresh lock file means locked; it is left alone', async () => {
    writeFileSync(lockPath(), '');
    try {
      assert.equal(await compareAndSwapRef(repo, REF, c2(), c1(), 'while locked', WHO), 'locked');
      assert.ok(existsSync(lockPath()), 'a live writer’s lock must stay');
      assert.equal(tip(), c1());
    } finally {
      rmSync(lockPath(), { force: true });
    }
  });

  test('a stale lock file is removed, and the retry succeeds', async () => {
    writeFileSync(lockPath(), '');
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lockPath(), minuteAgo, minuteAgo);
    assert.equal(await compareAndSwapRef(repo, REF, c2(), c1(), 'stale lock', WHO), 'locked');
    assert.ok(!existsSync(lockPath()), 'the stale lock should be gone');
    assert.equal(await compareAndSwapRef(repo, REF, c2(), c1(), 'after the stale lock', WHO), 'updated');
    assert.equal(tip(), c2());
  });

  test('compares against a packed ref too', async () => {
    git(dir, ['pack-refs', '--all']);
    assert.ok(!existsSync(join(repo.commonDir, REF)), 'expected the ref to be packed');
    assert.equal(await compareAndSwapRef(repo, REF, c3(), c1(), 'packed, wrong', WHO), 'stale');
    assert.equal(tip(), c2());
    assert.equal(await compareAndSwapRef(repo, REF, c3(), c2(), 'packed, right', WHO), 'updated');
    assert.equal(tip(), c3());
  });

  test('interleaves with git update-ref: both honour the same lock and old value', async () => {
    const before = tip();
    const other = before === c1() ? c2() : c1();
    git(dir, ['update-ref', REF, other, before]);
    assert.equal(await compareAndSwapRef(repo, REF, c0(), before, 'lost to git', WHO), 'stale');
    assert.equal(tip(), other);
    assert.equal(await compareAndSwapRef(repo, REF, before, other, 'back again', WHO), 'updated');
    assert.equal(tip(), before);
    writeFileSync(lockPath(), '');
    try {
      const r = spawnSync('git', ['update-ref', REF, other, before], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
      assert.notEqual(r.status, 0, 'git must not update a ref axme holds locked');
    } finally {
      rmSync(lockPath(), { force: true });
    }
  });
});

describe('commitOperation', () => {
  const cleanups: Array<() => void> = [];
  after(() => cleanups.forEach((c) => c()));
  function repoDir(opts: { commit?: boolean } = {}): string {
    const r = tempRepo(opts);
    cleanups.push(r.cleanup);
    return r.dir;
  }

  test('first commit has no parent, the next one does; no change means no commit', async () => {
    const dir = repoDir({ commit: true });
    const headBefore = git(dir, ['rev-parse', 'HEAD']);
    const repo = await openRepo({ cwd: dir, env: cleanEnv() });
    try {
      const first = await commitOperation(repo, {
        ref: REF,
        now: () => T1,
        apply: async (snap) => {
          assert.equal(snap.commit, null);
          assert.equal(snap.files.size, 0);
          return { change: { files: files({ 'axme.yaml': 'version: 1\n' }), message: '\n\ninit: create the store\r\n\n' }, result: 'made' };
        },
      });
      assert.equal(first.result, 'made');
      assert.equal(first.attempts, 1);
      assert.equal(first.base.commit, null);
      assert.ok(first.commit);
      assert.equal(git(dir, ['rev-parse', REF]).trim(), first.commit);
      assert.equal(
        git(dir, ['log', '-1', '--format=%P|%an|%ae|%at|%ct|%B', REF]),
        `|Test User|test@example.com|${T1.getTime() / 1000}|${T1.getTime() / 1000}|init: create the store\n\n`,
      );

      const second = await commitOperation(repo, {
        ref: REF,
        now: () => T2,
        apply: async (snap) => {
          assert.equal(snap.commit, first.commit);
          assert.ok(snap.files.has('axme.yaml'));
          return { change: { files: files({ 'decisions/D-001.md': 'one\n' }), message: 'decision: add D-001' }, result: snap.files.size };
        },
      });
      assert.equal(second.result, 1);
      assert.equal(second.base.commit, first.commit);
      assert.equal(git(dir, ['rev-parse', `${REF}^`]).trim(), first.commit);

      const none = await commitOperation(repo, { ref: REF, now: () => T3, apply: async () => ({ change: null, result: 'nothing' }) });
      assert.deepEqual([none.result, none.commit, none.attempts], ['nothing', null, 1]);
      const same = await commitOperation(repo, {
        ref: REF,
        now: () => T3,
        apply: async () => ({ change: { files: files({ 'decisions/D-001.md': 'one\n', 'gone/x.md': null }), message: 'same' }, result: 'same' }),
      });
      assert.equal(same.commit, null);
      assert.equal(git(dir, ['rev-parse', REF]).trim(), second.commit);

      // never HEAD, the index or the work tree
      assert.equal(git(dir, ['rev-parse', 'HEAD']), headBefore);
      assert.equal(git(dir, ['status', '--porcelain']), '');
    } finally {
      await repo.close();
    }
  });

  test('10 concurrent operations on two repository handles all land', async () => {
    const dir = repoDir();
    const a = await openRepo({ cwd: dir, env: cleanEnv(), backend: 'isogit' });
    const b = await openRepo({ cwd: dir, env: cleanEnv(), backend: 'cli' });
    try {
      const base = await commitFiles(a, REF, { 'axme.yaml': 'version: 1\n' }, T1);
      let applied = 0;
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          commitOperation(i % 2 ? b : a, {
            ref: REF,
            now: () => T2,
            apply: async (snap) => {
              applied++;
              return { change: { files: files({ [`memories/m-${i}.md`]: `memory ${i}\n` }), message: `memory: add m-${i}` }, result: snap.files.size };
            },
          }),
        ),
      );
      assert.equal(new Set(outcomes.map((o) => o.commit)).size, 10);
      assert.ok(applied >= 10);
      const tree = lsFiles(dir, REF);
      assert.deepEqual([...tree.keys()].sort(), ['axme.yaml', ...Array.from({ length: 10 }, (_, i) => `memories/m-${i}.md`)].sort());
      const chain = git(dir, ['rev-list', '--first-parent', REF]).trim().split('\n');
      assert.equal(chain.length, 11);
      assert.equal(chain.at(-1), base);
      assert.deepEqual(new Set(chain.slice(0, 10)), new Set(outcomes.map((o) => o.commit)));
      // each commit saw every earlier one: the results count 1..10 files before its own
      assert.deepEqual(
        outcomes.map((o) => o.result).sort((x, y) => x - y),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      );
      assert.deepEqual(gitFsck(dir), { code: 0, out: '' });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('writers that read the same tip all land: the losers re-apply on the new tip', async () => {
    // Every first attempt waits until all ten have read the same tip, so nine must lose the
    // compare-and-swap. (The advisory lock holder waits too: the others go on after its 5 s wait.)
    const dir = repoDir();
    const a = await openRepo({ cwd: dir, env: cleanEnv(), backend: 'isogit' });
    const b = await openRepo({ cwd: dir, env: cleanEnv(), backend: 'cli' });
    try {
      await commitFiles(a, REF, { 'axme.yaml': 'version: 1\n' }, T1);
      const n = 10;
      let firstAttempts = 0;
      let release!: () => void;
      const allRead = new Promise<void>((r) => (release = r));
      const applied = new Array<number>(n).fill(0);
      const outcomes: CommitOutcome<number>[] = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          commitOperation(i % 2 ? b : a, {
            ref: REF,
            now: () => T2,
            apply: async (snap) => {
              applied[i] = applied[i]! + 1;
              if (applied[i] === 1) {
                if (++firstAttempts === n) release();
                await allRead;
              }
              const change: Change = { files: files({ [`memories/m-${i}.md`]: `memory ${i}\n` }), message: `memory: add m-${i}` };
              return { change, result: snap.files.size };
            },
          }),
        ),
      );
      const total = applied.reduce((s, x) => s + x, 0);
      assert.ok(total >= 2 * n - 1, `expected at least ${2 * n - 1} applications, got ${total}`);
      assert.equal(outcomes.filter((o) => o.attempts === 1).length, 1);
      outcomes.forEach((o, i) => assert.equal(o.attempts, applied[i]));
      assert.deepEqual([...lsFiles(dir, REF).keys()].sort(), ['axme.yaml', ...Array.from({ length: n }, (_, i) => `memories/m-${i}.md`)].sort());
      assert.equal(Number(git(dir, ['rev-list', '--first-parent', '--count', REF]).trim()), n + 1);
      assert.deepEqual(gitFsck(dir), { code: 0, out: '' });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('when another writer moves the ref mid-operation, the operation is re-applied and sees its work', async () => {
    const dir = repoDir();
    const repo = await openRepo({ cwd: dir, env: cleanEnv() });
    try {
      await commitFiles(repo, REF, { 'axme.yaml': 'version: 1\n' }, T1);
      const seen: string[][] = [];
      const out = await commitOperation(repo, {
        ref: REF,
        now: () => T2,
        apply: async (snap) => {
          seen.push([...snap.files.keys()].sort());
          if (seen.length === 1) foreignCommit(dir, REF, 'decisions/D-001-other.md', 'other\n');
          return { change: { files: files({ 'decisions/D-002-mine.md': 'mine\n' }), message: 'decision: add D-002' }, result: null };
        },
      });
      assert.equal(out.attempts, 2);
      assert.deepEqual(seen, [['axme.yaml'], ['axme.yaml', 'decisions/D-001-other.md']]);
      assert.deepEqual([...lsFiles(dir, REF).keys()].sort(), ['axme.yaml', 'decisions/D-001-other.md', 'decisions/D-002-mine.md']);
      assert.equal(git(dir, ['log', '-1', '--format=%s', `${REF}^`]).trim(), 'other writer: decisions/D-001-other.md');
    } finally {
      await repo.close();
    }
  });

  test('after maxAttempts lost races: CONFLICT, and nothing of ours is written', async () => {
    const dir = repoDir();
    const repo = await openRepo({ cwd: dir, env: cleanEnv() });
    try {
      await commitFiles(repo, REF, { 'axme.yaml': 'version: 1\n' }, T1);
      let n = 0;
      await rejectsWith(
        commitOperation(repo, {
          ref: REF,
          now: () => T2,
          maxAttempts: 3,
          apply: async () => {
            foreignCommit(dir, REF, `other/o-${n++}.md`, `other ${n}\n`);
            return { change: { files: files({ 'mine.md': 'mine\n' }), message: 'mine' }, result: null };
          },
        }),
        'CONFLICT',
        /run the command again/,
      );
      assert.equal(n, 3);
      assert.ok(!lsFiles(dir, REF).has('mine.md'));
      assert.equal(Number(git(dir, ['rev-list', '--count', REF]).trim()), 4);
    } finally {
      await repo.close();
    }
  });
});

describe('withAdvisoryLock', () => {
  let dir: string;
  let cleanup: () => void;
  before(() => ({ dir, cleanup } = tempDir('axme-lock-')));
  after(() => cleanup());
  const lockFile = (name: string) => join(dir, `${name}.lock`);
  const ownerLine = (pid: number) => `${pid} ${hostname()} ${Date.now()} cafe0001`;

  /** A live process other than this one, stopped by `stop`. */
  async function liveProcess(): Promise<{ pid: number; stop: () => void }> {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    await new Promise<void>((r, j) => (child.once('spawn', () => r()), child.once('error', j)));
    return { pid: child.pid!, stop: () => child.kill() };
  }

  test('creates its folder, holds the lock while fn runs, removes it after', async () => {
    const nested = join(dir, 'a', 'b');
    const seen = await withAdvisoryLock(nested, 'write', async () => readFileSync(join(nested, 'write.lock'), 'utf8'));
    assert.match(seen, new RegExp(`^${process.pid} ${hostname()} `));
    assert.ok(!existsSync(join(nested, 'write.lock')));
    // and after fn throws
    await assert.rejects(
      withAdvisoryLock(nested, 'write', async () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.ok(!existsSync(join(nested, 'write.lock')));
  });

  test('a lock left by a dead process is broken at once', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']);
    assert.equal(dead.status, 0);
    assert.throws(() => process.kill(dead.pid, 0), { code: 'ESRCH' });
    writeFileSync(lockFile('dead'), ownerLine(dead.pid));
    const pauses: number[] = [];
    const sleep = async (ms: number) => void pauses.push(ms);
    const owner = await withAdvisoryLock(dir, 'dead', async () => readFileSync(lockFile('dead'), 'utf8'), { waitMs: 10_000, sleep });
    assert.deepEqual(pauses, [], 'broken without waiting');
    assert.ok(owner.startsWith(`${process.pid} `), owner);
    assert.ok(!existsSync(lockFile('dead')));
  });

  test('a lock held by a live process makes the caller wait until it is released', async () => {
    const live = await liveProcess();
    try {
      writeFileSync(lockFile('live'), ownerLine(live.pid));
      // the caller's clock and pauses are the test's: the owner lets the lock go during the third pause
      let t = 0;
      let pauses = 0;
      const sleep = async (ms: number) => {
        t += ms;
        if (++pauses === 3) unlinkSync(lockFile('live'));
      };
      const ranAfter = await withAdvisoryLock(
        dir,
        'live',
        async () => {
          assert.ok(readFileSync(lockFile('live'), 'utf8').startsWith(`${process.pid} `));
          return pauses;
        },
        { waitMs: 10_000, now: () => t, sleep },
      );
      assert.equal(ranAfter, 3, 'waited while it was held, ran once it was released');
      assert.ok(!existsSync(lockFile('live')));
    } finally {
      live.stop();
    }
  });

  test('a lock that is never released: the caller proceeds after waitMs and leaves it alone', async () => {
    const live = await liveProcess();
    try {
      const theirs = ownerLine(live.pid);
      writeFileSync(lockFile('held'), theirs);
      // the caller's clock moves only by its pauses: it goes on once they add up to waitMs
      let t = 0;
      const ran = await withAdvisoryLock(dir, 'held', async () => t, { waitMs: 300, now: () => t, sleep: async (ms: number) => void (t += ms) });
      assert.ok(ran >= 300, `ran after ${ran} ms of pauses`);
      assert.equal(readFileSync(lockFile('held'), 'utf8'), theirs);
    } finally {
      live.stop();
      rmSync(lockFile('held'), { force: true });
    }
  });

  test('a lock older than staleMs is broken even if its owner lives', async () => {
    const live = await liveProcess();
    try {
      writeFileSync(lockFile('old'), ownerLine(live.pid));
      const minuteAgo = new Date(Date.now() - 60_000);
      utimesSync(lockFile('old'), minuteAgo, minuteAgo);
      const pauses: number[] = [];
      const sleep = async (ms: number) => void pauses.push(ms);
      const owner = await withAdvisoryLock(dir, 'old', async () => readFileSync(lockFile('old'), 'utf8'), { waitMs: 10_000, staleMs: 30_000, sleep });
      assert.deepEqual(pauses, [], 'broken without waiting');
      assert.ok(owner.startsWith(`${process.pid} `));
    } finally {
      live.stop();
    }
  });
});

describe('resolveAt', () => {
  let dir: string;
  let cleanup: () => void;
  let repo: Repo;
  const c: string[] = [];
  const NOW = new Date('2026-02-01T12:00:00.000Z');
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    repo = await openRepo({ cwd: dir, env: cleanEnv() });
    c.push(await commitFiles(repo, REF, { 'axme.yaml': 'version: 1\n' }, T1, 'init'));
    c.push(await commitFiles(repo, REF, { 'decisions/D-001.md': 'one\n' }, T2, 'two'));
    c.push(await commitFiles(repo, REF, { 'decisions/D-002.md': 'two\n' }, T3, 'three'));
  });
  after(async () => {
    await repo.close();
    cleanup();
  });
  const at = (spec: string | undefined, ref = REF) => resolveAt(repo, ref, spec, NOW);

  test('no revision: the tip, or null when the ref does not exist', async () => {
    assert.equal(await at(undefined), c[2]);
    await assert.rejects(at(''), (e: unknown) => isAxmeError(e, 'BAD_REVISION'), 'an empty --at is an error, not the tip');
    assert.equal(await at(undefined, 'refs/memory/none'), null);
  });

  test('~N and ^ relative to the ref, and commit ids', async () => {
    assert.equal(await at('~1'), c[1]);
    assert.equal(await at('^'), c[1]);
    assert.equal(await at('~2'), c[0]);
    assert.equal(await at(c[0]!), c[0]);
    assert.equal(await at(c[1]!.slice(0, 10)), c[1]);
    assert.equal(await at(`${REF}~2`), c[0]);
  });

  test('dates: the last commit at or before the instant', async () => {
    assert.equal(await at('2026-01-25'), c[1]);
    assert.equal(await at('2026-01-10'), c[0]);
    assert.equal(await at('2026-01-20T10:00:00Z'), c[1]);
    assert.equal(await at('2026-01-20T09:59:59Z'), c[0]);
    assert.equal(await at('2026-01-20 12:00'), c[1]);
    assert.equal(await at('1 day ago'), c[2]);
    assert.equal(await at('5 days ago'), c[1]);
    assert.equal(await at('20 days ago'), c[0]);
    assert.equal(await at('now'), c[2]);
  });

  test('a date before the first commit: BAD_REVISION', async () => {
    await rejectsWith(at('2026-01-09'), 'BAD_REVISION', /no knowledge at/);
    await rejectsWith(at('1 year ago'), 'BAD_REVISION');
  });

  test('a commit without axme.yaml: BAD_REVISION', async () => {
    const head = git(dir, ['rev-parse', 'HEAD']).trim();
    await rejectsWith(at(head), 'BAD_REVISION', /not a memory commit/);
    await rejectsWith(at('main'), 'BAD_REVISION', /not a memory commit/);
  });

  test('garbage: BAD_REVISION', async () => {
    for (const spec of ['no-such-revision', '~99', 'deadbeefdeadbeef', '-n', '--all', `${EMPTY_TREE}`, 'main..HEAD']) {
      await rejectsWith(at(spec), 'BAD_REVISION');
    }
  });

  test('parseDateSpec spellings', () => {
    const iso = (s: string) => parseDateSpec(s, NOW)?.toISOString() ?? null;
    assert.equal(iso('2026-01-20'), '2026-01-20T23:59:59.999Z');
    assert.equal(iso('2026-01-20T10:00'), '2026-01-20T10:00:00.000Z');
    assert.equal(iso('2026-01-20 10:00:00+02:00'), '2026-01-20T08:00:00.000Z');
    assert.equal(iso('2026-01-20T10:00:00-0530'), '2026-01-20T15:30:00.000Z');
    assert.equal(iso('yesterday'), '2026-01-31T12:00:00.000Z');
    assert.equal(iso('3 hours ago'), '2026-02-01T09:00:00.000Z');
    assert.equal(iso('1 week ago'), '2026-01-25T12:00:00.000Z');
    assert.equal(iso('NOW'), NOW.toISOString());
    for (const notDate of ['abc1234', '~1', 'main', '2026-13-45', '']) assert.equal(iso(notDate), null, notDate);
  });
});

describe('readLog and splitMessage', () => {
  test('splitMessage: subject, body and trailers as arrays', () => {
    const msg = formatCommitMessage(
      'decision: add D-001 Use Valkey',
      { event: 'decision.added', items: ['decisions/D-001-use-valkey.md', 'memories/m-1.md'], actor: 'agent', session: '7f3a9c21' },
      'Because latency.\n\nSecond paragraph.',
    );
    assert.equal(
      msg,
      'decision: add D-001 Use Valkey\n\nBecause latency.\n\nSecond paragraph.\n\nAxme-Event: decision.added\nAxme-Item: decisions/D-001-use-valkey.md\nAxme-Item: memories/m-1.md\nAxme-Session: 7f3a9c21\nAxme-Actor: agent\n',
    );
    assert.deepEqual(splitMessage(msg), {
      subject: 'decision: add D-001 Use Valkey',
      body: 'Because latency.\n\nSecond paragraph.',
      trailers: {
        'Axme-Event': ['decision.added'],
        'Axme-Item': ['decisions/D-001-use-valkey.md', 'memories/m-1.md'],
        'Axme-Session': ['7f3a9c21'],
        'Axme-Actor': ['agent'],
      },
    });
  });

  test('splitMessage: messages without trailers', () => {
    assert.deepEqual(splitMessage('just a subject\n'), { subject: 'just a subject', body: '', trailers: {} });
    assert.deepEqual(splitMessage('Fix: a subject that looks like a trailer\n'), {
      subject: 'Fix: a subject that looks like a trailer',
      body: '',
      trailers: {},
    });
    assert.deepEqual(splitMessage('subject\n\nbody line\nKey: value but not all lines\n'), {
      subject: 'subject',
      body: 'body line\nKey: value but not all lines',
      trailers: {},
    });
    assert.deepEqual(splitMessage(''), { subject: '', body: '', trailers: {} });
  });

  test('formatCommitMessage: one-line subject cut at 120 characters, no session trailer when none', () => {
    const msg = formatCommitMessage(`memory:  add\n${'x'.repeat(200)}`, { event: 'memory.added', items: [], actor: 'human' });
    const [subject, , ...rest] = msg.split('\n');
    assert.equal(subject!.length, 120);
    assert.ok(subject!.startsWith('memory: add x') && subject!.endsWith('...'));
    assert.deepEqual(rest, ['Axme-Event: memory.added', 'Axme-Actor: human', '']);
  });

  test('readLog: newest first, trailers parsed, path, limit and since', async () => {
    const { dir, cleanup } = tempRepo();
    const repo = await openRepo({ cwd: dir, env: cleanEnv() });
    try {
      const c1 = await commitFiles(repo, REF, { 'axme.yaml': 'version: 1\n' }, T1, 'init: create the store\n\nWith a body only.\n');
      const c2 = await commitFiles(
        repo,
        REF,
        { 'decisions/D-001.md': 'one\n', 'memories/m-1.md': 'm\n' },
        T2,
        formatCommitMessage('decision: add D-001 Use Valkey', {
          event: 'decision.added',
          items: ['decisions/D-001.md', 'memories/m-1.md'],
          actor: 'agent',
          session: 's-1',
        }),
      );
      const c3 = await commitFiles(
        repo,
        REF,
        { 'memories/m-2.md': 'm2\n' },
        T3,
        formatCommitMessage('memory: add m-2', { event: 'memory.added', items: ['memories/m-2.md'], actor: 'human' }, 'Body text.'),
      );

      const log = await readLog(repo, { rev: REF });
      assert.deepEqual(
        log.map((e) => e.commit),
        [c3, c2, c1],
      );
      assert.deepEqual(
        log.map((e) => e.parents),
        [[c2], [c1], []],
      );
      assert.deepEqual(
        log.map((e) => new Date(e.date).getTime()),
        [T3.getTime(), T2.getTime(), T1.getTime()],
      );
      for (const e of log) assert.deepEqual([e.author, e.email], ['Test User', 'test@example.com']);

      assert.deepEqual(
        log.map(({ subject, body, trailers }) => ({ subject, body, trailers })),
        [
          {
            subject: 'memory: add m-2',
            body: 'Body text.',
            trailers: { 'Axme-Event': ['memory.added'], 'Axme-Item': ['memories/m-2.md'], 'Axme-Actor': ['human'] },
          },
          {
            subject: 'decision: add D-001 Use Valkey',
            body: '',
            trailers: {
              'Axme-Event': ['decision.added'],
              'Axme-Item': ['decisions/D-001.md', 'memories/m-1.md'],
              'Axme-Session': ['s-1'],
              'Axme-Actor': ['agent'],
            },
          },
          { subject: 'init: create the store', body: 'With a body only.', trailers: {} },
        ],
      );

      assert.deepEqual(
        (await readLog(repo, { rev: REF, limit: 1 })).map((e) => e.commit),
        [c3],
      );
      assert.deepEqual(
        (await readLog(repo, { rev: REF, path: 'memories/m-1.md' })).map((e) => e.commit),
        [c2],
      );
      assert.deepEqual(
        (await readLog(repo, { rev: REF, path: 'memories' })).map((e) => e.commit),
        [c3, c2],
      );
      assert.deepEqual(
        (await readLog(repo, { rev: REF, since: new Date('2026-01-15T00:00:00Z') })).map((e) => e.commit),
        [c3, c2],
      );
      assert.deepEqual(
        (await readLog(repo, { rev: `${REF}~1` })).map((e) => e.commit),
        [c2, c1],
      );
    } finally {
      await repo.close();
      cleanup();
    }
  });
});

describe('diskCache', () => {
  let dir: string;
  let cleanup: () => void;
  before(() => ({ dir, cleanup } = tempDir('axme-cache-')));
  after(() => cleanup());

  test('pruning keeps at most ~64 entries but never a base pointer or the entry it names', async () => {
    const c = diskCache(join(dir, 'prune-base'), 1);
    await c.put('decisions-aaaa', { full: true });
    await c.put('decisions-base', 'aaaa');
    for (let i = 0; i < 300; i++) await c.put(`decisions-d${i}`, { i });
    const names = readdirSync(join(dir, 'prune-base', 'cache'));
    assert.ok(names.length <= 64 + 16 + 2, `pruned to at most 64 + 16 + the two pinned (${names.length})`);
    assert.deepEqual(await c.get('decisions-base'), 'aaaa');
    assert.deepEqual(await c.get('decisions-aaaa'), { full: true });
    assert.deepEqual(await c.get('decisions-d299'), { i: 299 }, 'the newest entries stay');
  });

  test('put then get; another version, a damaged entry or a bad key misses', async () => {
    const axmeDir = join(dir, 'axme');
    const v1 = diskCache(axmeDir, 1);
    assert.equal(await v1.get('index-abc'), undefined);
    await v1.put('index-abc', { items: [1, 2, 3], name: 'ünï' });
    assert.deepEqual(await v1.get('index-abc'), { items: [1, 2, 3], name: 'ünï' });
    assert.deepEqual(await diskCache(axmeDir, 1).get('index-abc'), { items: [1, 2, 3], name: 'ünï' });
    assert.equal(await diskCache(axmeDir, 2).get('index-abc'), undefined);

    writeFileSync(join(axmeDir, 'cache', 'index-bad.json'), '{"v":1,"data":');
    assert.equal(await v1.get('index-bad'), undefined);

    await v1.put('../escape', { no: true });
    assert.equal(await v1.get('../escape'), undefined);
    assert.ok(!existsSync(join(axmeDir, 'escape.json')));
    assert.deepEqual(readdirSync(join(axmeDir, 'cache')).sort(), ['index-abc.json', 'index-bad.json']);
  });

  test('pruning keeps the 64 newest entries', async () => {
    const axmeDir = join(dir, 'prune');
    const cacheDir = join(axmeDir, 'cache');
    const cache = diskCache(axmeDir, 1);
    const count = () => readdirSync(cacheDir).filter((n) => n.endsWith('.json')).length;
    for (let i = 0; i < 70; i++) await cache.put(`k-${i}`, i);
    const yearAgo = new Date(Date.now() - 365 * 86400_000);
    utimesSync(join(cacheDir, 'k-0.json'), yearAgo, yearAgo);
    for (let i = 70; i < 80; i++) await cache.put(`k-${i}`, i);
    assert.equal(count(), 80, 'no prune up to 64 + 16 entries');
    await cache.put('k-newest', 'x'); // the 81st entry triggers a prune down to 64
    assert.equal(count(), 64);
    assert.ok(!existsSync(join(cacheDir, 'k-0.json')), 'the oldest entry should be pruned');
    assert.notEqual(await cache.get('k-newest'), undefined);
    assert.equal(readdirSync(cacheDir).filter((n) => n.includes('.tmp-')).length, 0);
  });
});
