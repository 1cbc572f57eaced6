/**
 * Writes through the git CLI backend: how many git processes one write starts, and what a
 * write that fails midway leaves. Real repositories, the real git CLI; git's own trace
 * (GIT_TRACE) tells which git processes ran.
 */

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { isAxmeError } from '../../src/model/errors.ts';
import { commitOperation } from '../../src/store/commit.ts';
import { GitBatch, lineAnswer } from '../../src/store/git-batch.ts';
import { openRepo, type Repo } from '../../src/store/repo.ts';
import { cleanEnv, git, TS_NODE_ARGS, tempRepo } from '../helpers.ts';

const REF = 'refs/memory/main';
const cleanups: Array<() => void> = [];
after(() => {
  for (const c of cleanups) c();
});

/** A repository opened on `backend` whose git processes log to a trace file; the log's git commands so far. */
async function tracedRepo(backend: 'cli' | 'hybrid'): Promise<{ dir: string; repo: Repo; gitCommands: () => string[] }> {
  const { dir, cleanup } = tempRepo();
  cleanups.push(cleanup);
  const trace = join(dir, '.git', 'trace.log');
  writeFileSync(trace, '');
  const repo = await openRepo({ cwd: dir, env: cleanEnv({ GIT_TRACE: trace }), backend });
  // each git process logs the command it runs once: "trace: built-in: git <command> <args>"
  const gitCommands = () =>
    readFileSync(trace, 'utf8')
      .split('\n')
      .flatMap((l) => /trace: built-in: git (.*)$/.exec(l)?.[1] ?? []);
  return { dir, repo, gitCommands };
}

/** `n` files spread over `folders` folders two levels deep, plus one at the root. */
function manyFiles(n: number, folders: number): Map<string, Buffer> {
  const files = new Map<string, Buffer>([['README.md', Buffer.from('root\n')]]);
  for (let i = 0; i < n; i++) files.set(`items/f${i % folders}/item-${i}.md`, Buffer.from(`item ${i}\n`));
  return files;
}

async function write(repo: Repo, files: Map<string, Buffer | null>, message: string): Promise<string> {
  const out = await commitOperation(repo, {
    ref: REF,
    now: () => new Date('2026-11-01T10:00:00Z'),
    apply: async () => ({ change: { files, message }, result: null }),
  });
  assert.ok(out.commit, 'a commit was written');
  return out.commit;
}

