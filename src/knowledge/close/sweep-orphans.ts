import { ownerAlive } from '../../session/list.ts';
import {
  claimSession,
  listSessions,
  pruneSessions,
  readSession,
  type SessionMeta,
  type SessionState,
  sessionClaimHeld,
  sessionStatus,
} from '../../session/sessions.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { type RecoverResult, writeRecovery } from './recover-session.ts';

/** What a sweep did: the sessions it recovered, set aside, left to another process, forgot, and failed on. */
export interface SweepResult {
  recovered: RecoverResult[];
  discarded: string[];
  /** sessions another process is recovering right now */
  skipped: string[];
  /** finished sessions whose local record was old enough to delete */
  pruned: string[];
  errors: Array<{ session: string; message: string }>;
}

/**
 * Recovers every orphan of the repository (run by the session-start hook, when the MCP server
 * starts and when it stops), then forgets sessions finished long ago. A claim file keeps two
 * processes from recovering one session twice; one failure does not stop the rest.
 */
export async function sweepOrphans(kb: KnowledgeBase, opts: { alive?: (m: SessionMeta) => boolean; waitUntil?: number } = {}): Promise<SweepResult> {
  const alive = opts.alive ?? ownerAlive;
  const out: SweepResult = { recovered: [], discarded: [], skipped: [], pruned: [], errors: [] };
  const sessions = listSessions(kb.repo.commonDir);
  await sweepSome(kb, sessions, alive, out);
  // a session another process holds: wait for its claim to go, then take what it left (usually nothing)
  while (out.skipped.length && opts.waitUntil !== undefined && Date.now() < opts.waitUntil) {
    const held = out.skipped;
    while (held.some((id) => sessionClaimHeld(kb.repo.commonDir, id)) && Date.now() < opts.waitUntil) await new Promise((r) => setTimeout(r, CLAIM_POLL_MS));
    out.skipped = [];
    await sweepSome(
      kb,
      sessions.filter((s) => held.includes(s.meta.id)),
      alive,
      out,
    );
  }
  // (a session recovered just now is recent: the list read before the recoveries still serves)
  out.pruned = pruneSessions(kb.repo.commonDir, kb.now(), undefined, sessions);
  return out;
}

/** How often a sweep that waits on another process's claim looks again. */
const CLAIM_POLL_MS = 100;

async function sweepSome(kb: KnowledgeBase, sessions: SessionState[], alive: (m: SessionMeta) => boolean, out: SweepResult): Promise<void> {
  for (const s of sessions) {
    if (sessionStatus(s, alive) !== 'orphan') continue;
    const release = claimSession(kb.repo.commonDir, s.meta.id, kb.now());
    if (!release) {
      out.skipped.push(s.meta.id);
      continue;
    }
    try {
      // re-read under the claim: another process may have finished it meanwhile
      const fresh = readSession(kb.repo.commonDir, s.meta.id);
      if (!fresh || sessionStatus(fresh, alive) !== 'orphan') continue;
      const r = await writeRecovery(kb, fresh);
      if (r.outcome === 'discarded') out.discarded.push(r.session);
      else out.recovered.push(r);
    } catch (err) {
      out.errors.push({ session: s.meta.id, message: (err as Error).message });
    } finally {
      release();
    }
  }
}
