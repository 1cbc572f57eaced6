import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, linkSync, openSync, readFileSync, renameSync, type Stats, writeSync } from 'node:fs';
import { removeQuietly } from './atomic-file.ts';

/**
 * A lock file as it was seen: its content and enough of its identity (device, inode, size,
 * modification time) to tell it from a newer file created at the same path since.
 */
export interface LockFile {
  content: string;
  mtimeMs: number;
  dev: number;
  ino: number;
  size: number;
}

/**
 * Creates the lock file `path` holding `content`: its identity, or 'exists' when another is there.
 * The content is written to a draft beside it first and the draft hard-linked into place (link
 * never replaces a file), so nobody ever sees the lock empty or half written — a reader that found
 * it empty and took it for a dead process's would remove a live claim and let two writers in. On a
 * file system without hard links it is created in place (an exclusive create, then the write).
 * Other errors (no permission, no such folder) are thrown.
 */
export function createLockFile(path: string, content: string): LockFile | 'exists' {
  const draft = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.new.lock`;
  const own = writeNew(draft, content);
  try {
    linkSync(draft, path);
    return own;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return 'exists';
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
  } finally {
    removeQuietly(draft);
  }
  try {
    return writeNew(path, content);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
    throw err;
  }
}

/** Creates `path` (never an existing one) holding `content`: its identity. */
function writeNew(path: string, content: string): LockFile {
  const fd = openSync(path, 'wx');
  try {
    writeSync(fd, content);
    return lockOfFd(fd, content);
  } finally {
    closeSync(fd);
  }
}

/** The identity of an open lock file (`content`: what was written into it). */
export function lockOfFd(fd: number, content: string): LockFile {
  return identity(fstatSync(fd), content);
}

/**
 * Reads a lock file: its content and identity come from one open file, so they describe the same
 * file. null when there is none; 'unreadable' when something else is there (a folder, no
 * permission): nothing a writer should judge or remove.
 */
export function readLockFile(path: string): LockFile | null | 'unreadable' {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : 'unreadable';
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > 64 * 1024) return 'unreadable';
    return identity(st, readFileSync(fd, 'utf8'));
  } catch {
    return 'unreadable';
  } finally {
    closeSync(fd);
  }
}

/**
 * Removes the lock at `path` only if it is still the file `seen` describes — the file a writer
 * judged stale, or its own. Checking and removing cannot be two steps (another writer may have
 * replaced the lock in between), so the lock is first renamed aside, which is atomic: from then on
 * nobody else can see, take or remove that file. The file moved aside is then compared with
 * `seen`: the same one is deleted; a different one (a writer took the path in between) is linked
 * back, never over a lock created since. The name aside ends in `.lock`, so git never reads it
 * as a ref. true when `seen` was removed.
 */
export function removeLockIf(path: string, seen: LockFile): boolean {
  const aside = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.stale.lock`;
  try {
    renameSync(path, aside);
  } catch {
    return false; // gone already: its owner released it, or another writer recovered it
  }
  const moved = readLockFile(aside);
  if (moved && moved !== 'unreadable' && sameLock(moved, seen)) {
    removeQuietly(aside);
    return true;
  }
  putBack(aside, path);
  return false;
}

/** Puts a lock moved aside by mistake back in place, unless the path has been taken again meanwhile. */
function putBack(aside: string, path: string): void {
  try {
    linkSync(aside, path); // fails with EEXIST rather than replace a newer lock
  } catch (err) {
    // a file system without hard links: a rename, only into a free path
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST' && !existsSync(path)) {
      try {
        renameSync(aside, path);
        return;
      } catch {
        // leave it: the owner's own release or commit fails and says so
      }
    }
  }
  removeQuietly(aside);
}

function sameLock(a: LockFile, b: LockFile): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.content === b.content;
}

function identity(st: Stats, content: string): LockFile {
  return { content, mtimeMs: st.mtimeMs, dev: st.dev, ino: st.ino, size: st.size };
}
