import { processStart } from '../session/owner.ts';
import { sessionForHarness, type SessionMeta } from '../session/sessions.ts';
import type { HookIO } from './io.ts';
import type { HookPayload } from './payload.ts';

/**
 * The axme session of the Claude Code session a hook payload comes from (created on first sight).
 * `renew`: a mapped session that is over (a resumed Claude Code session) gets a fresh one.
 */
export function harnessSession(io: HookIO, p: HookPayload & { session_id: string }, commonDir: string, renew = true): SessionMeta {
  return sessionForHarness(commonDir, 'claude-code', p.session_id, {
    renew,
    cwd: p.cwd ?? io.cwd,
    transcriptPath: p.transcript_path,
    now: io.now(),
    // looked up only when the session is created: the process tree is read once per session
    owner: () => {
      const pid = io.ownerPid();
      return { pid, start: processStart(pid) };
    },
  });
}
