import type { IncomingMessage, ServerResponse } from 'node:http';
import { TokensFileError } from '../../knowledge/admin/tokens.ts';
import { scopeAllows, TOKEN_SCOPE_HEADER, type TokenScope } from '../../model/token.ts';
import { INVALID_REQUEST, NO_BATCHES } from '../request-check.ts';
import { challenge, type Gate, rateLimiter, refusedHost, scopeNeeded, scopeRefusal } from './auth.ts';
import { type HeldSessions, principalLabel } from './held-sessions.ts';
import type { HttpSettings } from './http-options.ts';
import { type Refusal, refusalOf } from './refusal-log.ts';
import { type Refuse, rpcError, send, toolRefusal } from './replies.ts';
import { readBody } from './request-body.ts';
import { refusedForm } from './request-form.ts';

/**
 * One request of `axme serve --http`, checked in order — the server stopping (503), the path
 * (404), Host and Origin (403), the token (401; 503 while the tokens file cannot be used), the
 * rate limit (429), the method, Content-Type and Accept (405, 415, 406), the body (413, 400), the session (404, 400, 429, 503) and the tool's scope —
 * then handed to the session's MCP transport (docs/mcp.md, "Over HTTP, for a team").
 */

/** What a client is told while the tokens file cannot be used: what to do, never the file's path or what the parser said (those are in the log). */
const TOKENS_UNUSABLE =
  "this server cannot check tokens: its tokens file is damaged or unreadable, and every request is refused until it is fixed. Tell the server's operator (its log says which file and what is wrong)";

export interface RequestHandlerOptions {
  settings: Pick<HttpSettings, 'maxBodyBytes' | 'sessionsPerToken' | 'ratePerSecond' | 'rateBurst'>;
  gate: Gate;
  /** the host names Host and Origin may carry (null: no check) */
  allowed: ReadonlySet<string> | null;
  tools: ReadonlyMap<string, TokenScope>;
  sessions: HeldSessions;
  /** true once the server stops */
  stopping(): boolean;
  /** a write was answered: the sync loop syncs soon */
  wrote(): void;
  refuse: Refuse;
  logRefusal(r: Refusal): void;
  log(message: string): void;
}

/** The handler of every request; it throws only on a failure of the server's own (answered by the caller). */
export function requestHandler(opts: RequestHandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { gate, allowed, tools, sessions, refuse, logRefusal } = opts;
  const { maxBodyBytes, sessionsPerToken } = opts.settings;
  const limiter = rateLimiter({ perSecond: opts.settings.ratePerSecond, burst: opts.settings.rateBurst });
  return async (req, res) => {
    if (opts.stopping()) return refuse(req, res, 503, { 'Retry-After': '5', Connection: 'close' }, -32000, 'the server is stopping: connect again in a moment');
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
    sessions.endRevoked();
    // the caller learns what its token may do (axme doctor reports it)
    res.setHeader(TOKEN_SCOPE_HEADER, who.scope);
    const rate = limiter.take(who.id ?? '', Date.now());
    if (!rate.ok)
      return refuse(
        req,
        res,
        429,
        { 'Retry-After': String(rate.retryAfterS) },
        -32000,
        `too many requests for ${principalLabel(who)}: wait ${rate.retryAfterS} s`,
      );
    const form = refusedForm(req);
    if (form) return refuse(req, res, form.status, form.headers, -32000, form.message);
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readBody(req, maxBodyBytes);
      if (read.gone) return;
      if (read.tooLarge)
        return refuse(req, res, 413, { Connection: 'close' }, -32600, `the request body is over the ${maxBodyBytes}-byte limit: send less in one message`, () =>
          req.destroy(),
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
    let session = id ? sessions.table.get(id) : undefined;
    // a session is its token's (not its name's): another token gets the same answer as an unknown session
    if (id && (!session || session.principal.id !== who.id)) return refuse(req, res, 404, {}, -32001, 'Session not found: initialize a new one');
    if (!session) {
      if (req.method !== 'POST' || !isInitialize(body)) return refuse(req, res, 400, {}, -32000, 'Bad Request: no Mcp-Session-Id; start with initialize');
      const room = sessions.table.makeRoom(who.id ?? '', (old) => {
        opts.log(
          `session ${old.id} of ${principalLabel(who)} closed: it holds ${sessionsPerToken} sessions (--sessions-per-token), and a new one took the place of its least recently used`,
        );
        void sessions.close(old, 'mcp-http-evicted');
      });
      if (!room.ok) return refuse(req, res, room.status, { 'Retry-After': String(room.retryAfterS) }, -32000, room.message);
      const opened = sessions.open(who);
      // an initialize that failed leaves no session behind
      res.once('close', () => opened.id === null && void sessions.close(opened, 'mcp-http-failed'));
      session = opened;
    }
    const s = session;
    s.lastSeen = Date.now();
    // a tool above the token's scope is not run; the refusal is the call's result, in words the model reads
    if (!scopeAllows(who.scope, need.scope)) {
      logRefusal(refusalOf(req, 200, `tool refused: ${scopeRefusal(who, need)}`));
      return send(res, 200, {}, toolRefusal(body, scopeRefusal(who, need)));
    }
    if (need.scope !== 'read') res.once('finish', () => res.statusCode < 300 && opts.wrote());
    if (req.method === 'POST') {
      s.busy++;
      res.once('close', () => s.busy--);
    }
    await s.transport.handleRequest(req, res, body);
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function isInitialize(body: unknown): boolean {
  return !!body && typeof body === 'object' && (body as { method?: unknown }).method === 'initialize';
}
