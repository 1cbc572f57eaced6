import { recordEvent, sessionForHarness } from '../session/sessions.ts';
import { locateRepo } from '../store/locate.ts';
import type { HookIO } from './io.ts';
import { parsePayload } from './payload.ts';

/** SessionEnd: marks the harness session's axme session as ended (why, and when). */
export async function sessionEnd(io: HookIO): Promise<void> {
  const p = parsePayload(io.stdin);
  const loc = locateRepo(p.cwd ?? io.cwd, io.env);
  if (!loc || !p.session_id) return;
  const s = sessionForHarness(loc.commonDir, 'claude-code', p.session_id, { cwd: p.cwd ?? io.cwd, transcriptPath: p.transcript_path, now: io.now(), ownerPid: io.ownerPid });
  recordEvent(loc.commonDir, s.id, { t: io.now().toISOString(), type: 'end', reason: p.reason ?? 'other' });
}
