import { noteCommit, nothingToNote } from '../../knowledge/history/commit-notes.ts';
import { dropPendingNoteAt } from '../../knowledge/history/git-hook-files.ts';
import { type GitHookIO, sessionOf } from './context.ts';

/**
 * post-commit: a note on refs/notes/axme ties the new commit to what was behind it: the session,
 * the PR and repo of its trailers, the memory tip at the time, the decisions its message cites.
 * A person's plain commit (no session, no trailers, no decision cited) gets none: nothing to tie.
 * Never fails the commit (git ignores post-commit's exit code; problems go to stderr).
 */
export async function postCommit(io: GitHookIO): Promise<number> {
  // the full path writes the note itself: a note commit-msg left (for the shell's fast path) goes
  dropPendingNoteAt(io.cwd, io.env);
  if (nothingToNote(io.cwd, io.env, (loc) => sessionOf(io, loc))) return 0;
  await noteCommit({ at: { cwd: io.cwd, env: io.env }, now: io.now(), sessionOf: (loc) => sessionOf(io, loc) });
  return 0;
}
