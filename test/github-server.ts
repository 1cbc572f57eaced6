import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded request to the stand-in. */
export interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  /** the request body as sent */
  body: string;
}

export type Route = (req: IncomingMessage, body: string, hit: number) => { status: number; json?: unknown; headers?: Record<string, string>; delayMs?: number };

/**
 * A local HTTP server standing in for GitHub's REST API (the only stand-in the tests use):
 * routes by method and path, counts hits per route, records every request.
 */
export async function githubStandIn(routes: Record<string, Route>): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const key = `${req.method} ${req.url?.split('?')[0]}`;
      seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
      const n = (hits.get(key) ?? 0) + 1;
      hits.set(key, n);
      const route = routes[key];
      const r = route ? route(req, body, n) : { status: 404, json: { message: 'Not Found' } };
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(r.status, { 'content-type': 'application/json', ...(r.headers ?? {}) });
        res.end(r.json === undefined ? '' : JSON.stringify(r.json));
      };
      if (r.delayMs) setTimeout(send, r.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A pull request as GitHub returns it (the fields axme reads). */
export function pull(n: number, state: 'open' | 'closed', merged: boolean) {
  return { number: n, state, merged, merged_at: merged ? '2026-11-20T10:00:00Z' : null, html_url: `https://github.com/acme/app/pull/${n}` };
}
