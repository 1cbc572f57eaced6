import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve as resolvePath } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { TokensFileError, tokensPath, tokenVerifier } from '../../knowledge/admin/tokens.ts';
import { withDeadline } from '../../model/deadline.ts';
import { listen } from '../../model/listen.ts';
import { isLoopback, LOOPBACK_HOSTS } from '../../model/loopback.ts';
import { scopeAllows, TOKEN_SCOPE_HEADER, type TokenScope } from '../../model/token.ts';
import { recoverOrphans } from '../recover-orphans.ts';
import { INVALID_REQUEST, NO_BATCHES } from '../request-check.ts';
import { createServer, registerAll } from '../server.ts';
import { authGate, challenge, type Principal, rateLimiter, refusedHost, scopeNeeded, scopeRefusal } from './auth.ts';
import { failureLog, internalErrorReply } from './failure-log.ts';
import type { HttpSettings } from './http-options.ts';
import { refusalLog, refusalOf } from './refusal-log.ts';
import { type HttpSessionContext, type SharedStore, sessionContext, sharedStore } from './session-context.ts';
import { type HeldSession, sessionTable } from './sessions.ts';
import { syncLoop } from './sync-loop.ts';

/** What `axme serve --http` is started with: the settings (http-options.ts), the repository and where it reports. */
export interface HttpServeOptions extends HttpSettings {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** told the URL once listening (the CLI prints it on stdout) */
  onListening(url: string): void;
  log(message: string): void;
}

interface Session extends HeldSession {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  ctx: HttpSessionContext;
  principal: Principal;
}

/** Sessions at most: a new one beyond is refused (503) until idle ones expire. */
const MAX_SESSIONS = 1024;
/** How long a stopping server waits for the requests in flight. */
const DRAIN_MS = 15_000;
/** How long an idle kept-alive connection stays open (announced to the client as Keep-Alive: timeout=60). */
const KEEP_ALIVE_MS = 60_000;
/** What a client is told while the tokens file cannot be used: what to do, never the file's path or what the parser said (those are in the log). */
const TOKENS_UNUSABLE =
  "this server cannot check tokens: its tokens file is damaged or unreadable, and every request is refused until it is fixed. Tell the server's operator (its log says which file and what is wrong)";
/** How long a stopping server spends on recovery. */
const SHUTDOWN_SWEEP_MS = 5_000;

/**
 * `axme serve --http`: the tools and resources of `axme serve` over MCP Streamable HTTP, one MCP
 * server per session over one shared knowledge base, behind bearer tokens. Resolves once the
 * server stopped (SIGINT/SIGTERM: in-flight requests finished, sessions ended, a last sync).
 */
