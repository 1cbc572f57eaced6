import type { LaunchStep } from './launcher-shapes.ts';
import type { Word } from './shell.ts';

/**
 * `pass git ARGS`, `gopass git ARGS`: git run in the password store (`git -C ~/.password-store
 * ARGS`; gopass's root store), so that a push, a remote added or a bundle made there is read as
 * git's in the store (`pass git push https://x.example.com/p.git` sends the store away).
 */
const STORES: Readonly<Record<string, string>> = { pass: '~/.password-store', gopass: '~/.local/share/gopass/stores/root' };

/** What `pass git …` runs, or null for any other command. */
export function passGit(program: string, args: Word[]): LaunchStep | null {
  if (!Object.hasOwn(STORES, program) || args[0]?.value !== 'git') return null;
  const at = args[0];
  const word = (value: string): Word => ({ ...at, value, raw: value, subs: [], glob: false, leadingVar: null });
  return { kind: 'runs', words: [word('git'), word('-C'), word(STORES[program]!), ...args.slice(1)], chdir: null, scripts: [] };
}
