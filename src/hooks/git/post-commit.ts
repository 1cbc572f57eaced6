import { commitInfo, headBranch, trailersOf, writeNote } from '../../store/code-commits.ts';
import { readRefSync, locateRepo } from '../../store/locate.ts';
import { MEMORY_REF } from '../../model/refs.ts';
import { sessionOf, type GitHookIO } from './context.ts';
import { readSession, recordEvent } from '../../session/sessions.ts';

/**
 * post-commit: a note on refs/notes/axme ties the new commit to what was behind it: the session,
 * the PR and repo of its trailers, the memory tip at the time, the decisions its message cites.
 * Never fails the commit (git ignores post-commit's exit code; problems go to stderr).
 */
export async function postCommit(io: GitHookIO): Promise<number> {
  const at = { cwd: io.cwd, env: io.env };
  const info = await commitInfo(at, 'HEAD');
  if (!info) return 0;
  const { commit: head, message } = info;
  const t = await trailersOf(at, message);
  const loc = locateRepo(io.cwd, io.env);
  const tip = loc ? readRefSync(loc.commonDir, MEMORY_REF) : null;
  const decisions = [...new Set(message.match(/\bD-\d{3,}\b/g) ?? [])];
  const lines: string[] = [];
  const session = t.get('axme-session') ?? sessionOf(io, loc);
  if (session) lines.push(`session: ${session}`);
  // the session's own record of what it committed (machine-local)
  // (a session from elsewhere, named by AXME_SESSION, has no local record: the note still says it)
  if (session && loc && readSession(loc.commonDir, session)) recordEvent(loc.commonDir, session, { t: io.now().toISOString(), type: 'commit', commit: head });
  if (t.get('axme-pr')) lines.push(`pr: ${t.get('axme-pr')}`);
  if (t.get('axme-repo')) lines.push(`repo: ${t.get('axme-repo')}`);
  if (tip && tip !== 'unknown') lines.push(`memory: ${tip}`);
  if (decisions.length) lines.push(`decisions: ${decisions.join(', ')}`);
  const branch = await headBranch(at);
  if (branch) lines.push(`branch: ${branch}`);
  // sorted, as git's cat_sort_uniq rewrite mode leaves them: a note reads the same after a rebase
  if (lines.length) await writeNote(at, head, `${lines.sort().join('\n')}\n`);
  return 0;
}
