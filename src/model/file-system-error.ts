import { dirname } from 'node:path';
import { AxmeError } from './errors.ts';

/** What each refusal of the file system means for the path, and what to do about it. */
const REFUSALS: Readonly<Record<string, (path: string) => string>> = {
  EACCES: (path) =>
    `permission denied: this user may not write or read there. Run axme as the user who owns the repository, or give this user access (\`ls -ld ${dirname(path)}\` shows the owner)`,
  EPERM: (path) =>
    `operation not permitted: this user may not change it. Run axme as the user who owns the repository, or give this user access (\`ls -ld ${dirname(path)}\` shows the owner)`,
  EROFS: () => 'the file system is read-only here: run axme where the repository is writable',
  ENOSPC: () => 'no space left on the device: free some, then run the command again',
  EDQUOT: () => "the user's disk quota is used up: free some, then run the command again",
  ENOTDIR: () => 'a part of the path is a file, not a folder: give a path through folders',
  EISDIR: () => 'it is a folder where a file is meant: give a file',
};

const NO_NEW_FOLDER = (path: string) =>
  `${dirname(path)} takes no new folder (a virtual file system, such as /proc, takes none) or went away meanwhile: give a path on a disk you can write to`;

/**
 * A refusal of the file system (an errno error with the path it was about) said as FILE_SYSTEM:
 * the path, what was refused and what to do, or null for any other error. Surfaces report
 * errors that are not axme's through it before calling them internal (a bug).
 */
export function fileSystemError(err: unknown): AxmeError | null {
  const e = err as NodeJS.ErrnoException | null;
  if (!(e instanceof Error) || typeof e.code !== 'string' || typeof e.path !== 'string') return null;
  // make-folder.ts gives this only where the parent is there: the file system (such as /proc) takes no folder
  const why = e.code === 'ENOENT' && e.syscall === 'mkdir' ? NO_NEW_FOLDER : REFUSALS[e.code];
  if (!why) return null;
  const what = e.syscall ? `${e.syscall} ${e.path}` : e.path;
  return new AxmeError('FILE_SYSTEM', `cannot ${what}: ${why(e.path)}. Nothing was written`, { path: e.path, errno: e.code });
}
