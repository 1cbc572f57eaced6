import { fileSystemError } from '../model/file-system-error.ts';
import { processStart } from '../session/owner.ts';
import { isMapped, mappedSession, type SessionMeta, sessionForHarness } from '../session/sessions.ts';
import { checkedSessionId, type HookPayload } from '../setup/clients/hook-payload.ts';
import type { HookIO } from './io.ts';

/** The axme session already mapped to the client's session, or null (nothing is created). */
export function knownHarnessSession(io: HookIO, p: HookPayload & { session_id: string }, commonDir: string): SessionMeta | null {
  return mappedSession(commonDir, io.client, checkedSessionId(p.session_id));
}

/** Opens the axme session of the client's session unless it is mapped already (one stat when it is). */
export function ensureHarnessSession(io: HookIO, p: HookPayload & { session_id: string }, commonDir: string): void {
  if (!isMapped(commonDir, io.client, p.session_id)) harnessSession(io, p, commonDir);
}

/**
 * The axme session of the client session (Claude Code's, Cursor's conversation, ...) a hook payload comes from (created on first sight).
 * With `renew` (SessionStart: a session resumed in a new process), a mapped session that is over
 * gets a fresh one; that check reads the session's log, so the per-tool-call hooks leave it out
 * and cost one small file read when the session is mapped.
 */
export function harnessSession(io: HookIO, p: HookPayload & { session_id: string }, commonDir: string, opts: { renew?: boolean } = {}): SessionMeta {
  return sessionForHarness(commonDir, io.client, checkedSessionId(p.session_id), {
    renew: opts.renew ?? false,
    cwd: p.cwd ?? io.cwd,
    transcriptPath: p.transcript_path,
    now: io.now(),
    // looked up only when the session is created: the process tree is read once per session
    // no harness (a hook fed by hand): pid 0, a process that never runs — the session binds nothing
    owner: () => {
      const pid = io.ownerPid();
      return pid === null ? { pid: 0, start: null } : { pid, start: processStart(pid) };
    },
  });
}

/**
 * As harnessSession, or null when the session cannot be recorded (a git folder this user may not
 * write, a full disk: the file system's refusal, model/file-system-error.ts): the hook still does its work without it (the context, the recall), and
 * says on stderr why the session is not recorded. Never used where the session decides a verdict.
 */
export function harnessSessionIfRecorded(
  io: HookIO,
  p: HookPayload & { session_id: string },
  commonDir: string,
  opts: { renew?: boolean } = {},
): SessionMeta | null {
  try {
    return harnessSession(io, p, commonDir, opts);
  } catch (err) {
    // only the file system's refusal: a payload's bad session_id stays the payload's problem (run.ts)
    if (!fileSystemError(err)) throw err;
    io.stderr(`axme: could not record the session (${(err as Error).message})\n`);
    return null;
  }
}
