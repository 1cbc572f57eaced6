import { carryNotes, mayHaveNotes } from '../../knowledge/history/commit-notes.ts';
import type { GitHookIO } from './context.ts';

/**
 * post-rewrite (amend, rebase): each rewritten commit keeps the note of the commit it replaces —
 * exactly, not merged with the note post-commit wrote for the new commit. git writes one
 * `<old> <new>` line per rewritten commit on stdin.
 */
export async function postRewrite(io: GitHookIO): Promise<number> {
  // no note anywhere yet: none to carry, and no git process to start
  if (!mayHaveNotes(io.cwd, io.env)) return 0;
  const rewrites: Array<{ from: string; to: string }> = [];
  for (const line of io.stdin.split('\n')) {
    const [from, to] = line.trim().split(/\s+/);
    if (from && to) rewrites.push({ from, to });
  }
  await carryNotes({ at: { cwd: io.cwd, env: io.env }, rewrites });
  return 0;
}
