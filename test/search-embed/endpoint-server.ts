import { EventEmitter, once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * What the stand-in endpoint does with one request: `ok` answers the vectors, `hold` keeps the
 * answer until `release()`, `close` drops the connection without an answer (a keep-alive socket
 * the server closed), a number answers that status (with `headers`), `short` answers one vector
 * too few, `strings` vectors of strings, `text` a body that is not JSON.
 */
export type Behaviour = 'ok' | 'hold' | 'close' | 'short' | 'strings' | 'text' | { status: number; headers?: Record<string, string> };

/** One request as the server saw it. */
export interface Seen {
  texts: string[];
  /** set once the client dropped the request before its answer (a timeout, a knowledge base closed) */
  aborted: boolean;
}

/** Three dimensions: money, sign-in, and a little of everything, by the words of each text. */
export const vectorOf = (t: string): number[] => {
  const w = t.toLowerCase();
  return [/money|invoice|pay|stripe|billing/.test(w) ? 1 : 0, /login|sign|password|session/.test(w) ? 1 : 0, 0.1];
};

/**
 * A real OpenAI-compatible embeddings server on 127.0.0.1, its behaviour chosen per request by
 * `behave(n, texts)` (n counts from 0). Driven by events: `nextRequest()` resolves at the next
 * request's arrival, `release()` answers every held one, `aborted()` at a held request dropped by
 * the client. Nothing waits on the clock.
 */
export async function endpointServer(behave: (n: number, texts: string[]) => Behaviour) {
  const seen: Seen[] = [];
  const held: Array<() => void> = [];
  const events = new EventEmitter();
  const answer = (res: ServerResponse, texts: string[]) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data: texts.map((t, index) => ({ object: 'embedding', index, embedding: vectorOf(t) })) }));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { input } = JSON.parse(body) as { input: string[] };
      const n = seen.length;
      const s: Seen = { texts: input, aborted: false };
      seen.push(s);
      res.on('close', () => {
        if (!res.writableFinished) {
          s.aborted = true;
          events.emit('aborted', s);
        }
      });
      const b = behave(n, input);
      events.emit('request', s);
      if (b === 'ok') answer(res, input);
      else if (b === 'hold') held.push(() => answer(res, input));
      else if (b === 'close') req.socket.destroy();
      else if (b === 'short') answer(res, input.slice(1));
      else if (b === 'strings')
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: input.map((_, index) => ({ index, embedding: ['a', 'b', 'c'] })) }));
      else if (b === 'text') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>gateway</html>');
      else res.writeHead(b.status, b.headers ?? {}).end(JSON.stringify({ error: { message: `status ${b.status}` } }));
    });
  });
  // keep-alive as real servers do: the client reuses the connection, which 'close' then drops
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/embeddings`,
    seen,
    /** the number of texts each request carried, in order */
    sizes: () => seen.map((s) => s.texts.length),
    /** resolves once request `n` (from 0) has arrived */
    arrived: (n: number) =>
      new Promise<Seen>((resolve) => {
        if (seen.length > n) return resolve(seen[n]!);
        const on = () => {
          if (seen.length > n) {
            events.off('request', on);
            resolve(seen[n]!);
          }
        };
        events.on('request', on);
      }),
    aborted: () => once(events, 'aborted').then(([s]) => s as Seen),
    release: () => {
      for (const r of held.splice(0)) r();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of held.splice(0)) r();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `search.embeddings` in this clone's machine-local settings (.git/axme/config.yaml), as a person writes it. */
export function configureEndpoint(commonDir: string, url: string, extra: { batch?: number; timeout_ms?: number; query_timeout_ms?: number } = {}): void {
  mkdirSync(join(commonDir, 'axme'), { recursive: true });
  const lines = Object.entries(extra).map(([k, v]) => `    ${k}: ${v}\n`);
  writeFileSync(join(commonDir, 'axme', 'config.yaml'), `search:\n  embeddings:\n    url: ${url}\n    model: stand-in\n${lines.join('')}`);
}
