import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AxmeError } from '../../model/errors.ts';
import { formatSize } from '../../model/limits.ts';

/** The folder an import reads: `path` as given, or relative to `cwd` (the caller's folder). */
export function resolveFolder(path: string, cwd: string = process.cwd()): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/**
 * Refuses a folder that does not exist or is not a folder (INVALID_INPUT: what was expected, and
 * how to name the folder). Shared by the importers (AXME Code, ADRs).
 */
export function requireFolder(root: string, expected: string, usage: string): void {
  let dir = false;
  try {
    dir = statSync(root).isDirectory();
  } catch {
    throw new AxmeError('INVALID_INPUT', `${root} does not exist: ${expected}. Give its path: ${usage}`, { path: root });
  }
  if (!dir) throw new AxmeError('INVALID_INPUT', `${root} is not a folder: ${expected}`, { path: root });
}

/** A file of a folder an import read that was not imported (or left out of one), and why. */
export interface ImportProblem {
  /** the file, relative to the folder read */
  path: string;
  reason: string;
}

/** The first line of an error's message: what a report of left-out files says. */
export function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

/** The largest file an importer reads as one item (an ADR, a decision, a topic file): an item is at most 256 KB once stored. */
export const IMPORT_FILE_MAX = 1024 * 1024;
/** The largest file an importer reads that holds many entries (AXME Code's open-questions.md and worklog.jsonl). */
export const IMPORT_LOG_MAX = 16 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of `rel` inside the folder `root`, for an importer. Throws (INVALID_INPUT, `data.path`
 * the file; the message is the reason, for a list of files left out) when it leads out of the folder (a symbolic link anywhere on its path whose
 * target is outside `root`), is not a regular file, is over `max` bytes (checked before reading)
 * or is not UTF-8 (a Latin-1 file is refused, never altered). A byte-order mark is dropped.
 */
export function readInside(root: string, rel: string, max = IMPORT_FILE_MAX): string {
  const path = join(root, rel);
  const real = realpathSync(path);
  const top = realpathSync(root);
  if (real !== top && !real.startsWith(top.endsWith(sep) ? top : `${top}${sep}`)) {
    throw new AxmeError('INVALID_INPUT', 'a symbolic link out of the folder: not read; an import reads only files inside its folder', { path: rel });
  }
  const fd = openSync(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new AxmeError('INVALID_INPUT', 'not a regular file: not read', { path: rel });
    if (st.size > max)
      throw new AxmeError('INVALID_INPUT', `${formatSize(st.size)}, over the ${formatSize(max)} an import reads: not read`, { path: rel, bytes: st.size });
    const buf = Buffer.alloc(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) break;
      at += n;
    }
    try {
      return utf8.decode(buf.subarray(0, at));
    } catch {
      throw new AxmeError(
        'INVALID_INPUT',
        'not UTF-8 text (Latin-1 or another encoding?): not read; convert it to UTF-8 (iconv -f latin1 -t utf-8) and import again',
        { path: rel },
      );
    }
  } finally {
    closeSync(fd);
  }
}

/** Whether `rel` names something in the folder: a file, a folder or a symbolic link (not followed). */
export function presentInside(root: string, rel: string): boolean {
  return lstatSync(join(root, rel), { throwIfNoEntry: false }) !== undefined;
}

/** The folder's path in the git repository holding it (`docs/adr`, '' for its top); its own name when it is in none. */
export function repositoryPath(root: string): string {
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return relative(dir, root).split('\\').join('/');
    if (dirname(dir) === dir) return basename(root);
  }
}

/** How an import names the folder it read in a commit, never by an absolute path of this machine: its repository path, else its name. */
export function folderLabel(root: string): string {
  return repositoryPath(root) || basename(root);
}
