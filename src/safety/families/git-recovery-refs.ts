import type { Hit } from './args.ts';
import { splitOptions } from './git-options.ts';

/**
 * The refs that hold recovery data, deleted with git's plumbing (docs/safety.md, the git history
 * family): `git update-ref -d refs/stash` drops every stash entry at once, as `git stash clear`
 * does, and `git update-ref -d refs/notes/<name>` the notes tied to the commits (axme's
 * `refs/notes/axme` among them), which the removal rule guards as files (`rm .git/refs/notes/…`).
 * A stash entry or a note kept elsewhere (`refs/stash-backup`, `refs/notes-old`) is not one.
 */
export function checkRecoveryRefDelete(args: readonly string[]): Hit | null {
  const { flags, operands } = splitOptions(args, ['--no-deref', '--create-reflog', '--stdin'], new Set(['-m']));
  if (!flags.has('d') || flags.has('--stdin')) return null;
  const ref = operands[0] ?? '';
  if (ref === 'refs/stash')
    return { rule: 'update-ref -d refs/stash', reason: '`git update-ref -d refs/stash` deletes every stash entry at once, as `git stash clear` does' };
  if (/^refs\/notes\/./.test(ref))
    return { rule: `update-ref -d ${ref}`, reason: `\`git update-ref -d ${ref}\` deletes every note of ${ref}, the record tied to the commits` };
  return null;
}
