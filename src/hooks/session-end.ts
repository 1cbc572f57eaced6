import { recordEvent } from '../session/sessions.ts';
import { knownHarnessSession } from './harness-session.ts';
import { sessionStoreAt } from '../knowledge/core/location.ts';
import type { HookIO } from './io.ts';
import { parsePayload } from './payload.ts';

/** SessionEnd: marks the harness session's axme session as ended (why, and when). */
export async function sessionEnd(io: HookIO): Promise<void> {
  const p = parsePayload(io.stdin);
  const loc = sessionStoreAt(p.cwd ?? io.cwd, io.env);
  if (!loc || !p.session_id) return;
  // the session that is ending, even when it already looks over; one never seen is not created just to end it
  const s = knownHarnessSession({ ...p, session_id: p.session_id }, loc.commonDir);
  if (!s) return;
  recordEvent(loc.commonDir, s.id, { t: io.now().toISOString(), type: 'end', reason: p.reason ?? 'other' });
  // sync.auto: what the session made goes to the remote, in the background (the mode as its start found it)
  // (loaded from the hooks' store-work chunk: the launcher, which every tool call starts, stays small)
  (await io.loadStoreWork()).startSessionSync(loc.commonDir, p.cwd ?? io.cwd, io.env, 'session-end');
}
