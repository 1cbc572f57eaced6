import type { IncomingMessage } from 'node:http';
import type { TokenVerifier } from '../../knowledge/admin/tokens.ts';
import { AxmeError } from '../../model/errors.ts';
import { isLoopback } from '../../model/loopback.ts';
import { scopeAllows, type TokenScope } from '../../model/token.ts';

/**
 * Who a request of `axme serve --http` comes from, and what it may do: the bearer token (401
 * when missing or wrong, or when none is left), the scope a tool needs (403), and a token bucket
 * per token (429).
 */

/**
 * Who is calling: the token's identity (its stored hash: a token added again under a revoked one's
 * name is another token), name and scope (`null` id and name: an open loopback server without tokens).
 */
export interface Principal {
  id: string | null;
  name: string | null;
  scope: TokenScope;
}

export type AuthOutcome = { ok: true; principal: Principal } | { ok: false; status: 401; message: string };

/** What a server checks callers with: fixed at its start, only ever tightened while it runs. */
export interface Gate {
  /** whether the server is open (no tokens, loopback only): said in the start line */
  open(): boolean;
  /** the caller of `req`, or 401 */
  authenticate(req: IncomingMessage, now: Date): AuthOutcome;
  /** rereads the tokens and logs a change of mode (a token added to an open server, the last one revoked) */
  watch(): void;
}

/** The remedy every refusal for want of a token names. */
const ADD_TOKEN = 'axme token add <name> --scope write';

/**
 * The authentication mode of a server on `host` reachable as `allowedHosts`: open to anonymous
 * callers (as admin) only on loopback with no token and no --allowed-host; with tokens or off
 * loopback, a valid bearer token always. Starting open anywhere a proxy or the network reaches is
 * refused (CONFIG, exit 2). Once tokens are required they stay required: revoking the last one
 * refuses everyone (401, logged), a token added to an open server closes it for good.
 */
export function authGate(opts: { verifier: TokenVerifier; host: string; allowedHosts: readonly string[]; log(message: string): void }): Gate {
  const { verifier, log } = opts;
  let required = verifier.configured();
  if (!required && !isLoopback(opts.host)) {
    throw new AxmeError(
      'CONFIG',
      `refusing to listen on ${opts.host} without a token: anyone who reaches it could read and write the knowledge. Add one first (${ADD_TOKEN}), or bind to 127.0.0.1`,
      { host: opts.host },
    );
  }
  if (!required && opts.allowedHosts.length) {
    const names = opts.allowedHosts.join(', ');
    throw new AxmeError(
      'CONFIG',
      `refusing to serve --allowed-host ${names} without a token: a proxy passes on the requests of whoever reaches it, so anyone could read and write the knowledge. Add one first (${ADD_TOKEN}), or leave --allowed-host out to serve this machine only`,
      { allowedHosts: opts.allowedHosts },
    );
  }
  let empty = false;
  const watch = (): boolean => {
    const any = verifier.configured();
    if (!required) {
      if (!any) return false;
      required = true;
      log('a token was added: every request needs one from now on (until the server stops, even if tokens are revoked)');
    }
    if (!any && !empty)
      log(`no token left (the last one was revoked): every request is refused (401) until one is added: ${ADD_TOKEN} (this server rereads the tokens file)`);
    empty = !any;
    return true;
  };
  return {
    open: () => !required,
    watch: () => void watch(),
    authenticate(req, now) {
      if (!watch()) return { ok: true, principal: { id: null, name: null, scope: 'admin' } };
      if (empty)
        return {
          ok: false,
          status: 401,
          message: 'this server has no valid token (every one was revoked): ask its operator for a new one (axme token add on the server)',
        };
      const header = req.headers.authorization;
      const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (!m)
        return {
          ok: false,
          status: 401,
          message: 'this server needs a bearer token: send Authorization: Bearer <token> (axme token add <name> on the server makes one)',
        };
      const rec = verifier.verify(m[1]!);
      if (!rec)
        return { ok: false, status: 401, message: 'the bearer token is not valid here (wrong, or revoked): ask for a new one (axme token add on the server)' };
      verifier.touch(rec.hash, now);
      return { ok: true, principal: { id: rec.hash, name: rec.name, scope: rec.scope } };
    },
  };
}

/** The `WWW-Authenticate` header of a 401. */
export function challenge(invalid: boolean): string {
  return invalid ? 'Bearer realm="axme", error="invalid_token"' : 'Bearer realm="axme"';
}

/** The scope a JSON-RPC message needs: its tool's for a tool call, else `read` (batches are refused before). */
export function scopeNeeded(msg: unknown, tools: ReadonlyMap<string, TokenScope>): { scope: TokenScope; tool: string | null } {
  if (!msg || typeof msg !== 'object' || (msg as { method?: unknown }).method !== 'tools/call') return { scope: 'read', tool: null };
  const name = (msg as { params?: { name?: unknown } }).params?.name;
  // a name that is no tool's is refused by the SDK whatever the scope
  return typeof name === 'string' ? { scope: tools.get(name) ?? 'read', tool: name } : { scope: 'read', tool: null };
}

/**
 * The words of a call refused for its token's scope: the tool was not run, what it needs, and who
 * can give a token that may (the server's operator) — the model reads it and tells the user.
 */
export function scopeRefusal(who: Principal, need: { scope: TokenScope; tool: string | null }): string {
  return (
    `not allowed: token ${who.name} has scope ${who.scope}, and ${need.tool} needs ${need.scope}: the call was not run, nothing was saved. ` +
    `Tell the user: this client's token for the team server may only ${who.scope}; whoever runs the server makes one of scope ${need.scope} ` +
    `(axme token add <name> --scope ${need.scope}) to put in the variable the client's MCP entry reads the token from.`
  );
}

/** Per-token token buckets: `perSecond` refilled, `burst` at most; `take` says how long to wait when empty. */
export function rateLimiter(opts: { perSecond: number; burst: number }): {
  take(key: string, nowMs: number): { ok: true } | { ok: false; retryAfterS: number };
} {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key, nowMs) {
      if (opts.perSecond <= 0) return { ok: true };
      const b = buckets.get(key) ?? { tokens: opts.burst, at: nowMs };
      b.tokens = Math.min(opts.burst, b.tokens + ((nowMs - b.at) / 1000) * opts.perSecond);
      b.at = nowMs;
      buckets.set(key, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - b.tokens) / opts.perSecond)) };
    },
  };
}

/**
 * The Host and Origin check against DNS rebinding: a page on evil.example resolved to 127.0.0.1
 * sends `Host: evil.example`, a browser's cross-site request its page's `Origin`. `allowed` are
 * host names (no port); null: no check (a server off loopback without --allowed-host, where the
 * tokens are the guard). The header refused and its value, or null when both are allowed.
 */
export function refusedHost(req: IncomingMessage, allowed: ReadonlySet<string> | null): { header: 'Host' | 'Origin'; value: string } | null {
  if (!allowed) return null;
  const name = (h: string | undefined) => {
    if (!h) return null;
    try {
      return new URL(h.includes('://') ? h : `http://${h}`).hostname.toLowerCase();
    } catch {
      return null;
    }
  };
  const host = name(req.headers.host);
  if (!host || !allowed.has(host)) return { header: 'Host', value: req.headers.host ?? '' };
  // "null" from an opaque origin: refused
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  return origin !== 'null' && allowed.has(name(origin) ?? '') ? null : { header: 'Origin', value: origin };
}
