/**
 * Stale-lock recovery: the advisory write lock and git's ref locks. A clock and a sleep are
 * injected, so what is counted is the number of waits, never how long anything took.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readLockFile, removeLockIf, type LockFile } from '../../src/store/lock-file.ts';
import { withAdvisoryLock } from '../../src/store/lock.ts';
import { axmeOk, git, tempRepo } from '../helpers.ts';

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
    assert.ok(clock.t - mtime > 5_000 && clock.t - mtime < 6_100, `waited until it was older than the threshold, not longer (${clock.t - mtime} ms by the fake clock)`);
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

describe('a real repository: one write recovers a foreign write.lock', () => {
  test('a write.lock naming another host, 10 s old, is gone after the first write', { timeout: 60_000 }, async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    try {
      await axmeOk(dir, ['init', '--no-claude', '--no-git-hooks', '--no-scan']);
      const lock = join(dir, '.git', 'axme', 'write.lock');
      mkdirSync(join(dir, '.git', 'axme'), { recursive: true });
      plantLock(lock, '31337 build-agent-7.example 1700000000000 0f0f0f0f', 10_000);
      const r = await axmeOk(dir, ['decision', 'add', '--title', 'After a foreign lock', '--decision', 'works', '--json']);
      assert.equal(r.id, 'D-001');
      assert.equal(existsSync(lock), false, 'recovered and removed: the next writes do not wait for it');
      assert.deepEqual(readdirSync(join(dir, '.git', 'axme')).filter((n) => n.includes('.stale')), []);
      assert.match(git(dir, ['show', 'refs/memory/main:decisions/after-a-foreign-lock.md']), /works/);
    } finally {
      cleanup();
    }
  });
});