describe('writes through the CLI backend', () => {
  test('a write starts as many git processes for 60 files in 21 folders as for one file, and writes the objects the in-process writer does', async () => {
    const counts: number[] = [];
    const commits: string[] = [];
    for (const files of [new Map([['notes/one.md', Buffer.from('one\n')]]), manyFiles(60, 20)]) {
      const { repo, gitCommands } = await tracedRepo('cli');
      const start = gitCommands().length;
      commits.push(await write(repo, files, 'many'));
      counts.push(gitCommands().length - start);
      await repo.close();
      // the same change through the in-process writer: the same objects, so the same commit
      const { repo: other } = await tracedRepo('hybrid');
      assert.equal(await write(other, files, 'many'), commits.at(-1), 'the CLI backend and the in-process writer write the same commit');
      await other.close();
    }
    assert.equal(counts[1], counts[0], `git processes for one file: ${counts[0]}, for 60 files in 21 folders: ${counts[1]}`);
  });

  test('a second write on an open repository starts no git process to store its objects', async () => {
    const { repo, gitCommands } = await tracedRepo('cli');
    await write(repo, manyFiles(10, 3), 'first');
    const start = gitCommands().length;
    await write(repo, manyFiles(30, 7), 'second');
    const started = gitCommands().slice(start);
    assert.deepEqual(
      started.filter((c) => /^(hash-object|mktree)\b/.test(c)),
      [],
      `the objects go to the git processes the first write started; this write started: ${started.join(', ')}`,
    );
    await repo.close();
  });

  test('a write that fails midway leaves the ref where it was, and the next write succeeds', async () => {
    const { dir, repo } = await tracedRepo('cli');
    const first = await write(repo, manyFiles(6, 2), 'first');
    // a folder that names an object the repository lacks (a damaged clone): rewriting it makes git refuse the tree
    const missing = '0123456789abcdef0123456789abcdef01234567';
    const tip = git(dir, ['rev-parse', `${REF}^{tree}`]).trim();
    const broken = git(dir, ['mktree', '--missing'], `100644 blob ${missing}\tlost.md\n`).trim();
    const root = git(dir, ['ls-tree', tip]).split('\n').filter(Boolean).concat(`040000 tree ${broken}\tdamaged`).join('\n');
    const damagedTree = git(dir, ['mktree', '--missing'], `${root}\n`).trim();
    const damaged = git(dir, ['commit-tree', damagedTree, '-p', first, '-m', 'damaged']).trim();
    git(dir, ['update-ref', REF, damaged]);
    await assert.rejects(
      write(
        repo,
        new Map([
          ['items/f0/new.md', Buffer.from('new\n')],
          ['damaged/added.md', Buffer.from('x\n')],
        ]),
        'fails',
      ),
      (err) => {
        assert.ok(isAxmeError(err), String(err));
        assert.equal(err.code, 'GIT_FAILED');
        assert.match(err.message, /unavailable|missing/);
        return true;
      },
    );
    assert.equal(git(dir, ['rev-parse', REF]).trim(), damaged, 'the ref is untouched');
    // the same backend writes on afterwards
    git(dir, ['update-ref', REF, first]);
    const next = await write(repo, new Map([['items/f0/new.md', Buffer.from('new\n')]]), 'after');
    assert.equal(git(dir, ['rev-parse', REF]).trim(), next);
    assert.equal(git(dir, ['show', `${REF}:items/f0/new.md`]), 'new\n');
    await repo.close();
  });

  test("GIT_FLUSH=0 in the caller's environment: git still answers each request, the write completes", { timeout: 120_000 }, async () => {
    const { dir, cleanup } = tempRepo();
    cleanups.push(cleanup);
    // hash-object keeps its answers buffered under GIT_FLUSH=0: a write waiting on them would never end
    const repo = await openRepo({ cwd: dir, env: cleanEnv({ GIT_FLUSH: '0' }), backend: 'cli' });
    const oid = await write(repo, manyFiles(5, 2), 'unflushed');
    assert.equal(git(dir, ['rev-parse', REF]).trim(), oid);
    assert.equal(git(dir, ['show', `${REF}:items/f1/item-1.md`]), 'item 1\n');
    await repo.close();
  });

  test('objects packed while the repository is open (git gc): the next write still succeeds', async () => {
    const { dir, repo } = await tracedRepo('cli');
    await write(repo, manyFiles(12, 3), 'before gc');
    // the loose objects the first write made go into a pack and are removed
    git(dir, ['gc', '-q', '--prune=now']);
    assert.equal(git(dir, ['count-objects']).trim().split(' ')[0], '0', 'no loose object left');
    const next = await write(repo, new Map([['items/f0/after-gc.md', Buffer.from('after\n')]]), 'after gc');
    assert.equal(git(dir, ['rev-parse', REF]).trim(), next);
    assert.equal(git(dir, ['show', `${REF}:items/f0/after-gc.md`]), 'after\n');
    assert.equal(git(dir, ['show', `${REF}:items/f2/item-2.md`]), 'item 2\n', 'the packed folders are kept');
    await repo.close();
  });

  test('requests made while close() waits for git go to a new process, and each gets its own answer', async () => {
    const { dir, cleanup } = tempRepo();
    cleanups.push(cleanup);
    const batch = new GitBatch(['hash-object', '-w', '--stdin-paths'], cleanEnv({ GIT_DIR: join(dir, '.git') }), lineAnswer);
    const files = Array.from({ length: 400 }, (_, i) => {
      const f = join(dir, `blob-${i}`);
      writeFileSync(f, `content ${i}\n`);
      return f;
    });
    // what git itself names each file's blob
    const expected = git(dir, ['hash-object', '--', ...files])
      .trim()
      .split('\n');
    const first = files.slice(0, 200).map((f) => batch.request(`${f}\n`));
    const closed = batch.close();
    const second = files.slice(200).map((f) => batch.request(`${f}\n`));
    assert.deepEqual(await Promise.all([...first, ...second]), expected);
    await closed;
    await batch.close();
  });

  test('a repository whose path holds a newline is written to all the same', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'axme-test-'));
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
    const dir = join(parent, 'line\nbreak "quoted"');
    mkdirSync(dir);
    git(dir, ['init', '-q', '-b', 'main']);
    const repo = await openRepo({ cwd: dir, env: cleanEnv(), backend: 'cli' });
    await write(repo, manyFiles(3, 2), 'odd path');
    assert.equal(git(dir, ['show', `${REF}:items/f1/item-1.md`]), 'item 1\n');
    await repo.close();
  });
});

describe('closing the CLI backend', () => {
  test("a process with nothing else to do stays until git's processes have exited and close() has resolved", () => {
    const { dir, cleanup } = tempRepo();
    cleanups.push(cleanup);
    // a process of its own: here the test runner's timers would keep the event loop alive
    const script = `
      import { openRepo } from ${JSON.stringify(new URL('../../src/store/repo.ts', import.meta.url).href)};
      import { commitOperation } from ${JSON.stringify(new URL('../../src/store/commit.ts', import.meta.url).href)};
      const repo = await openRepo({ cwd: process.cwd(), env: process.env, backend: 'cli' });
      await commitOperation(repo, {
        ref: 'refs/memory/main',
        now: () => new Date('2026-11-01T10:00:00Z'),
        apply: async () => ({ change: { files: new Map([['a.md', Buffer.from('a\\n')]]), message: 'one' }, result: null }),
      });
      // the batch processes are idle (unref'd) now: only close() itself can keep this process alive
      repo.close().then(() => process.stdout.write('closed\\n'));
    `;
    const r = spawnSync(process.execPath, [...TS_NODE_ARGS, '--input-type=module', '-e', script], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'closed\n', `close() never resolved: the process ended first (stderr: ${r.stderr})`);
    assert.match(git(dir, ['cat-file', '-p', 'refs/memory/main:a.md']), /^a$/m);
  });
});
