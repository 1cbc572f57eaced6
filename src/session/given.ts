import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionsDir } from './sessions.ts';

/**
 * What a session was given (issue 32): the items (`decision D-001`, `memory use-valkey`) and the
 * files (`file src/db.ts`) whose knowledge was injected into it — by the session start's context,
 * a prompt's recall or a pre-edit recall — so none is injected twice. Machine-local, in the
 * session's own folder `<git-common-dir>/axme/sessions/<id>/given.jsonl`, appended one line per
 * injection (parallel hooks never rewrite each other's lines). Plain synchronous fs: the
 * pre-tool-use hook reads it.
 */

/** Who gave something to the session. */
export type GivenSource = 'session-start' | 'prompt' | 'pre-edit';

/** One line of the record. */
export interface GivenLine {
  t: string;
  source: GivenSource;
  keys: string[];
}

/** The key of an item in the record: its kind and its id (a memory's slug). */
export const itemKey = (kind: string, ref: string): string => `${kind} ${ref}`;
/** The key of a file whose anchored items a pre-edit recall gave. */
export const fileKey = (path: string): string => `file ${path}`;

const SESSION_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The session's own folder (its record of what it was given). */
export function sessionFolder(commonDir: string, sessionId: string): string {
  if (!SESSION_ID_RE.test(sessionId)) throw new Error(`unusable session id ${JSON.stringify(sessionId.slice(0, 80))}`);
  return join(sessionsDir(commonDir), sessionId);
}

/** Every key the session was given so far (empty for a session with no record; a damaged line is skipped). */
export function readGiven(commonDir: string, sessionId: string): Set<string> {
  const out = new Set<string>();
  let text = '';
  try {
    text = readFileSync(join(sessionFolder(commonDir, sessionId), 'given.jsonl'), 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const l = JSON.parse(line) as Partial<GivenLine>;
      if (Array.isArray(l.keys)) for (const k of l.keys) if (typeof k === 'string') out.add(k);
    } catch {
      // a line cut short by a crash
    }
  }
  return out;
}

/** Records that `source` gave the session `keys` (nothing for none). */
export function recordGiven(commonDir: string, sessionId: string, source: GivenSource, keys: readonly string[], now: Date): void {
  if (!keys.length) return;
  const dir = sessionFolder(commonDir, sessionId);
  mkdirSync(dir, { recursive: true });
  const line: GivenLine = { t: now.toISOString(), source, keys: [...keys] };
  appendFileSync(join(dir, 'given.jsonl'), `${JSON.stringify(line)}\n`);
}
