import { appendFileSync, mkdirSync, statSync, truncateSync, unlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { answers } from './net-daemon.ts';

/**
 * The network proxy of an allowlisted sandbox (`sandbox.network: allowlist`, docs/safety.md): it
 * runs outside the sandbox, listens on a Unix socket the sandbox can reach (a command inside has
 * its own network namespace and no other way out), and lets through only connections to the hosts
 * `sandbox.domains` names — HTTPS by CONNECT, plain HTTP by absolute URL. It decides on the name the
 * client asked for and resolves it itself: nothing inside the sandbox resolves or routes anything.
 */

/** Whether `host` (as a client names it: lower or upper case, a trailing dot, `[v6]`) is one `patterns` allow. */
export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (h === '') return false;
  return patterns.some((raw) => {
    const p = raw.toLowerCase();
    if (p.startsWith('*.')) return h.endsWith(p.slice(1)) && h.length > p.length - 1;
    return h === p;
  });
}

/** `host:port` (or `[v6]:port`) of a CONNECT request, or null when it is not one. */
export function connectTarget(target: string): { host: string; port: number } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s]+):(\d{1,5})$/.exec(target);
  if (!m) return null;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1]!, port } : null;
}

const bare = (host: string) => (host.startsWith('[') ? host.slice(1, -1) : host);

export interface NetworkProxyOptions {
  /** the Unix socket to listen on */
  socket: string;
  /** sandbox.domains */
  domains: readonly string[];
  /** a file each refused host is appended to (for `axme sandbox` and doctor), or null */
  deniedLog: string | null;
  /** stop after this long with no connection open (default: never) */
  idleMs?: number;
}

const DENIED_LOG_LIMIT = 64 * 1024;

function logDenied(file: string | null, host: string): void {
  if (!file) return;
  try {
    mkdirSync(dirname(file), { recursive: true });
    try {
      if (statSync(file).size > DENIED_LOG_LIMIT) truncateSync(file, 0);
    } catch {
      // none yet
    }
    appendFileSync(file, `${new Date().toISOString()} ${host}\n`);
  } catch {
    // a log that cannot be written changes nothing about the decision
  }
}

const refusal = (host: string) =>
  `axme's sandbox refused ${host}: it is not in sandbox.domains (a machine-local setting, docs/safety.md). Add it to sandbox.domains in .git/axme/config.yaml or ~/.config/axme/config.yaml if commands should reach it.\n`;

/**
 * Starts the proxy. Resolves with the server once it listens; a socket file left by a proxy that
 * is gone is replaced, and a socket another live proxy holds is an error with code EADDRINUSE.
 */
export async function startNetworkProxy(options: NetworkProxyOptions): Promise<Server> {
  const open = new Set<Socket>();
  let idle: NodeJS.Timeout | null = null;
  const server = createServer();
  const touch = () => {
    if (idle) clearTimeout(idle);
    idle = null;
    if (options.idleMs && open.size === 0) idle = setTimeout(() => server.close(), options.idleMs).unref();
  };
  server.on('connection', (s: Socket) => {
    open.add(s);
    touch();
    s.on('close', () => {
      open.delete(s);
      touch();
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => forward(req, res, options));
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => tunnel(req, client, head, options));
  server.on('close', () => idle && clearTimeout(idle));
  await listen(server, options.socket);
  touch();
  return server;
}

/** CONNECT host:port: a tunnel to an allowed host, a 403 for any other. */
function tunnel(req: IncomingMessage, client: Socket, head: Buffer, options: NetworkProxyOptions): void {
  client.on('error', () => client.destroy());
  const target = connectTarget(req.url ?? '');
  if (!target) return void client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  if (!hostAllowed(bare(target.host), options.domains)) {
    logDenied(options.deniedLog, target.host);
    const body = refusal(target.host);
    return void client.end(
      `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  const upstream = connect(target.port, bare(target.host));
  upstream.on('connect', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', (err) => {
    if (client.writable && !upstream.readableEnded && upstream.bytesRead === 0)
      client.end(`HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n${err.message}\n`);
    else client.destroy();
  });
  client.on('close', () => upstream.destroy());
}

const HOP_BY_HOP = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** A plain-HTTP request by absolute URL: forwarded to an allowed host, a 403 for any other. */
function forward(req: IncomingMessage, res: ServerResponse, options: NetworkProxyOptions): void {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
    if (url.protocol !== 'http:') throw new Error('not http');
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('axme sandbox proxy: send an absolute http:// URL, or CONNECT for https\n');
    return;
  }
  if (!hostAllowed(bare(url.hostname), options.domains)) {
    logDenied(options.deniedLog, url.host);
    res.writeHead(403, { 'content-type': 'text/plain' }).end(refusal(url.hostname));
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
  const up = request({ host: bare(url.hostname), port: url.port || 80, method: req.method, path: `${url.pathname}${url.search}`, headers }, (answer) => {
    const back: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) back[k] = v;
    res.writeHead(answer.statusCode ?? 502, back);
    answer.pipe(res);
  });
  up.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`${err.message}\n`);
    else res.destroy();
  });
  req.pipe(up);
}

/** Listens on `socket`, replacing a file no live proxy answers on. */
async function listen(server: Server, socket: string): Promise<void> {
  mkdirSync(dirname(socket), { recursive: true });
  const attempt = () =>
    new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => {
        server.off('listening', onListening);
        reject(err);
      };
      const onListening = () => {
        server.off('error', onError);
        resolve();
      };
      server.once('error', onError);
      server.once('listening', onListening);
      server.listen(socket);
    });
  try {
    await attempt();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || (await answers(socket))) throw err;
    try {
      unlinkSync(socket);
    } catch {
      // gone meanwhile
    }
    await attempt();
  }
}
