import { readNote, writeNote } from '../../store/code-commits.ts';
import type { GitHookIO } from './context.ts';

/**
 * post-rewrite (amend, rebase): each rewritten commit keeps its axme note. Git copies notes
 * itself when notes.rewriteRef names refs/notes/axme (axme init sets it); this covers
 * repositories where that setting is missing, and never overwrites a note already there.
 */
export async function postRewrite(io: GitHookIO): Promise<number> {
  const at = { cwd: io.cwd, env: io.env };
  for (const line of io.stdin.split('\n')) {
    const [from, to] = line.trim().split(/\s+/);
    if (!from || !to) continue;
    const note = await readNote(at, from);
    if (note && (await readNote(at, to)) === null) await writeNote(at, to, note);
  }
  return 0;
}
