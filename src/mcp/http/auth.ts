import type { IncomingMessage } from 'node:http';
import type { TokenVerifier } from '../../knowledge/admin/tokens.ts';
import { scopeAllows, type TokenScope } from '../../model/token.ts';

/**
 * Who a request of `axme serve --http` comes from, and what it may do: the bearer token (401
 * when missing or wrong), the scope a tool needs (403), and a token bucket per token (429).
 */

/** Who is calling: the token's name and scope (`null` name: an open loopback server without tokens). */
export interface Principal {
  name: string | null;
  scope: TokenScope;
}

export type AuthOutcome = { ok: true; principal: Principal } | { ok: false; status: 401; message: string };

/** Checks the `Authorization: Bearer <token>` header; without tokens configured (loopback only) everyone is admin. */
export function authenticate(req: IncomingMessage, verifier: TokenVerifier, required: boolean, now: Date): AuthOutcome {
  if (!required) return { ok: true, principal: { name: null, scope: 'admin' } };
  const header = req.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!m) return { ok: false, status: 401, message: 'this server needs a bearer token: send Authorization: Bearer <token> (axme token add <name> on the server makes one)' };
  const rec = verifier.verify(m[1]!);
  if (!rec) return { ok: false, status: 401, message: 'the bearer token is not valid here (wrong, or revoked): ask for a new one (axme token add on the server)' };
  verifier.touch(rec.name, now);
  return { ok: true, principal: { name: rec.name, scope: rec.scope } };
}

/** The `WWW-Authenticate` header of a 401. */
export function challenge(invalid: boolean): string {
  return invalid ? 'Bearer realm="axme", error="invalid_token"' : 'Bearer realm="axme"';
}

/** The scope a batch of JSON-RPC messages needs: the highest of its tool calls' (reads and everything else: `read`). */
export function scopeNeeded(body: unknown, tools: ReadonlyMap<string, TokenScope>): { scope: TokenScope; tool: string | null } {
  let need: { scope: TokenScope; tool: string | null } = { scope: 'read', tool: null };
  for (const msg of Array.isArray(body) ? body : [body]) {
    if (!msg || typeof msg !== 'object' || (msg as { method?: unknown }).method !== 'tools/call') continue;
    const name = (msg as { params?: { name?: unknown } }).params?.name;
    const scope = typeof name === 'string' ? (tools.get(name) ?? 'read') : 'read';
    if (!scopeAllows(need.scope, scope)) need = { scope, tool: name as string };
  }
  return need;
}

/** Per-token token buckets: `perSecond` refilled, `burst` at most; `take` says how long to wait when empty. */
export function rateLimiter(opts: { perSecond: number; burst: number }): { take(key: string, nowMs: number): { ok: true } | { ok: false; retryAfterS: number } } {
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
 * The Host header check against DNS rebinding: a page on evil.example resolved to 127.0.0.1 sends
 * `Host: evil.example`. `allowed` are host names (no port); null: no check (a server off loopback
 * without --allowed-host, where the tokens are the guard).
 */
export function hostAllowed(req: IncomingMessage, allowed: ReadonlySet<string> | null): boolean {
  if (!allowed) return true;
  const name = (h: string | undefined) => {
    if (!h) return null;
    try {
      return new URL(h.includes('://') ? h : `http://${h}`).hostname.toLowerCase();
    } catch {
      return null;
    }
  };
  const host = name(req.headers.host);
  if (!host || !allowed.has(host)) return false;
  // a browser's cross-site request carries its page's origin ("null" from an opaque one: refused)
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return origin !== 'null' && allowed.has(name(origin) ?? '');
}
