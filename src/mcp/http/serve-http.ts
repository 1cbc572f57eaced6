import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { tokensPath, tokenVerifier } from '../../knowledge/admin/tokens.ts';
import { AxmeError } from '../../model/errors.ts';
import { scopeAllows, type TokenScope } from '../../model/token.ts';
import { createServer, registerAll } from '../server.ts';
import { isLoopback, LOOPBACK_HOSTS } from '../../model/loopback.ts';
import type { HttpSettings } from './http-options.ts';
import { authenticate, challenge, hostAllowed, rateLimiter, scopeNeeded, type Principal } from './auth.ts';
import { sessionContext, sharedStore, type HttpSessionContext, type SharedStore } from './session-context.ts';
import { syncLoop } from './sync-loop.ts';

/** What `axme serve --http` is started with: the settings (http-options.ts), the repository and where it reports. */
export interface HttpServeOptions extends HttpSettings {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** told the URL once listening (the CLI prints it on stdout) */
  onListening(url: string): void;
  log(message: string): void;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  ctx: HttpSessionContext;
  principal: Principal;
  lastSeen: number;
}

/** Sessions at most: a new one beyond is refused (503) until idle ones expire. */
const MAX_SESSIONS = 1024;
/** How long a stopping server waits for the requests in flight. */
const DRAIN_MS = 15_000;

/**
 * `axme serve --http`: the tools and resources of `axme serve` over MCP Streamable HTTP, one MCP
 * server per session over one shared knowledge base, behind bearer tokens. Resolves once the
 * server stopped (SIGINT/SIGTERM: in-flight requests finished, sessions ended, a last sync).
 */
