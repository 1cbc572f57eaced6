import { createHash, randomBytes } from 'node:crypto';
import { type LogRate, logRate } from './log-rate.ts';
import type { Refusal } from './refusal-log.ts';

/**
 * What `axme serve --http` does with an error it did not expect while answering a request
 * (docs/mcp.md, "Over HTTP, for a team"): the client is told the server failed and given an id to
 * quote, never the error's words (a path, a parser's message); the operator's log has the error's
 * stack once per distinct error, under that id, and then one line per later failure at the log's
 * rate (log-rate.ts), counting them, so that a request repeated in a loop cannot fill a disk.
 */

/** Distinct errors remembered at most: past it the oldest is forgotten (its next failure logs its stack again). */
const DISTINCT_MAX = 256;
/** The longest message a count line carries. */
const MESSAGE_CHARS = 200;

/** Where a failure happened: the request as a refusal line names it (refusal-log.ts refusalOf). */
export type FailedRequest = Pick<Refusal, 'method' | 'path' | 'remote'>;

/** Records a failure: logs it (or counts it) and returns the id the client is given. */
export type FailureLog = (err: unknown, where: FailedRequest) => string;

/**
 * The failure log over `log`. An id is `<error>-<n>`: 8 hex digits naming the distinct error (its
 * kind and where it was thrown, not its message, which may carry data of the request) and the
 * count of its failures; the operator finds the stack by the id's first part.
 */
export function failureLog(opts: { log(line: string): void; now(): number; rate?: LogRate }): FailureLog {
  const rate = opts.rate ?? logRate(opts);
  // this server's run: an id quoted from another run's log does not name this one's error
  const salt = randomBytes(4).toString('hex');
  const seen = new Map<string, { id: string; count: number; stackAt: string | null }>();
  return (caught, where) => {
    const err = caught instanceof Error ? caught : new Error(String(caught));
    const key = fingerprint(err);
    let entry = seen.get(key);
    if (!entry) {
      if (seen.size >= DISTINCT_MAX) seen.delete(seen.keys().next().value as string);
      entry = { id: createHash('sha256').update(salt).update(key).digest('hex').slice(0, 8), count: 0, stackAt: null };
      seen.set(key, entry);
    }
    entry.count++;
    const id = `${entry.id}-${entry.count}`;
    const dropped = rate.take();
    if (dropped === null) return id;
    const more = dropped ? ` (${dropped} more failures before this one, not logged: too many)` : '';
    const at = `${new Date(opts.now()).toISOString()} ${where.method} ${where.path} from ${where.remote}`;
    if (entry.stackAt === null) {
      // the stack once (a failure whose line was left out logs it at its next one)
      entry.stackAt = id;
      opts.log(`internal error ${id} ${at}: the client was answered 500 with this id${more}\n${err.stack ?? `${err.name}: ${err.message}`}`);
    } else {
      const message = firstLine(err.message);
      opts.log(
        `internal error ${id} ${at}: ${err.name}: ${message} (the same error as ${entry.stackAt}, whose stack is logged; ${entry.count} failures of it)${more}`,
      );
    }
    return id;
  };
}

/** What makes two errors the same one: their kind and where they were thrown (the first frames of the stack), not the message. */
function fingerprint(err: Error): string {
  const frames = (err.stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at /.test(l))
    .slice(0, 5)
    .map((l) => l.trim());
  return `${err.name}\n${frames.length ? frames.join('\n') : err.message}`;
}

function firstLine(s: string): string {
  const line = s.split('\n', 1)[0] ?? '';
  return line.length > MESSAGE_CHARS ? `${line.slice(0, MESSAGE_CHARS)}…` : line;
}

/** The JSON-RPC error a client gets for a failure: what happened in general, and the id to quote. */
export function internalErrorReply(id: string): { code: number; message: string; data: { id: string } } {
  return {
    code: -32603,
    message: `Internal error: the server failed while answering this request (a fault of the server, not of the request). Tell the server's operator, quoting the id ${id}: its log has the details`,
    data: { id },
  };
}
