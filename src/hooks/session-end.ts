import { sessionStoreAt } from '../knowledge/core/location.ts';
import { recordEvent } from '../session/sessions.ts';
import { readPayload } from '../setup/clients/hook-registry.ts';
import { knownHarnessSession } from './harness-session.ts';
import type { HookIO } from './io.ts';

/**
 * SessionEnd: marks the harness session's axme session as ended (why, and when); with
 * `autoMemory: sync`, brings Claude Code's auto memory in and writes it out (docs/auto-memory.md);
 * starts the post-session auditor's worker (docs/auditor.md); with `sync.auto`, starts the background sync.
 */
export async function sessionEnd(io: HookIO): Promise<void> {
  const p = readPayload(io.stdin, io.protocol);
  const loc = sessionStoreAt(p.cwd ?? io.cwd, io.env);
  if (!loc || !p.session_id) return;
  // the session that is ending, even when it already looks over; one never seen is not created just to end it
  const s = knownHarnessSession(io, { ...p, session_id: p.session_id }, loc.commonDir);
  if (!s) return;
  recordEvent(loc.commonDir, s.id, { t: io.now().toISOString(), type: 'end', reason: p.reason ?? 'other' });
  // (loaded from the hooks' store-work chunk: the launcher, which every tool call starts, stays small)
  const work = await io.loadStoreWork();
  // autoMemory: sync — Claude Code's auto memory in and out (bounded; a problem is one line on stderr)
  if (io.client === 'claude-code') {
    const problem = await work.autoMemoryAtSessionEnd(loc, io.env, p.cwd ?? io.cwd, p.transcript_path);
    if (problem) io.stderr(`${problem}\n`);
  }
  // the auditor: what the agent forgot to save, found in the transcript by a detached worker
  const note = await work.startSessionAudit(io.self, loc, io.env, p.cwd ?? io.cwd, s.id, p.transcript_path ?? s.transcriptPath);
  if (note) io.stderr(`${note}\n`);
  // sync.auto: what the session made goes to the remote, in the background (the mode as its start found it)
  work.startSessionSync(io.self, loc.commonDir, p.cwd ?? io.cwd, io.env, 'session-end');
}
