import { AxmeError } from '../../model/errors.ts';
import { type NumberBounds, numberValue, PORT } from '../../model/number-value.ts';

/** What each number flag of `axme serve --http` takes (the CLI's options check the same bounds when they are parsed). */
export const HTTP_NUMBERS = {
  port: PORT,
  'sync-interval': { min: 0 },
  'max-body': { integer: true, min: 1024 },
  'rate-limit': { min: 0 },
  'idle-timeout': { min: 0.1 },
  'sessions-per-token': { integer: true, min: 1 },
} as const satisfies Record<string, NumberBounds>;

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
  const port = num('port', flags.port, 7777);
  const { host = '127.0.0.1', tokens } = flags;
  if (typeof host !== 'string' || !host) throw new AxmeError('INVALID_INPUT', '--host needs one address (e.g. 127.0.0.1)');
  if (tokens !== undefined && (typeof tokens !== 'string' || !tokens)) throw new AxmeError('INVALID_INPUT', '--tokens needs one file');
  const rate = num('rate-limit', flags.rateLimit, 20);
  return {
    host,
    port,
    tokens,
    syncIntervalS: flags.syncInterval === undefined ? undefined : num('sync-interval', flags.syncInterval, 0),
    maxBodyBytes: num('max-body', flags.maxBody, 1_048_576),
    ratePerSecond: rate,
    rateBurst: Math.max(10, rate * 5),
    idleTimeoutS: num('idle-timeout', flags.idleTimeout, 1800),
    sessionsPerToken: num('sessions-per-token', flags.sessionsPerToken, 32),
    allowedHosts: (Array.isArray(flags.allowedHost) ? flags.allowedHost : flags.allowedHost === undefined ? [] : [flags.allowedHost]).map(String),
  };
}

/** A number flag checked against its HTTP_NUMBERS bounds, or `fallback` when not given. */
function num(flag: keyof typeof HTTP_NUMBERS, value: unknown, fallback: number): number {
  return value === undefined ? fallback : numberValue(`--${flag}`, value, HTTP_NUMBERS[flag]);
}
