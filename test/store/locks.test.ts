/**
 * Stale-lock recovery: the advisory write lock and git's ref locks. A clock and a sleep are
 * injected, so what is counted is the number of waits, never how long anything took.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { claimLockFile, lockFileHeld } from '../../src/session/claim-lock.ts';
import { withAdvisoryLock } from '../../src/store/lock.ts';
import { createLockFile, type LockFile, readLockFile, removeLockIf } from '../../src/store/lock-file.ts';
import { initCore } from '../core.ts';
import { axmeOk, git, TS_NODE_ARGS, tempRepo } from '../helpers.ts';

/** A fake clock starting at `start` (ms); each sleep is counted and moves the clock on. */
function fakeClock(start: number) {
  const c = {
    t: start,
    sleeps: 0,
    now: () => c.t,
    sleep: async (ms: number) => {
      c.sleeps++;
      c.t += ms;
    },
  };
  return c;
}

/** Writes a lock file with `content`, dated `ageMs` before now; returns its mtime as the file system keeps it. */
function plantLock(path: string, content: string, ageMs: number): number {
  writeFileSync(path, content);
  const when = new Date(Date.now() - ageMs);
  utimesSync(path, when, when);
  return statSync(path).mtimeMs;
}

/** Runs withAdvisoryLock on the clock; returns what the lock file held while fn ran. */
async function lockedRun(dir: string, clock: ReturnType<typeof fakeClock>): Promise<string> {
  return withAdvisoryLock(dir, 'write', async () => readFileSync(join(dir, 'write.lock'), 'utf8'), { now: clock.now, sleep: clock.sleep });
}

const leftovers = (dir: string) => readdirSync(dir).filter((n) => n.includes('.stale'));

describe('the advisory write lock: a crashed or foreign writer costs one wait, not one per write', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'axme-locks-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const lock = () => join(dir, 'write.lock');

  test('a lock from another host older than the threshold is recovered at once and removed', async () => {
    const mtime = plantLock(lock(), '4242 some-other-host 1700000000000 cafe0001', 10_000);
    const clock = fakeClock(mtime + 10_000);
    const held = await lockedRun(dir, clock);
    assert.equal(clock.sleeps, 0, 'no wait');
    assert.ok(held.startsWith(`${process.pid} ${hostname()} `), `ran holding its own lock, not beside the foreign one: ${held}`);
    assert.equal(existsSync(lock()), false, 'the foreign lock is gone: later writes do not wait for it');
    const next = fakeClock(mtime + 11_000);
    await lockedRun(dir, next);
    assert.equal(next.sleeps, 0);
    assert.deepEqual(leftovers(dir), []);
  });

  test('a garbage lock younger than the threshold costs one wait; the next write does not wait', async () => {
    const mtime = plantLock(lock(), 'not a pid', 1_000);
    const clock = fakeClock(mtime + 1_000);
    const held = await lockedRun(dir, clock);
    assert.ok(held.startsWith(`${process.pid} `), held);
    assert.equal(existsSync(lock()), false, 'recovered, then released');
    assert.ok(clock.sleeps > 0, 'a young lock is waited for');
    assert.ok(
      clock.t - mtime > 5_000 && clock.t - mtime < 6_100,
      `waited until it was older than the threshold, not longer (${clock.t - mtime} ms by the fake clock)`,
    );
    const next = fakeClock(clock.t);
    await lockedRun(dir, next);
    assert.equal(next.sleeps, 0, 'the second write does not wait');
  });

  test('a foreign lock whose age cannot be trusted (dated in the future) is recovered when the wait ends', async () => {
    const mtime = plantLock(lock(), '77 some-other-host 0 beef', 0);
    const clock = fakeClock(mtime - 60_000); // another host's clock runs a minute ahead
    const held = await lockedRun(dir, clock);
    assert.ok(held.startsWith(`${process.pid} `), held);
    assert.equal(existsSync(lock()), false);
    assert.ok(clock.sleeps > 0);
    const next = fakeClock(clock.t);
    await lockedRun(dir, next);
    assert.equal(next.sleeps, 0, 'one wait in all');
  });

  test('a fresh lock another writer takes between the staleness check and the removal is not removed', async () => {
    const mtime = plantLock(lock(), '4242 some-other-host 0 old', 60_000);
    const fresh = `${process.pid} ${hostname()} ${Date.now()} fresh`;
    let calls = 0;
    const clock = fakeClock(mtime + 60_000);
    // the clock is read after the lock was read and before it is judged: another writer recovers
    // the stale lock right then and takes its own
    const now = () => {
      if (++calls === 2) {
        unlinkSync(lock());
        writeFileSync(lock(), fresh);
      }
      return clock.t;
    };
    const held = await withAdvisoryLock(dir, 'write', async () => readFileSync(lock(), 'utf8'), { now, sleep: clock.sleep, waitMs: 50 });
    assert.ok(calls >= 2, 'the clock was read after the lock');
    assert.equal(held, fresh, 'the other writer keeps its lock (this one went on without)');
    assert.equal(readFileSync(lock(), 'utf8'), fresh, 'and still has it afterwards');
    assert.deepEqual(leftovers(dir), []);
    unlinkSync(lock());
  });
});

