import { existsSync, realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';

/** The real path of `p` (symlinks resolved), or null when nothing is there: bubblewrap binds only what is. */
export function real(p: string): string | null {
  // most paths asked about are not there (credentials, caches, servers' folders): existsSync answers without an exception, which costs far more than the call
  if (!existsSync(p)) return null;
  try {
    // the system's realpath: one call, where Node's own walks the path a component at a time (this runs ~60 times per command)
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

/** Whether a folder is at `p`. */
export const isDir = (p: string): boolean => {
  try {
    // no exception for a missing path (the usual answer); one for a path through a file, or one not ours to read
    return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
};

/** Whether `p` is `dir` or lies under it. */
export const inside = (p: string, dir: string): boolean => p === dir || p.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
