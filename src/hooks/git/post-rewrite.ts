import { readNote, writeNote } from '../../store/code-commits.ts';
import type { GitHookIO } from './context.ts';

/**
 * post-rewrite (amend, rebase): each rewritten commit keeps the note of the commit it replaces —
 * exactly, not merged with the note post-commit wrote for the new commit.
 */
export async function postRewrite(io: GitHookIO): Promise<number> {
  const at = { cwd: io.cwd, env: io.env };
  for (const line of io.stdin.split('\n')) {
    const [from, to] = line.trim().split(/\s+/);
    if (!from || !to) continue;
    // the original note wins: post-commit already wrote one for the amended commit, and git's
    // cat_sort_uniq copy would leave two `memory:` lines
    const note = await readNote(at, from);
    if (note && (await readNote(at, to)) !== note) await writeNote(at, to, note);
  }
  return 0;
}