export async function serveHttp(opts: HttpServeOptions): Promise<void> {
  const verifier = tokenVerifier(tokensPath({ cwd: opts.cwd, env: opts.env, file: opts.tokens }));
  const loopback = isLoopback(opts.host);
  if (!loopback && !verifier.configured()) {
    throw new AxmeError('CONFIG', `refusing to listen on ${opts.host} without a token: anyone who reaches it could read and write the knowledge. Add one first (axme token add <name> --scope write), or bind to 127.0.0.1`, { host: opts.host });
  }
  const shared = sharedStore({ cwd: opts.cwd, env: opts.env, log: opts.log });
  const tools = toolScopes(shared);
  const allowed = loopback || opts.allowedHosts.length ? new Set([...LOOPBACK_HOSTS, opts.host.toLowerCase(), ...opts.allowedHosts.map((h) => h.toLowerCase())]) : null;
  const limiter = rateLimiter({ perSecond: opts.ratePerSecond, burst: opts.rateBurst });
  const sessions = new Map<string, Session>();
  const bare = await shared.kb().then((kb) => kb.repo.bare, () => false);
  const sync = syncLoop({ kb: () => shared.kb(), env: opts.env, intervalS: opts.syncIntervalS ?? (bare ? 60 : 0), log: opts.log });
  let inFlight = 0;
  let stopping = false;
  let drained: (() => void) | null = null;

  const closeSession = async (id: string, reason: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    s.ctx.end(reason);
    await s.transport.close().catch(() => {});
    await s.server.close().catch(() => {});
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (stopping) return send(res, 503, { 'Retry-After': '5', Connection: 'close' }, rpcError(-32000, 'the server is stopping: connect again in a moment'));
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/mcp') return send(res, 404, {}, rpcError(-32000, 'not found: the MCP endpoint is /mcp'));
    if (!hostAllowed(req, allowed)) return send(res, 403, {}, rpcError(-32000, `Host ${JSON.stringify(req.headers.host ?? '')} is not allowed (DNS rebinding protection): use the address the server printed, or start it with --allowed-host`));
    const auth = authenticate(req, verifier, !loopback || verifier.configured(), new Date());
    if (!auth.ok) return send(res, 401, { 'WWW-Authenticate': challenge(req.headers.authorization !== undefined) }, rpcError(-32001, auth.message));
    const who = auth.principal;
    const rate = limiter.take(who.name ?? '', Date.now());
    if (!rate.ok) return send(res, 429, { 'Retry-After': String(rate.retryAfterS) }, rpcError(-32000, `too many requests for token ${who.name ?? '(none)'}: wait ${rate.retryAfterS} s`));
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readBody(req, opts.maxBodyBytes);
      if (read.tooLarge) return send(res, 413, { Connection: 'close' }, rpcError(-32600, `the request body is over the ${opts.maxBodyBytes}-byte limit: send less in one message`), () => req.destroy());
      try {
        body = JSON.parse(read.text);
      } catch {
        return send(res, 400, {}, rpcError(-32700, 'Parse error: the body is not JSON'));
      }
      const need = scopeNeeded(body, tools);
      if (!scopeAllows(who.scope, need.scope)) return send(res, 403, {}, rpcError(-32003, `token ${who.name} has scope ${who.scope}: ${need.tool} needs ${need.scope} (axme token add <name> --scope ${need.scope})`));
      if (need.scope !== 'read') res.once('finish', () => res.statusCode < 300 && sync.kick());
    }
    const id = header(req, 'mcp-session-id');
    let session = id ? sessions.get(id) : undefined;
    // a session is its token's: another token gets the same answer as an unknown session
    if (id && (!session || session.principal.name !== who.name)) return send(res, 404, {}, rpcError(-32001, 'Session not found: initialize a new one'));
    if (!session) {
      if (req.method !== 'POST' || !isInitialize(body)) return send(res, 400, {}, rpcError(-32000, 'Bad Request: no Mcp-Session-Id; start with initialize'));
      if (sessions.size >= MAX_SESSIONS) return send(res, 503, { 'Retry-After': '30' }, rpcError(-32000, `the server holds ${MAX_SESSIONS} sessions: try again later`));
      session = openSession(who);
    }
    session.lastSeen = Date.now();
    await session.transport.handleRequest(req, res, body);
  };

  const openSession = (principal: Principal): Session => {
    let sid: string | undefined;
    const ctx = sessionContext(shared, () => sid, principal);
    const server = createServer(ctx);
    server.server.onerror = (err) => opts.log(`protocol error: ${err.message}`);
    const s: Session = { server, ctx, principal, lastSeen: Date.now(), transport: null as unknown as StreamableHTTPServerTransport };
    s.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (newId) => {
        sid = newId;
        sessions.set(newId, s);
      },
      onsessionclosed: (closedId) => void closeSession(closedId, 'mcp-http-delete'),
    });
    void server.connect(s.transport);
    return s;
  };

  const http = createHttpServer((req, res) => {
    const counted = req.method === 'POST';
    if (counted) inFlight++;
    if (counted) {
      res.once('close', () => {
        inFlight--;
        if (inFlight === 0) drained?.();
      });
    }
    handle(req, res).catch((err: Error) => {
      opts.log(`internal error: ${err.stack ?? err.message}`);
      if (!res.headersSent) send(res, 500, {}, rpcError(-32603, `internal error: ${err.message}`));
      else res.end();
    });
  });
  // a slow client holds its own socket, never the server: bounded headers and bodies
  http.headersTimeout = 10_000;
  http.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port, opts.host, () => resolve());
  });
  const addr = http.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  opts.onListening(`http://${host}:${addr.port}/mcp`);
  opts.log(`serving ${shared.cwd} over HTTP on ${host}:${addr.port}${verifier.configured() ? '' : ' (no tokens: open to this machine only)'}`);

  const sweep = setInterval(() => {
    const cutoff = Date.now() - opts.idleTimeoutS * 1000;
    for (const [id, s] of sessions) {
      if (s.lastSeen >= cutoff) continue;
      // said before the session goes: a client refused with 404 from now on finds the reason logged
      opts.log(`session ${id} closed after ${opts.idleTimeoutS} s idle`);
      void closeSession(id, 'mcp-http-idle');
    }
    try {
      verifier.flush();
    } catch (err) {
      opts.log(`could not record token use: ${(err as Error).message}`);
    }
  }, Math.max(250, Math.min(opts.idleTimeoutS * 250, 30_000)));
  sweep.unref();

  const why = await new Promise<string>((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve(sig));
  });
  stopping = true;
  opts.log(`stopping (${why}${inFlight ? `; finishing ${inFlight} request${inFlight === 1 ? '' : 's'} in flight` : ''})`);
  clearInterval(sweep);
  http.close();
  if (inFlight > 0) {
    await Promise.race([new Promise<void>((resolve) => (drained = resolve)), new Promise<void>((resolve) => setTimeout(resolve, DRAIN_MS).unref())]);
  }
  for (const id of [...sessions.keys()]) await closeSession(id, 'mcp-shutdown');
  http.closeAllConnections();
  await sync.stop(true);
  try {
    verifier.flush();
  } catch {
    // the file went away: nothing to record
  }
  await shared.close();
}

/** Each tool's scope, from its declaration: read-only tools need `read`, every other one `write`. */
function toolScopes(shared: SharedStore): Map<string, TokenScope> {
  const scopes = new Map<string, TokenScope>();
  const recorder = {
    registerTool: (name: string, config: { annotations?: { readOnlyHint?: boolean } }) => void scopes.set(name, config.annotations?.readOnlyHint === true ? 'read' : 'write'),
    registerResource: () => undefined,
  };
  registerAll(recorder as never, sessionContext(shared, () => undefined, { name: null, scope: 'read' }));
  return scopes;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function isInitialize(body: unknown): boolean {
  const list = Array.isArray(body) ? body : [body];
  return list.some((m) => !!m && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize');
}

function rpcError(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string, after?: () => void): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(body, after);
}

/** The body as text, or `tooLarge` as soon as it passes `max` bytes (the rest is not read). */
function readBody(req: IncomingMessage, max: number): Promise<{ text: string; tooLarge: boolean }> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ text: '', tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > max) {
        req.off('data', onData);
        req.pause();
        resolve({ text: '', tooLarge: true });
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.once('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: false }));
    req.once('error', reject);
  });
}
