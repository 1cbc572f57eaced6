import { randomBytes } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from './processes.ts';

/**
 * Files written whole under a temporary name beside their place, then renamed over it: a reader
 * sees the old file or the new one, never half of one. The name carries the writer's pid, so a
 * temporary file a killed writer left (a hook cut short by its client's timeout, a crash) can be
 * told from one being written now.
 */

const TEMP_RE = /\.tmp-(\d+)-[0-9a-f]+$/;

/** How old a dead writer's temporary file must be before it is removed: a pid seen from another
 * pid namespace (a container sharing the folder) may look dead while its writer still writes. */
export const ORPHAN_AGE_MS = 60_000;

/** The temporary name `file` is written under before the rename. */
export function tempBeside(file: string): string {
  return `${file}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/**
 * Removes, of the entries `names` of folder `dir`, the temporary files whose writer is gone and
 * that are older than ORPHAN_AGE_MS; returns the names removed. Never throws: derived data.
 */
export function removeOrphanTemps(dir: string, names: readonly string[], now = Date.now()): string[] {
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMP_RE.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    try {
      const at = join(dir, name);
      const mtime = statSync(at, { throwIfNoEntry: false })?.mtimeMs;
      if (mtime === undefined || now - mtime < ORPHAN_AGE_MS) continue;
      rmSync(at, { force: true });
      removed.push(name);
    } catch {
      // another process removed it, or the folder is read-only: only space is lost
    }
  }
  return removed;
}