export async function serveHttp(opts: HttpServeOptions): Promise<void> {
  // a tokens file named that is not there yet is allowed (the first token may come once the server runs:
  // it rereads the file), never silently: a mistyped path would otherwise leave the server open
  if (opts.tokens !== undefined && !existsSync(resolvePath(opts.cwd, opts.tokens)))
    opts.log(
      `the tokens file ${resolvePath(opts.cwd, opts.tokens)} (--tokens) does not exist: until \`axme token add <name> --scope write --tokens ${opts.tokens}\` makes it, this server is open to this machine only; check the path if you meant an existing file`,
    );
  const verifier = tokenVerifier(tokensPath({ cwd: opts.cwd, env: opts.env, file: opts.tokens }));
  const gate = authGate({ verifier, host: opts.host, allowedHosts: opts.allowedHosts, log: opts.log });
  const shared = sharedStore({ cwd: opts.cwd, env: opts.env, log: opts.log });
  const tools = toolScopes(shared);
  const allowed =
    isLoopback(opts.host) || opts.allowedHosts.length
      ? new Set([...LOOPBACK_HOSTS, opts.host.toLowerCase(), ...opts.allowedHosts.map((h) => h.toLowerCase())])
      : null;
  const limiter = rateLimiter({ perSecond: opts.ratePerSecond, burst: opts.rateBurst });
  const sessions = sessionTable<Session>({ max: MAX_SESSIONS, perToken: opts.sessionsPerToken });
  const bare = await shared.kb().then(
    async (kb) => {
      if (!(await kb.repo.backend.resolveRef(kb.ref)))
        opts.log(
          `no axme knowledge in ${shared.cwd} yet (${kb.ref}): every tool call is refused until \`axme init\` runs in it (or \`axme sync\` takes the team's from its remote)`,
        );
      return kb.repo.bare;
    },
    () => false,
  );
  const sync = syncLoop({ kb: () => shared.kb(), env: opts.env, intervalS: opts.syncIntervalS ?? (bare ? 60 : 0), log: opts.log });
  let inFlight = 0;
  let stopping = false;
  let drained: (() => void) | null = null;
  // listened for before the URL is printed: a signal right after it stops the server cleanly
  const stopSignal = new Promise<string>((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve(sig));
  });

  // recoveries one after another (docs/sessions.md): at the start, when a session ends, at the stop
  const recovery = { kb: () => shared.kb(), log: opts.log };
  let recovering = recoverOrphans(recovery, 'start');
  const recover = (when: string) => (recovering = recovering.then(() => recoverOrphans(recovery, when)));
  const closeSession = async (s: Session, reason: string) => {
    if (!sessions.remove(s)) return;
    s.ctx.end(reason);
    await s.transport.close().catch(() => {});
    await s.server.close().catch(() => {});
    // at a stop, one recovery after every session ended
    if (!stopping) void recover('end');
  };
  // a revoke ends the revoked token's sessions, once the file is reread (at a request or the sweep)
  let heldHashes = verifier.hashes();
  const endRevoked = () => {
    const now = verifier.hashes();
    if (now === heldHashes) return;
    heldHashes = now;
    for (const s of sessions.all()) {
      if (s.principal.id === null || now.has(s.principal.id)) continue;
      opts.log(`session ${s.id} of ${label(s.principal)} closed: the token was revoked`);
      void closeSession(s, 'mcp-http-revoked');
    }
  };
  const label = (p: Principal) => (p.name === null ? "the open server's callers" : `token ${p.name}`);

  const logRefusal = refusalLog({ log: opts.log, now: () => Date.now() });
  const logFailure = failureLog({ log: opts.log, now: () => Date.now() });
  /** Answers a request the server refuses, and logs it (refusal-log.ts): its status, the JSON-RPC error, and why. */
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    code: number,
    message: string,
    after?: () => void,
  ) => {
    logRefusal(refusalOf(req, status, message));
    send(res, status, headers, rpcError(code, message), after);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (stopping) return refuse(req, res, 503, { 'Retry-After': '5', Connection: 'close' }, -32000, 'the server is stopping: connect again in a moment');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/mcp') return refuse(req, res, 404, {}, -32000, 'not found: the MCP endpoint is /mcp');
    const foreign = refusedHost(req, allowed);
    if (foreign)
      return refuse(
        req,
        res,
        403,
        {},
        -32000,
        `${foreign.header} ${JSON.stringify(foreign.value.slice(0, 100))} is not allowed (DNS rebinding protection): use the address the server printed, or start it with --allowed-host`,
      );
    let auth: ReturnType<typeof gate.authenticate>;
    try {
      auth = gate.authenticate(req, new Date());
    } catch (err) {
      // fails closed: no one is let in while the tokens cannot be read; the operator reads why in the log (throttled)
      if (!(err instanceof TokensFileError)) throw err;
      logRefusal(refusalOf(req, 503, err.message));
      return send(res, 503, { 'Retry-After': '30' }, rpcError(-32000, TOKENS_UNUSABLE));
    }
    if (!auth.ok) return refuse(req, res, 401, { 'WWW-Authenticate': challenge(req.headers.authorization !== undefined) }, -32001, auth.message);
    const who = auth.principal;
    endRevoked();
    // the caller learns what its token may do (axme doctor reports it)
    res.setHeader(TOKEN_SCOPE_HEADER, who.scope);
    const rate = limiter.take(who.id ?? '', Date.now());
    if (!rate.ok)
      return refuse(req, res, 429, { 'Retry-After': String(rate.retryAfterS) }, -32000, `too many requests for ${label(who)}: wait ${rate.retryAfterS} s`);
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readBody(req, opts.maxBodyBytes);
      if (read.tooLarge)
        return refuse(
          req,
          res,
          413,
          { Connection: 'close' },
          -32600,
          `the request body is over the ${opts.maxBodyBytes}-byte limit: send less in one message`,
          () => req.destroy(),
        );
      try {
        body = JSON.parse(read.text);
      } catch {
        return refuse(req, res, 400, {}, -32700, 'Parse error: the body is not JSON');
      }
      // one message per request: each call is charged to the rate limit (docs/mcp.md, "Bounds")
      if (Array.isArray(body))
        return refuse(req, res, 400, {}, INVALID_REQUEST, `Invalid Request: got a batch (array) of ${body.length}; ${NO_BATCHES} (one HTTP request each)`);
    }
    const need = scopeNeeded(body, tools);
    const id = header(req, 'mcp-session-id');
    let session = id ? sessions.get(id) : undefined;
    // a session is its token's (not its name's): another token gets the same answer as an unknown session
    if (id && (!session || session.principal.id !== who.id)) return refuse(req, res, 404, {}, -32001, 'Session not found: initialize a new one');
    if (!session) {
      if (req.method !== 'POST' || !isInitialize(body)) return refuse(req, res, 400, {}, -32000, 'Bad Request: no Mcp-Session-Id; start with initialize');
      const room = sessions.makeRoom(who.id ?? '', (old) => {
        opts.log(
          `session ${old.id} of ${label(who)} closed: it holds ${opts.sessionsPerToken} sessions (--sessions-per-token), and a new one took the place of its least recently used`,
        );
        void closeSession(old, 'mcp-http-evicted');
      });
      if (!room.ok) return refuse(req, res, room.status, { 'Retry-After': String(room.retryAfterS) }, -32000, room.message);
      const opened = openSession(who);
      // an initialize that failed leaves no session behind
      res.once('close', () => opened.id === null && void closeSession(opened, 'mcp-http-failed'));
      session = opened;
    }
    const s = session;
    s.lastSeen = Date.now();
    // a tool above the token's scope is not run; the refusal is the call's result, in words the model reads
    if (!scopeAllows(who.scope, need.scope)) {
      logRefusal(refusalOf(req, 200, `tool refused: ${scopeRefusal(who, need)}`));
      return send(res, 200, {}, toolRefusal(body, scopeRefusal(who, need)));
    }
    if (need.scope !== 'read') res.once('finish', () => res.statusCode < 300 && sync.kick());
    if (req.method === 'POST') {
      s.busy++;
      res.once('close', () => s.busy--);
    }
    await s.transport.handleRequest(req, res, body);
  };

  const openSession = (principal: Principal): Session => {
    const ctx = sessionContext(shared, () => s.id ?? undefined, principal);
    const server = createServer(ctx);
    server.server.onerror = (err) => opts.log(`protocol error: ${err.message}`);
    const s: Session = {
      id: null,
      token: principal.id ?? '',
      busy: 0,
      server,
      ctx,
      principal,
      lastSeen: Date.now(),
      transport: null as unknown as StreamableHTTPServerTransport,
    };
    s.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (newId) => sessions.register(s, newId),
      onsessionclosed: () => void closeSession(s, 'mcp-http-delete'),
    });
    sessions.add(s);
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
    handle(req, res).catch((err: unknown) => {
      // the client learns an id to quote, the operator the stack (once per distinct error): failure-log.ts
      const id = logFailure(err, refusalOf(req, 500, ''));
      if (!res.headersSent) send(res, 500, {}, JSON.stringify({ jsonrpc: '2.0', error: internalErrorReply(id), id: null }));
      else res.end();
    });
  });
  // a slow client holds its own socket, never the server: bounded headers and bodies
  http.headersTimeout = 10_000;
  http.requestTimeout = 60_000;
  // an idle connection kept a minute (Node's default is 5 s) and announced so (Keep-Alive:
  // timeout=60): a client whose requests wait on others' writes (many clients, a loaded machine)
  // drops it before the server does, instead of sending its next request as the server closes it
  // (lost to a reset, ECONNRESET)
  http.keepAliveTimeout = KEEP_ALIVE_MS;
  const addr = await listen(http, opts.port, opts.host).catch(async (err: unknown) => {
    // nothing served: the store let go before the error is reported
    await sync.stop(false);
    await shared.close();
    throw err;
  });
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  opts.onListening(`http://${host}:${addr.port}/mcp`);
  opts.log(`serving ${shared.cwd} over HTTP on ${host}:${addr.port}${gate.open() ? ' (no tokens: open to this machine only)' : ''}`);

  let tokensProblem: string | null = null;
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - opts.idleTimeoutS * 1000;
      for (const s of sessions.all()) {
        if (s.lastSeen >= cutoff || s.busy > 0) continue;
        // said before the session goes: a client refused with 404 from now on finds the reason logged
        opts.log(`session ${s.id} closed after ${opts.idleTimeoutS} s idle`);
        void closeSession(s, 'mcp-http-idle');
      }
      try {
        gate.watch();
        endRevoked();
        if (tokensProblem !== null) opts.log('the tokens file can be used again: requests are checked against it');
        tokensProblem = null;
      } catch (err) {
        // said once per problem, not at every sweep
        const problem = (err as Error).message;
        if (problem !== tokensProblem) opts.log(`every request is refused (503) until the tokens file is fixed: ${problem}`);
        tokensProblem = problem;
      }
      try {
        verifier.flush();
      } catch (err) {
        opts.log(`could not record token use: ${(err as Error).message}`);
      }
    },
    Math.max(250, Math.min(opts.idleTimeoutS * 250, 30_000)),
  );
  sweep.unref();

  const why = await stopSignal;
  stopping = true;
  opts.log(`stopping (${why}${inFlight ? `; finishing ${inFlight} request${inFlight === 1 ? '' : 's'} in flight` : ''})`);
  clearInterval(sweep);
  http.close();
  if (inFlight > 0) {
    await Promise.race([new Promise<void>((resolve) => (drained = resolve)), new Promise<void>((resolve) => setTimeout(resolve, DRAIN_MS).unref())]);
  }
  for (const s of sessions.all()) await closeSession(s, 'mcp-shutdown');
  http.closeAllConnections();
  // bounded: what is left is recovered at the next start
  await withDeadline(recover('stop'), SHUTDOWN_SWEEP_MS);
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
    registerTool: (name: string, config: { annotations?: { readOnlyHint?: boolean } }) =>
      void scopes.set(name, config.annotations?.readOnlyHint === true ? 'read' : 'write'),
    registerResource: () => undefined,
  };
  registerAll(
    recorder as never,
    sessionContext(shared, () => undefined, { id: null, name: null, scope: 'read' }),
  );
  return scopes;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function isInitialize(body: unknown): boolean {
  return !!body && typeof body === 'object' && (body as { method?: unknown }).method === 'initialize';
}

/** A tool call's error result (`isError`), answering the request `body`: how a client hands its model a tool's failure. */
function toolRefusal(body: unknown, text: string): string {
  const id = (body as { id?: unknown }).id ?? null;
  return JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: true } });
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
