import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AxmeError } from './errors.ts';

/**
 * Makes the folder `path` and each missing parent, one plain `mkdir` a level from the top down.
 * Never Node's recursive mkdir: on Node 20 it spins forever where the file system refuses a folder
 * with ENOENT although the parent is there (/proc/nope). Throws the errno error of the level that
 * failed, with its path: EACCES, EPERM, EROFS (may not write there), ENOTDIR (a file on the way, or
 * `path` itself: its path is that file), ENOENT (the file system there makes no folder, as /proc).
 * A folder made meanwhile by another process is fine.
 */
export function makeFolder(path: string, opts: { mode?: number } = {}): void {
  const missing: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    const st = statOrMissing(dir);
    if (st === 'folder') break;
    if (st === 'file') throw errnoError('ENOTDIR', 'not a directory', 'mkdir', dir);
    missing.push(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir, opts.mode === undefined ? undefined : { mode: opts.mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && statOrMissing(dir) === 'folder') continue;
      throw err;
    }
  }
}

/** What is at `dir`: a folder, something else, or nothing (a file on the way, ENOTDIR, counts as nothing: the walk goes on up to it). */
function statOrMissing(dir: string): 'folder' | 'file' | 'missing' {
  try {
    const st = statSync(dir, { throwIfNoEntry: false });
    return st === undefined ? 'missing' : st.isDirectory() ? 'folder' : 'file';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return 'missing';
    throw err;
  }
}

function errnoError(code: string, text: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${text}, ${syscall} '${path}'`), { code, syscall, path });
}

const MAY_NOT_WRITE = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * A folder a command was given (`axme export adr <dir>`) that cannot be made or written to, as
 * INVALID_INPUT naming the path to change and what to do: a file on the way (ENOTDIR), no
 * permission or a read-only file system (EACCES, EPERM, EROFS), a file system that makes no folder
 * there (ENOENT: /proc). Null for any other error (a full disk is not the path's fault:
 * file-system-error.ts says those). `verb` and `usage` name the command: 'export', 'axme export adr <dir>'.
 */
export function folderRefusal(err: unknown, folder: string, how: { verb: string; usage: string }): AxmeError | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOTDIR') {
    const file = fileOnTheWay(folder);
    const what = file === folder ? `${folder} is a file, not a folder` : `${file} is a file, not a folder, so ${folder} cannot be one`;
    return new AxmeError('INVALID_INPUT', `${what}: give a folder (${how.usage})`, { path: folder, file });
  }
  if (code && MAY_NOT_WRITE.has(code))
    return new AxmeError(
      'INVALID_INPUT',
      `cannot write to ${folder} (${code}: no permission${code === 'EROFS' ? ', a read-only file system' : ''}): ${how.verb} to a folder you can write to (${how.usage}), or make this one writable (chmod u+w)`,
      { path: folder, errno: code },
    );
  if (code === 'ENOENT' && (err as NodeJS.ErrnoException).syscall === 'mkdir') {
    const at = (err as NodeJS.ErrnoException).path ?? folder;
    return new AxmeError(
      'INVALID_INPUT',
      `cannot make the folder ${at}: ${dirname(at)} takes no new folder (a virtual file system, such as /proc, takes none) or went away meanwhile: ${how.verb} to a folder on a disk you can write to (${how.usage})`,
      { path: folder, errno: code },
    );
  }
  return null;
}

/** The file on the way to `path` (itself, or the nearest parent that is not a folder); `path` when there is none. */
function fileOnTheWay(path: string): string {
  for (let dir = resolve(path); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      if (!statSync(dir).isDirectory()) return dir;
    } catch {
      // missing, or under a file: look further up
    }
  }
  return path;
}
