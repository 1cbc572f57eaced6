import { noteMergeCommit } from '../../knowledge/history/commit-notes.ts';
import { type GitHookIO, sessionOf } from './context.ts';

/**
 * post-merge: the commit `git merge` made gets its note, as post-commit gives other commits (git
 * runs commit-msg for a merge commit, which moves the marker into trailers and leaves the note,
 * but not post-commit); a fast-forward or a squash gets none (noteMergeCommit). Never fails the
 * merge (git ignores post-merge's exit code; problems go to stderr).
 */
export async function postMerge(io: GitHookIO): Promise<number> {
  await noteMergeCommit({ at: { cwd: io.cwd, env: io.env }, now: io.now(), sessionOf: (loc) => sessionOf(io, loc) });
  return 0;
}
