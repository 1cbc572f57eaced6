import { readCheckpoint } from '../session/checkpoint.ts';
import { checkpointDue, type GivenSource, readGiven, recordGiven } from '../session/given.ts';
import type { HookIO } from './io.ts';

/** What the session was given so far; empty when its record cannot be read (recall then repeats rather than fails). */
export function givenSoFar(io: HookIO, commonDir: string, sessionId: string): Set<string> {
  try {
    return readGiven(commonDir, sessionId);
  } catch (err) {
    io.stderr(`axme: could not read what this session was given (${(err as Error).message})\n`);
    return new Set();
  }
}

/** Records what `source` gave the session; a failure is said on stderr and changes no answer. */
export function rememberGiven(io: HookIO, commonDir: string, sessionId: string, source: GivenSource, keys: readonly string[]): void {
  try {
    recordGiven(commonDir, sessionId, source, keys, io.now());
  } catch (err) {
    io.stderr(`axme: could not record what this session was given (${(err as Error).message})\n`);
  }
}

/**
 * The checkpoint the session is due after a compaction (session/checkpoint.ts), or null: none
 * due, or none written (a compaction whose checkpoint failed brings the items back, not it).
 */
export function dueCheckpoint(commonDir: string, sessionId: string, given: ReadonlySet<string>): string | null {
  return checkpointDue(given) ? readCheckpoint(commonDir, sessionId) : null;
}
