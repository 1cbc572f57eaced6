import { statSync } from 'node:fs';
import { ancestors, outerAncestors, processStart } from './owner.ts';
import { activeSession, MCP_HARNESS, readSession, recordEvent, type SessionMeta, type SessionOwner, sessionForHarness, sessionsDir } from './sessions.ts';

/**
 * The session a long-lived process working for an agent (the MCP server) belongs to. Claude Code's
 * hooks open a session before any tool runs; the process finds it because that harness is one of
 * its ancestors. A client without session hooks (Cursor, Codex, ...) gets a session the process
 * opens for itself, owned by the client, and ended when the process stops.
 */
export interface SessionBinder {
  /** the session for the repository whose git common dir is `commonDir` (opened on first need) */
  sessionFor(commonDir: string, cwd: string): SessionMeta;
  /** ends the sessions this process opened for itself; returns their ids */
  endOwn(reason: string): string[];
}

/**
 * The open agent session a short-lived process (a CLI command, a git hook) runs in: the newest
 * one whose harness is among its ancestors — an environment variable can be unset, the process
 * tree cannot. In axme's sandbox the tree above bubblewrap is hidden; its start hands it in
 * (outerAncestors). Null outside any agent session.
 */
export function sessionOfProcess(commonDir: string, pid = process.pid, env: NodeJS.ProcessEnv = process.env): SessionMeta | null {
  return activeSession(commonDir, [...ancestors(pid), ...outerAncestors(env)]);
}

export function sessionBinder(opts: { ancestors: number[]; owner: SessionOwner; now: () => Date }): SessionBinder {
  // per repository: the session found, valid while the sessions folder gains no new session
  const cache = new Map<string, { mtimeMs: number; meta: SessionMeta }>();
  const own = new Map<string, SessionMeta>();
  const selfId = `${process.pid}-${processStart(process.pid) ?? Date.now()}`;
  return {
    sessionFor(commonDir, cwd) {
      // the folder's time before the lookup: a session created during it makes the next call look again
      const mtimeMs = dirMtime(commonDir);
      const hit = cache.get(commonDir);
      if (hit && hit.mtimeMs === mtimeMs && !readSession(commonDir, hit.meta.id)?.ended) return hit.meta;
      const meta =
        activeSession(commonDir, opts.ancestors) ??
        sessionForHarness(commonDir, MCP_HARNESS, selfId, { cwd, transcriptPath: null, now: opts.now(), owner: () => opts.owner });
      // a session a server opened for this client (this one, or one that crashed before it) is this server's to end
      if (meta.harness === MCP_HARNESS) own.set(commonDir, meta);
      cache.set(commonDir, { mtimeMs, meta });
      return meta;
    },
    endOwn(reason) {
      const ended: string[] = [];
      for (const [commonDir, meta] of own) {
        try {
          recordEvent(commonDir, meta.id, { t: opts.now().toISOString(), type: 'end', reason });
          ended.push(meta.id);
        } catch {
          // the repository went away: nothing to end
        }
      }
      own.clear();
      cache.clear();
      return ended;
    },
  };
}

function dirMtime(commonDir: string): number {
  try {
    return statSync(sessionsDir(commonDir)).mtimeMs;
  } catch {
    return -1;
  }
}
