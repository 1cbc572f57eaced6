import type { Word } from './shell.ts';

/**
 * A change of owner, group or mode (`chown`, `chgrp`, `chmod`): what the system family
 * (families/system.ts, system paths and the home's dotfile folders) and the user's data
 * (data-changes.ts, the home's documents) both read of one.
 */

/** The programs that change an owner, a group or a mode. */
export const OWNER_PROGRAMS: ReadonlySet<string> = new Set(['chown', 'chgrp', 'chmod']);

/** Their options that take the next word. */
export const OWNER_VALUED: ReadonlySet<string> = new Set(['--from', '--reference']);

/** chmod modes that look like options: `chmod -R -w dir`. */
export const MODE_LIKE = /^-[rwxXst]+$/;

/** A mode that only gives the owner more (`u+w`, `+rwX`: without a who, the umask keeps others' w): the owner's access back, nothing taken. */
export const OWNER_ADDS = /^u?\+[rwxX]+$/;

/** Whether a chown owner (`u`, `$USER:staff`, `$(whoami)`, `$(id -u):$(id -g)`) gives the files to the user whose home it is. */
export function toTheUser(owner: Word, home: string): boolean {
  const user = owner.raw.replace(/["']/g, '').split(':')[0]!;
  const name = home.slice(home.lastIndexOf('/') + 1);
  return user === name || /^(\$\{?(USER|LOGNAME|UID)\}?|\$\((whoami|id -u|id -un|logname)\)|`(whoami|id -u|id -un)`)$/.test(user);
}
