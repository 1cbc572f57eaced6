import type { Guarded } from './system-paths.ts';

/**
 * Programs that remove only an empty folder: `rmdir` refuses a folder that holds anything (also
 * with `-p`, which goes on to each parent only while it is empty) and a file. Python's
 * `os.rmdir`, Node's `fs.rmdirSync` without `recursive` and the like are read as it
 * (interpreter-calls.ts).
 */
const EMPTY_FOLDER_REMOVERS: ReadonlySet<string> = new Set(['rmdir']);

/**
 * Whether `program` removing the guarded place `g` loses nothing: an empty folder among the home
 * folder's own configuration (`rmdir ~/.pylint.d`, a tool's cache folder the task made), which
 * nothing read and whichever program wants it makes again — as `rmdir ~/Documents` passes. A system
 * folder stays guarded even empty: programs across the machine expect it to be there (`/run/sshd`,
 * `/var/lib/dpkg/updates`); what is written there after it is gone is judged as any write.
 */
export function removesOnlyAnEmptyFolder(program: string, g: Guarded): boolean {
  return EMPTY_FOLDER_REMOVERS.has(program) && g.kind === 'dotfile';
}
