import { renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeFolder } from '../model/make-folder.ts';
import { tempBeside } from './temp-files.ts';

/**
 * Writes a machine-local file so that readers see the old content or the new, never a torn one:
 * a temp file beside it, then a rename. Creates the folder. Synchronous, for the hooks' short
 * lives; the temporary name is temp-files.ts's, as for the caches' writes, so a killed writer's is
 * told from a live one's. `mode`: the new file's permissions
 * (0o600 for a file only its owner may read).
 */
export function writeFileAtomicSync(path: string, data: string | Buffer, opts: { mode?: number } = {}): void {
  makeFolder(dirname(path));
  const tmp = tempBeside(path);
  try {
    writeFileSync(tmp, data, opts.mode === undefined ? undefined : { mode: opts.mode });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Removes a file, ignoring any failure: for lock and temp files that may be gone already. */
export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already, or not ours to remove
  }
}
