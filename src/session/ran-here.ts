import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SESSION_ID_RE } from '../model/session-id.ts';
import { sessionsDir } from './sessions.ts';

/**
 * What this clone wrote, in its own records under `<git-common-dir>/axme/` (never committed, so no
 * push can write them): the blob of each handoff a write here committed, by session. The shared
 * store shows every session's id and lets whoever can push type any author, so these records, not
 * the store, tell a handoff this clone's close or auditor wrote from one edited or removed elsewhere.
 */

const writtenDir = (commonDir: string) => join(commonDir, 'axme', 'handoffs-written');
/** what closes of clients without hooks recorded before the written blobs were (read, no longer written) */
const closedHereDir = (commonDir: string) => join(commonDir, 'axme', 'closed-here');
/** the blobs kept a session: its close, the auditor's rewrite and a few closes more of a resumed session */
const KEPT_BLOBS = 16;

/** The blobs of `sessionId`'s handoff written here, oldest first ([] when none). */
function writtenBlobs(commonDir: string, sessionId: string): string[] {
  if (!SESSION_ID_RE.test(sessionId)) return [];
  try {
    return readFileSync(join(writtenDir(commonDir), sessionId), 'utf8')
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Records that a write on this clone committed `blob` as the handoff of `sessionId` (core/mutate.ts,
 * after every commit that writes a handoff: a close, the auditor's rewrite, a recovery). Appended,
 * the newest few kept.
 */
export function recordHandoffWritten(commonDir: string, sessionId: string, blob: string): void {
  if (!SESSION_ID_RE.test(sessionId) || !/^[0-9a-f]{40,64}$/.test(blob)) return;
  const was = writtenBlobs(commonDir, sessionId);
  if (was.at(-1) === blob) return;
  mkdirSync(writtenDir(commonDir), { recursive: true });
  const file = join(writtenDir(commonDir), sessionId);
  if (was.length >= KEPT_BLOBS) writeFileSync(file, `${[...was.slice(-(KEPT_BLOBS - 1)), blob].join('\n')}\n`);
  else appendFileSync(file, `${blob}\n`);
}

/**
 * Whether the handoff of `sessionId` whose blob is `blob` is one a write on this clone committed:
 * the startup text of such a one is this user's own session's (or its auditor's) and is said first;
 * a handoff of the same session with other content was edited elsewhere (docs/security.md).
 */
export function wroteHandoffHere(commonDir: string): (sessionId: string, blob: string | undefined) => boolean {
  return (sessionId, blob) => blob !== undefined && writtenBlobs(commonDir, sessionId).includes(blob);
}

/**
 * Whether this clone ran `sessionId`: its machine-local record is here (kept FINISHED_SESSION_DAYS
 * after its end), or a write here committed its handoff (or, before those were recorded, a close of
 * a client without hooks marked it). Its handoffs are this clone's to prune and a push's removal of
 * one is held, whoever the push says removed it (sync/handoff-removals.ts).
 */
export function ranHere(commonDir: string): (sessionId: string) => boolean {
  return (sessionId) =>
    SESSION_ID_RE.test(sessionId) &&
    (existsSync(join(sessionsDir(commonDir), `${sessionId}.json`)) ||
      existsSync(join(writtenDir(commonDir), sessionId)) ||
      existsSync(join(closedHereDir(commonDir), sessionId)));
}
