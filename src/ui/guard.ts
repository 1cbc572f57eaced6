import type { IncomingMessage, ServerResponse } from 'node:http';
import { LOOPBACK_HOSTS } from '../model/loopback.ts';

/**
 * What every response of the page carries: only the page's own script and style sheet may run
 * (no inline script, no other origin), nothing is sniffed, framed or sent as a referrer.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * The Host headers the server answers: the loopback names on its port, and the host it was
 * bound to. Anything else is a page on another site reaching this one through DNS rebinding
 * (its name resolving to 127.0.0.1), and is refused.
 */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set<string>(LOOPBACK_HOSTS);
  names.add(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  return new Set([...names].map((n) => `${n}:${port}`.toLowerCase()));
}

/** Writes a plain-text refusal (or error) with the security headers. */
export function plain(res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...extra });
  res.end(`${message}\n`);
}

/** The origins of the page's own forms: `http://<host>` for each Host it answers. */
export function allowedOrigins(hosts: Set<string>): Set<string> {
  return new Set([...hosts].map((h) => `http://${h}`));
}

/**
 * Refuses what the page never answers: a method other than GET or HEAD, except a POST to an
 * action (`/act/...`, the forms a person submits; actions.ts checks its origin and token)
 * (405), and a Host it was not bound to (421). True when refused.
 */
export function refuse(req: IncomingMessage, res: ServerResponse, hosts: Set<string>): boolean {
  const action = req.method === 'POST' && (req.url ?? '').startsWith('/act/');
  if (req.method !== 'GET' && req.method !== 'HEAD' && !action) {
    plain(res, 405, 'axme ui answers GET and HEAD, and POST to its own forms (/act/...) only', { Allow: 'GET, HEAD' });
    return true;
  }
  const host = (req.headers.host ?? '').toLowerCase();
  if (!hosts.has(host)) {
    plain(
      res,
      421,
      `axme ui answers only requests for ${[...hosts].join(', ')}; this one was for ${JSON.stringify(host.slice(0, 100))} (a page elsewhere reaching this server is refused)`,
    );
    return true;
  }
  return false;
}
