import { processAlive } from './owner.ts';
import { listSessions, readSession, type SessionMeta, type SessionState, type SessionStatus, sessionStatus } from './sessions.ts';

/** Is the session's owner process still running (pid plus start time, so a reused pid is not)? */
export const ownerAlive = (m: SessionMeta): boolean => processAlive(m.ownerPid, m.ownerStart);

/** One line of `axme session list`: a session and where it stands. */
export interface SessionRow {
  id: string;
  harness: string;
  harness_session: string;
  status: SessionStatus;
  started: string;
  last_activity: string;
  ended: string | null;
  end_reason: string | null;
  owner_pid: number;
  files: number;
  commits: number;
  /** the commit of the agent's close or of the recovery */
  commit: string | null;
}

export function sessionRow(s: SessionState, alive: (m: SessionMeta) => boolean = ownerAlive): SessionRow {
  return {
    id: s.meta.id,
    harness: s.meta.harness,
    harness_session: s.meta.harnessSessionId,
    status: sessionStatus(s, alive),
    started: s.meta.startedAt,
    last_activity: s.lastActivity,
    ended: s.ended?.t ?? null,
    end_reason: s.ended?.reason ?? null,
    owner_pid: s.meta.ownerPid,
    files: s.files.length,
    commits: s.commits.length,
    commit: s.closed?.commit ?? s.recovered?.commit ?? null,
  };
}

/** The repository's sessions on this machine, newest first; `orphans` keeps only those awaiting recovery. */
export function sessionRows(commonDir: string, opts: { orphans?: boolean; alive?: (m: SessionMeta) => boolean } = {}): SessionRow[] {
  const rows = listSessions(commonDir).map((s) => sessionRow(s, opts.alive));
  return opts.orphans ? rows.filter((r) => r.status === 'orphan') : rows;
}

/** One session in full (files and commits listed), or null. */
export function sessionDetail(
  commonDir: string,
  id: string,
): (SessionRow & { file_list: string[]; commit_list: string[]; cwd: string; transcript: string | null }) | null {
  const s = readSession(commonDir, id);
  if (!s) return null;
  return { ...sessionRow(s), file_list: s.files, commit_list: s.commits, cwd: s.meta.cwd, transcript: s.meta.transcriptPath };
}
