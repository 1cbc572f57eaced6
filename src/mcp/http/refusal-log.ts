import type { IncomingMessage } from 'node:http';
import { LOG_BURST, LOG_PER_SECOND, logRate } from './log-rate.ts';

/** Lines the log writes in a burst, then one a second: a flood of refused requests cannot fill a disk. */
export const REFUSAL_LOG_BURST = LOG_BURST;
export const REFUSAL_LOG_PER_SECOND = LOG_PER_SECOND;

/** The longest path a line carries (a longer one is cut, with "…"). */
const PATH_CHARS = 200;

/** What a refusal line says of a request: never its query (it may carry a token) nor a header's value. */
export interface Refusal {
  method: string;
  path: string;
  remote: string;
  status: number;
  reason: string;
}

/** The request's method, path without its query, and the address it came from, as a line may print them. */
export function refusalOf(req: IncomingMessage, status: number, reason: string): Refusal {
  const target = req.url ?? '/';
  const cut = target.search(/[?#]/);
  const path = printable(cut < 0 ? target : target.slice(0, cut));
  return {
    method: printable(req.method ?? '?').slice(0, 16),
    path: path.length > PATH_CHARS ? `${path.slice(0, PATH_CHARS)}…` : path,
    remote: req.socket.remoteAddress ?? '?',
    status,
    reason,
  };
}

/** Control characters and spaces shown as escapes: a request cannot write a line of its own into the log. */
function printable(s: string): string {
  return s.replace(/[\u0000-\u0020\u007f-\u009f\u2028\u2029]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * The log of refused requests of `axme serve --http`: one line each on the server's log (stderr),
 * `refused <time> <method> <path> from <address>: <status> <reason>`, written at most
 * REFUSAL_LOG_BURST in a burst and REFUSAL_LOG_PER_SECOND after (log-rate.ts); the lines left out
 * are counted and said on the next line written.
 */
export function refusalLog(opts: { log(line: string): void; now(): number; burst?: number; perSecond?: number }): (r: Refusal) => void {
  const rate = logRate(opts);
  return (r) => {
    const dropped = rate.take();
    if (dropped === null) return;
    const more = dropped ? ` (${dropped} more refused before this one, not logged: too many)` : '';
    opts.log(`refused ${new Date(opts.now()).toISOString()} ${r.method} ${r.path} from ${r.remote}: ${r.status} ${r.reason}${more}`);
  };
}
