import { appendFileSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AxmeError } from '../model/errors.ts';
import type { Signature } from './backend.ts';
import { readRefSync } from './locate.ts';
import { type LockFile, lockOfFd, readLockFile, removeLockIf } from './lock-file.ts';
import { readOnlyGitDirError } from './read-only-git-dir.ts';
import type { Repo } from './repo.ts';

/** A ref lock older than this belongs to a writer that died: git holds one for milliseconds. */
export const STALE_REF_LOCK_MS = 5_000;

export type CasOutcome = 'updated' | 'stale' | 'locked';

/**
 * Compare-and-swap: points `ref` at `next` only if it still points at `expected` (null: the ref
 * must not exist). An exact implementation of git's files-backend protocol, in-process (a spawn
 * of `git update-ref` costs more than the whole rest of a warm write): `<ref>.lock` created
 * exclusively, the old value checked against the loose or packed ref while the lock is held,
 * the reflog appended (created for custom refs too), the lock renamed into place. Git processes
 * take the same lock, so they and axme exclude each other. 'stale': another writer won, re-apply
 * and retry. 'locked': a live writer holds the lock; a lock left by a dead writer is removed.
 * Reftable repositories and symbolic refs go through `git update-ref` instead.
 */
export async function compareAndSwapRef(
  repo: Repo,
  ref: string,
  next: string,
  expected: string | null,
  reflogMessage: string,
  who: Signature,
): Promise<CasOutcome> {
  if (existsSync(join(repo.commonDir, 'reftable'))) return gitUpdateRef(repo, ref, next, expected, reflogMessage);
  const refPath = join(repo.commonDir, ref);
  const lock = `${refPath}.lock`;
  let fd: number | undefined;
  try {
    mkdirSync(dirname(lock), { recursive: true });
    fd = openSync(lock, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
      throw readOnlyGitDirError(ref, err) ?? new AxmeError('GIT_FAILED', `cannot lock ${ref}: ${(err as Error).message}`, { ref });
    recoverStaleRefLock(lock, Date.now());
    return 'locked';
  }
  // what our lock file is, so that we only ever remove or commit that very file
  let mine: LockFile = lockOfFd(fd, '');
  let released = false; // the lock file is no longer ours to remove
  try {
    const current = readRefSync(repo.commonDir, ref);
    if (current === 'unknown') {
      // a symbolic or unreadable ref: let git interpret it, without our lock in its way
      closeSync(fd);
      fd = undefined;
      removeLockIf(lock, mine);
      released = true;
      return await gitUpdateRef(repo, ref, next, expected, reflogMessage);
    }
    if (current !== expected) return 'stale';
    writeSync(fd, `${next}\n`);
    mine = lockOfFd(fd, `${next}\n`);
    closeSync(fd);
    fd = undefined;
    if (!stillOurs(lock, mine)) {
      // we stalled so long that another writer recovered our lock as stale: theirs now, retry
      released = true;
      return 'locked';
    }
    const old = expected ?? '0'.repeat(next.length);
    const line = `${old} ${next} ${who.name} <${who.email}> ${who.timestamp} ${who.tz}\t${reflogMessage.replace(/[\r\n]+/g, ' ')}\n`;
    const log = join(repo.commonDir, 'logs', ref);
    mkdirSync(dirname(log), { recursive: true });
    appendFileSync(log, line);
    renameSync(lock, refPath);
    released = true;
    return 'updated';
  } finally {
    if (fd !== undefined) closeSync(fd);
    if (!released) removeLockIf(lock, mine);
  }
}

/** The same compare-and-swap through `git update-ref` (for storage axme does not read itself). */
async function gitUpdateRef(repo: Repo, ref: string, next: string, expected: string | null, reflogMessage: string): Promise<CasOutcome> {
  const old = expected ?? '0'.repeat(next.length);
  const r = await repo.git(['update-ref', '--create-reflog', '-m', reflogMessage, ref, next, old], { allowFail: true });
  if (r.code === 0) return 'updated';
  const current = await repo.backend.resolveRef(ref);
  if (current !== expected) return 'stale';
  const lock = join(repo.commonDir, `${ref}.lock`);
  if (existsSync(lock)) {
    recoverStaleRefLock(lock, Date.now());
    return 'locked';
  }
  // Not a race and not a lock: a real failure (permissions, disk full, ...).
  throw new AxmeError('GIT_FAILED', `git update-ref ${ref} failed: ${r.stderr.trim()}`, { ref });
}

/**
 * A ref lock older than STALE_REF_LOCK_MS was left by a writer that died (git holds one for
 * milliseconds): it is removed — that very file, checked after it was moved aside (removeLockIf),
 * so a fresh lock another writer took meanwhile is never the one removed.
 */
function recoverStaleRefLock(lock: string, now: number): void {
  const seen = readLockFile(lock);
  if (seen && seen !== 'unreadable' && now - seen.mtimeMs > STALE_REF_LOCK_MS) removeLockIf(lock, seen);
}

/** Whether the lock file at `path` is still the one we created. */
function stillOurs(path: string, mine: LockFile): boolean {
  try {
    const st = lstatSync(path);
    return st.dev === mine.dev && st.ino === mine.ino && st.mtimeMs === mine.mtimeMs && st.size === mine.size;
  } catch {
    return false;
  }
}
