import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SESSION_FILE_ID_RE, sessionsDir } from './sessions.ts';

/**
 * Whether this clone ran `sessionId`: its machine-local record is here (kept FINISHED_SESSION_DAYS
 * after its end), or a close here wrote its handoff (markClosedHere: a client without hooks, whose
 * sessions have no record).
 */
export function ranHere(commonDir: string): (sessionId: string) => boolean {
  return (sessionId) =>
    SESSION_FILE_ID_RE.test(sessionId) &&
    (existsSync(join(sessionsDir(commonDir), `${sessionId}.json`)) || existsSync(join(closedHereDir(commonDir), sessionId)));
}

const closedHereDir = (commonDir: string) => join(commonDir, 'axme', 'closed-here');

/**
 * Records, machine-locally, that a close on this clone wrote the handoff of `sessionId`, a session
 * with no record here: ranHere then counts it, so its startup text is said as this user's own, never
 * one another clone (or whoever can push) wrote.
 */
export function markClosedHere(commonDir: string, sessionId: string): void {
  if (!SESSION_FILE_ID_RE.test(sessionId)) return;
  mkdirSync(closedHereDir(commonDir), { recursive: true });
  writeFileSync(join(closedHereDir(commonDir), sessionId), '');
}