describe('removeLockIf: the check and the removal are one step', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'axme-lockfile-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('removes the lock it saw; leaves a newer lock at the same path; a vanished one is nothing to do', () => {
    const path = join(dir, 'main.lock');
    plantLock(path, '', 60_000);
    const seen = readLockFile(path) as LockFile;
    assert.equal(removeLockIf(path, seen), true);
    assert.equal(existsSync(path), false);
    assert.equal(removeLockIf(path, seen), false, 'gone already');

    plantLock(path, '', 60_000);
    const stale = readLockFile(path) as LockFile;
    // another writer recovers it and locks again before this one removes it
    unlinkSync(path);
    writeFileSync(path, '1234567890abcdef1234567890abcdef12345678\n');
    assert.equal(removeLockIf(path, stale), false);
    assert.equal(readFileSync(path, 'utf8'), '1234567890abcdef1234567890abcdef12345678\n', 'the newer lock is back in place, unchanged');
    assert.deepEqual(leftovers(dir), [], 'nothing left aside');
    assert.equal(readLockFile(join(dir, 'none.lock')), null);
    mkdirSync(join(dir, 'folder.lock'));
    assert.equal(readLockFile(join(dir, 'folder.lock')), 'unreadable');
  });
});

describe('claimLockFile: one holder at a time, across processes', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'axme-claim-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('createLockFile: the lock appears with its content, no draft is left, a second create finds it', () => {
    const path = join(dir, 'create.lock');
    const own = createLockFile(path, '42 now\n');
    assert.notEqual(own, 'exists');
    assert.equal(readFileSync(path, 'utf8'), '42 now\n');
    assert.equal(createLockFile(path, '43 later\n'), 'exists');
    assert.equal(readFileSync(path, 'utf8'), '42 now\n', "the holder's lock is untouched");
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.includes('.new')),
      [],
      'no draft left beside it',
    );
    assert.equal(removeLockIf(path, own as LockFile), true);
    assert.throws(() => createLockFile(join(dir, 'no-such-folder', 'x.lock'), 'x'), /ENOENT/);
  });

  test("an empty lock (one being written, or not axme's) is held while young, taken over once old", () => {
    const path = join(dir, 'empty.lock');
    plantLock(path, '', 0);
    assert.equal(claimLockFile(path, new Date(), 30_000), null, "a young empty lock is someone's, not a dead process's");
    assert.equal(readFileSync(path, 'utf8'), '', 'and it is left in place');
    plantLock(path, 'garbage', 10_000);
    const release = claimLockFile(path, new Date(), 30_000);
    assert.ok(release, 'an old unreadable lock is taken over');
    assert.match(readFileSync(path, 'utf8'), new RegExp(`^${process.pid} `));
    release();
    assert.equal(existsSync(path), false);
  });

  test('a lock naming a process that has ended is taken over at once; a live one is not', () => {
    const path = join(dir, 'dead.lock');
    plantLock(path, '999999999 2026-01-01T00:00:00.000Z\n', 0);
    const release = claimLockFile(path, new Date(), 30_000);
    assert.ok(release);
    assert.equal(claimLockFile(path, new Date(), 30_000), null, 'held by this live process');
    release();
  });

  test('lockFileHeld judges as a claim would: a live holder or a young unreadable lock is held; none, a dead one, an old unreadable one is not', () => {
    const path = join(dir, 'held.lock');
    assert.equal(lockFileHeld(path), false, 'no lock');
    plantLock(path, `${process.pid} ${new Date().toISOString()}\n`, 60 * 60_000);
    assert.equal(lockFileHeld(path), true, 'a live holder, however old');
    plantLock(path, '999999999\n', 0);
    assert.equal(lockFileHeld(path), false, 'a dead holder');
    plantLock(path, '', 0);
    assert.equal(lockFileHeld(path), true, "being written, or not axme's: young");
    plantLock(path, '', 10_000);
    assert.equal(lockFileHeld(path), false, 'unreadable and old');
    unlinkSync(path);
  });

  test('six processes each adding 40 to a counter under the lock: no increment is lost', { timeout: 120_000 }, async () => {
    const counter = join(dir, 'counter');
    writeFileSync(counter, '0');
    const claimLock = fileURLToPath(new URL('../../src/session/claim-lock.ts', import.meta.url));
    const script = join(dir, 'bump.mts');
    writeFileSync(
      script,
      `import { readFileSync, writeFileSync } from 'node:fs';
import { claimLockFile } from ${JSON.stringify(claimLock)};
const [counter, lock] = process.argv.slice(2);
for (let i = 0; i < 40; i++) {
  let release;
  while (!(release = claimLockFile(lock, new Date(), 30_000))) await new Promise((r) => setTimeout(r, 1));
  try {
    const n = Number(readFileSync(counter, 'utf8'));
    writeFileSync(counter, String(n + 1));
  } finally {
    release();
  }
}
`,
    );
    const codes = await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          new Promise<number | null>((done) => {
            const child = spawn(process.execPath, [...TS_NODE_ARGS, script, counter, join(dir, 'counter.lock')], { stdio: ['ignore', 'ignore', 'inherit'] });
            child.on('close', done);
          }),
      ),
    );
    assert.deepEqual(codes, [0, 0, 0, 0, 0, 0]);
    assert.equal(readFileSync(counter, 'utf8'), '240');
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.startsWith('counter.lock')),
      [],
      'the lock and its drafts are gone',
    );
  });
});

describe('a real repository: one write recovers a foreign write.lock', () => {
  test('a write.lock naming another host, 10 s old, is gone after the first write', { timeout: 60_000 }, async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    try {
      await initCore(dir);
      const lock = join(dir, '.git', 'axme', 'write.lock');
      mkdirSync(join(dir, '.git', 'axme'), { recursive: true });
      plantLock(lock, '31337 build-agent-7.example 1700000000000 0f0f0f0f', 10_000);
      const r = await axmeOk(dir, ['decision', 'add', '--title', 'After a foreign lock', '--decision', 'works', '--json']);
      assert.equal(r.id, 'D-001');
      assert.equal(existsSync(lock), false, 'recovered and removed: the next writes do not wait for it');
      assert.deepEqual(
        readdirSync(join(dir, '.git', 'axme')).filter((n) => n.includes('.stale')),
        [],
      );
      assert.match(git(dir, ['show', 'refs/memory/main:decisions/after-a-foreign-lock.md']), /works/);
    } finally {
      cleanup();
    }
  });
});
