import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SESSION_ID_RE } from '../model/session-id.ts';
import { sessionsDir } from './sessions.ts';

/**
 * What a session was given (issue 32): the items (`decision use-valkey-for-cache`, `memory use-valkey`) and the
 * files (`file src/db.ts`) whose knowledge was injected into it — by the session start's context,
 * a prompt's recall or a pre-edit recall — so none is injected twice. Machine-local, in the
 * session's own folder `<git-common-dir>/axme/sessions/<id>/given.jsonl`, appended one line per
 * injection (parallel hooks never rewrite each other's lines). Plain synchronous fs: the
 * pre-tool-use hook reads it.
 */

/** Who gave something to the session (`compact`: the client compacted its context, see recordCompaction). */
export type GivenSource = 'session-start' | 'prompt' | 'pre-edit' | 'compact';

/** One line of the record. */
export interface GivenLine {
  t: string;
  source: GivenSource;
  keys: string[];
  /** the model's context was compacted here: what was given before is no longer in it */
  reset?: true;
}

/** The key the record holds from a compaction until the checkpoint is given (checkpointDue). */
export const COMPACTED_KEY = 'compacted';
/** The key of the checkpoint once a context start or a prompt gave it after a compaction. */
export const CHECKPOINT_KEY = 'checkpoint';

/**
 * The key of an item in the record: its kind and its file name (slug). Never its display ID: a
 * sync may renumber an item in the middle of a session, and then another item holds the ID the
 * session was given (a record from before keyed by ID only costs a second recall).
 */
export const itemKey = (kind: string, slug: string): string => `${kind} ${slug}`;
/** The key of a file whose anchored items a pre-edit recall gave. */
export const fileKey = (path: string): string => `file ${path}`;

/** The session's own folder (its record of what it was given). */
export function sessionFolder(commonDir: string, sessionId: string): string {
  if (!SESSION_ID_RE.test(sessionId)) throw new Error(`unusable session id ${JSON.stringify(sessionId.slice(0, 80))}`);
  return join(sessionsDir(commonDir), sessionId);
}

/**
 * Every key the session was given since its context last started (empty for a session with no
 * record; a damaged line is skipped): a compaction's line starts the set over, since the client
 * kept only its own summary of what came before.
 */
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
      if (l.reset === true) out.clear();
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

/**
 * Records that the client compacts the session's context: from here on nothing given before
 * counts as given (the start, the prompts and the edits may give it again), and the checkpoint is
 * due (checkpointDue) until a context start or a prompt gives it.
 */
export function recordCompaction(commonDir: string, sessionId: string, now: Date): void {
  const dir = sessionFolder(commonDir, sessionId);
  mkdirSync(dir, { recursive: true });
  const line: GivenLine = { t: now.toISOString(), source: 'compact', keys: [COMPACTED_KEY], reset: true };
  appendFileSync(join(dir, 'given.jsonl'), `${JSON.stringify(line)}\n`);
}

/** Whether the session's context was compacted and the checkpoint was not given since (`given`: readGiven's). */
export function checkpointDue(given: ReadonlySet<string>): boolean {
  return given.has(COMPACTED_KEY) && !given.has(CHECKPOINT_KEY);
}
