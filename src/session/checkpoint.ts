import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionFolder } from './given.ts';

/**
 * A session's checkpoint (issue 32): where the work stood when the client compacted the session's
 * context, written by the pre-compact hook and handed to the model by the next context start (or,
 * in a client that starts none after a compaction, the next prompt). Machine-local, in the
 * session's own folder, replaced at each compaction: it serves the live session only. The shared
 * handoff is still the agent's close or the orphan recovery.
 */

const FILE = 'checkpoint.md';

/** Writes the session's checkpoint (the last compaction's wins). */
export function writeCheckpoint(commonDir: string, sessionId: string, text: string): void {
  const dir = sessionFolder(commonDir, sessionId);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, FILE), text);
}

/** The session's checkpoint, or null when none was written. */
export function readCheckpoint(commonDir: string, sessionId: string): string | null {
  try {
    return readFileSync(join(sessionFolder(commonDir, sessionId), FILE), 'utf8');
  } catch {
    return null;
  }
}
