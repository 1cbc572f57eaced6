import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { TokenVerifier } from '../../knowledge/admin/tokens.ts';
import { recoverOrphans } from '../recover-orphans.ts';
import { createServer } from '../server.ts';
import type { Principal } from './auth.ts';
import { type HttpSessionContext, type SharedStore, sessionContext } from './session-context.ts';
import { type HeldSession, type SessionTable, sessionTable } from './sessions.ts';

/**
 * The MCP sessions of `axme serve --http` over their lives: each opened with its own MCP server
 * and transport over the shared store (session-context.ts), held in the sessions table
 * (sessions.ts), and closed — deleted, idle, evicted, its token revoked, the server stopping —
 * with its axme session ended and orphans recovered (docs/sessions.md).
 */

/** Sessions at most: a new one beyond is refused (503) until idle ones expire. */
const MAX_SESSIONS = 1024;

/** One MCP session the server holds. */
export interface Session extends HeldSession {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  ctx: HttpSessionContext;
  principal: Principal;
}

export interface HeldSessions {
  table: SessionTable<Session>;
  /** a new session of `principal`, held until its initialize is answered (then registered under its id) */
  open(principal: Principal): Session;
  /** closes `s` (its axme session ended with `reason`); nothing when it is closed already */
  close(s: Session, reason: string): Promise<void>;
  /** closes the sessions of tokens no longer in the tokens file (a revoke), once the file was reread */
  endRevoked(): void;
  /** recovers orphaned sessions, one recovery after another (`when`: start, end, stop) */
  recover(when: string): Promise<void>;
}

/** Who a session's principal is, as the log says it. */
export function principalLabel(p: Principal): string {
  return p.name === null ? "the open server's callers" : `token ${p.name}`;
}

/**
 * The sessions of a server over `shared`: at most `sessionsPerToken` per token; `stopping()` true
 * once the server stops (then one recovery follows every session's end, not one each).
 */
export function heldSessions(opts: {
  shared: SharedStore;
  verifier: TokenVerifier;
  sessionsPerToken: number;
  stopping(): boolean;
  log(message: string): void;
}): HeldSessions {
  const { shared, verifier, log } = opts;
  const table = sessionTable<Session>({ max: MAX_SESSIONS, perToken: opts.sessionsPerToken });
  // recoveries one after another (docs/sessions.md): at the start, when a session ends, at the stop
  const recovery = { kb: () => shared.kb(), log };
  let recovering = recoverOrphans(recovery, 'start');
  const recover = (when: string) => (recovering = recovering.then(() => recoverOrphans(recovery, when)));
  const close = async (s: Session, reason: string) => {
    if (!table.remove(s)) return;
    s.ctx.end(reason);
    await s.transport.close().catch(() => {});
    await s.server.close().catch(() => {});
    // at a stop, one recovery after every session ended
    if (!opts.stopping()) void recover('end');
  };
  // a revoke ends the revoked token's sessions, once the file is reread (at a request or the sweep)
  let heldHashes = verifier.hashes();
  const endRevoked = () => {
    const now = verifier.hashes();
    if (now === heldHashes) return;
    heldHashes = now;
    for (const s of table.all()) {
      if (s.principal.id === null || now.has(s.principal.id)) continue;
      log(`session ${s.id} of ${principalLabel(s.principal)} closed: the token was revoked`);
      void close(s, 'mcp-http-revoked');
    }
  };
  const open = (principal: Principal): Session => {
    const ctx = sessionContext(shared, () => s.id ?? undefined, principal);
    const server = createServer(ctx);
    server.server.onerror = (err) => log(`protocol error: ${err.message}`);
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
      onsessioninitialized: (newId) => table.register(s, newId),
      onsessionclosed: () => void close(s, 'mcp-http-delete'),
    });
    table.add(s);
    void server.connect(s.transport);
    return s;
  };
  return { table, open, close, endRevoked, recover };
}
