import { AxmeError } from '../../model/errors.ts';

/** The `axme serve --http` flags as given on the command line (undefined: not given; others are ignored). */
export interface HttpFlags {
  [flag: string]: unknown;
  port?: unknown;
  host?: unknown;
  tokens?: unknown;
  syncInterval?: unknown;
  maxBody?: unknown;
  rateLimit?: unknown;
  idleTimeout?: unknown;
  sessionsPerToken?: unknown;
  allowedHost?: unknown;
}

/** The server policy of `axme serve --http` (docs/mcp.md, "Over HTTP, for a team"). */
export interface HttpSettings {
  host: string;
  /** 0 picks a free port */
  port: number;
  /** the tokens file (default: the repository's machine-local state) */
  tokens?: string | undefined;
  /** seconds between syncs with the remote; 0: none (default: 60 on a bare repository, else 0) */
  syncIntervalS?: number | undefined;
  /** request body limit, bytes */
  maxBodyBytes: number;
  /** requests per second per token (0: no limit); the bucket holds `rateBurst` */
  ratePerSecond: number;
  rateBurst: number;
  /** a session idle this long is closed and forgotten */
  idleTimeoutS: number;
  /** sessions one token may hold; a new one beyond closes that token's least recently used idle one */
  sessionsPerToken: number;
  /** more host names the Host header may carry (behind a proxy) */
  allowedHosts: string[];
}

/**
 * The settings from the flags: each flag checked (INVALID_INPUT names the flag and what it takes),
 * the defaults filled in: 127.0.0.1:7777, a 1 MB body, 20 requests/s per token in bursts of
 * max(10, 5x), sessions closed after 1800 s idle, 32 sessions per token.
 */
export function httpOptions(flags: HttpFlags): HttpSettings {
  const port = num('port', flags.port, 7777, 0);
  if (!Number.isInteger(port) || port > 65535) throw new AxmeError('INVALID_INPUT', '--port must be a whole number from 0 to 65535');
  const { host = '127.0.0.1', tokens } = flags;
  if (typeof host !== 'string' || !host) throw new AxmeError('INVALID_INPUT', '--host needs one address (e.g. 127.0.0.1)');
  if (tokens !== undefined && typeof tokens !== 'string') throw new AxmeError('INVALID_INPUT', '--tokens needs one file');
  const rate = num('rate-limit', flags.rateLimit, 20, 0);
  return {
    host,
    port,
    tokens,
    syncIntervalS: flags.syncInterval === undefined ? undefined : num('sync-interval', flags.syncInterval, 0, 0),
    maxBodyBytes: num('max-body', flags.maxBody, 1_048_576, 1024),
    ratePerSecond: rate,
    rateBurst: Math.max(10, rate * 5),
    idleTimeoutS: num('idle-timeout', flags.idleTimeout, 1800, 0.1),
    sessionsPerToken: whole('sessions-per-token', flags.sessionsPerToken, 32, 1),
    allowedHosts: (Array.isArray(flags.allowedHost) ? flags.allowedHost : flags.allowedHost === undefined ? [] : [flags.allowedHost]).map(String),
  };
}

/** A number flag of at least `min`, or `fallback` when not given. */
function num(flag: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min)
    throw new AxmeError('INVALID_INPUT', `--${flag} must be a number of at least ${min}`);
  return value;
}

/** A whole-number flag of at least `min`, or `fallback` when not given. */
function whole(flag: string, value: unknown, fallback: number, min: number): number {
  const n = num(flag, value, fallback, min);
  if (!Number.isInteger(n)) throw new AxmeError('INVALID_INPUT', `--${flag} must be a whole number of at least ${min}`);
  return n;
}
