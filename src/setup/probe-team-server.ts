import { AXME_TOKEN_RE, TOKEN_SCOPE_HEADER } from '../model/token.ts';
import type { RemoteServer } from './clients/remote.ts';

/** What a team server answered an MCP `initialize` sent with the token a client would send. */
export type TeamServerProbe =
  | { ok: true; scope: string | null }
  | { ok: false; cause: 'no-token' | 'not-axme-token' | 'unreachable' | 'token-refused' | 'refused' | 'not-mcp'; detail: string };

/**
 * Probes `server` for real, as a client connected to it would reach it: an MCP `initialize` over
 * Streamable HTTP, with `Authorization: Bearer <$tokenEnv>` read from `env` (the token goes to the
 * server only: nothing returned holds it). The session the server opens is closed again (DELETE).
 * Answers whether it is reachable, whether the token is accepted, and the scope it has.
 *
 * The URL and the variable's name come from a client's MCP file, which the project commits and
 * whoever can push to it chooses: only a value shaped like an axme token (AXME_TOKEN_RE) is ever
 * sent, so an entry naming `$AWS_SECRET_ACCESS_KEY` or `$GITHUB_TOKEN` gets nothing, and the
 * server is not asked at all.
 */
export async function probeTeamServer(server: RemoteServer, env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<TeamServerProbe> {
  const token = server.tokenEnv ? env[server.tokenEnv] : undefined;
  if (server.tokenEnv && !token) return { ok: false, cause: 'no-token', detail: `$${server.tokenEnv} is not set here, so the client would send no token` };
  if (token && !AXME_TOKEN_RE.test(token))
    return {
      ok: false,
      cause: 'not-axme-token',
      detail: `$${server.tokenEnv} does not hold an axme token (axme_ and 43 letters, digits, "-" or "_"), so it was not sent and the server was not asked: the entry comes from a project file whoever can push chooses`,
    };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'axme-doctor', version: '1' } },
  });
  let res: Response;
  try {
    res = await fetch(server.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    return { ok: false, cause: 'unreachable', detail: `not reachable (${e.cause?.code ?? e.cause?.message ?? e.message})` };
  }
  const text = await res.text().catch(() => '');
  const said = serverMessage(text);
  if (res.status === 401)
    return {
      ok: false,
      cause: 'token-refused',
      detail: `the server refused the token${server.tokenEnv ? ` in $${server.tokenEnv}` : ' (none is sent)'} (401${said ? `: ${said}` : ''})`,
    };
  if (!res.ok) return { ok: false, cause: 'refused', detail: `the server answered ${res.status}${said ? `: ${said}` : ''}` };
  const session = res.headers.get('mcp-session-id');
  if (session)
    await fetch(server.url, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': session }, signal: AbortSignal.timeout(timeoutMs) }).then(
      (r) => r.text(),
      () => '',
    );
  if (!/"serverInfo"/.test(text)) return { ok: false, cause: 'not-mcp', detail: `the answer to initialize is not an MCP server's (status ${res.status})` };
  return { ok: true, scope: res.headers.get(TOKEN_SCOPE_HEADER) };
}

/** The error message of a JSON-RPC error body, shortened; empty when there is none. */
function serverMessage(text: string): string {
  try {
    const m = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    return typeof m === 'string' ? m.slice(0, 200) : '';
  } catch {
    return '';
  }
}
