import { posix } from 'node:path';
import { programName } from './command.ts';
import { type SimpleCommand, UNKNOWN, type Word } from './shell.ts';

/**
 * The home folder an account query prints: `getent passwd NAME | cut -d: -f6` (also `-d ':'`,
 * `-f 6`), NAME the user's own (`$USER`, `$LOGNAME`, `$(whoami)`, `$(id -un)`, or the home
 * folder's own name) — the fields of the passwd line, the sixth the home. known-folders.ts reads a
 * substitution made of these as the folder it prints (`tar c "$(getent passwd "$USER" | cut -d:
 * -f6)"` is `tar c ~`). Another account's home is not the user's: null, as for anything else.
 */
export function accountHome(commands: readonly SimpleCommand[], home: string): string | null {
  if (commands.length !== 2) return null;
  const [query, cut] = commands.map((c) => c.words) as [Word[], Word[]];
  if (programName(query[0]?.value ?? '') !== 'getent' || query[1]?.value !== 'passwd' || query.length !== 3) return null;
  const name = query[2]!;
  const own = name.value.includes(UNKNOWN) ? /^"?\$\{?(USER|LOGNAME)\b|^"?\$\((whoami|id -un)\)/.test(name.raw) : name.value === posix.basename(home);
  return own && sixthField(cut) ? home : null;
}

/** `cut -d: -f6` in its spellings: the passwd line's sixth field, and only it. */
function sixthField(words: readonly Word[]): boolean {
  if (programName(words[0]?.value ?? '') !== 'cut') return false;
  const flags = words.slice(1).map((w) => w.value);
  const joined: string[] = [];
  for (let i = 0; i < flags.length; i++) joined.push(/^-[df]$/.test(flags[i]!) ? `${flags[i]}${flags[++i] ?? ''}` : flags[i]!);
  return joined.length === 2 && joined.includes('-d:') && joined.includes('-f6');
}
