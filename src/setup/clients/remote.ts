import { AxmeError } from '../../model/errors.ts';

/**
 * A client pointed at a team's `axme serve --http` instead of a local stdio server
 * (`axme init --agent … --mcp-url <url> --mcp-token-env <VAR>`): the URL, and the environment
 * variable the client reads the bearer token from when it starts — the token itself is never
 * written into a project file.
 */
export interface RemoteServer {
  url: string;
  /** the variable holding the token (null: an open loopback server, no header) */
  tokenEnv: string | null;
}

/** Checks `--mcp-url` and `--mcp-token-env` once, at the boundary. */
export function parseRemote(url: unknown, tokenEnv: unknown): RemoteServer | undefined {
  if (url === undefined) {
    if (tokenEnv !== undefined) throw new AxmeError('INVALID_INPUT', '--mcp-token-env goes with --mcp-url <url>');
    return undefined;
  }
  let u: URL | null = null;
  try {
    u = typeof url === 'string' ? new URL(url) : null;
  } catch {
    u = null;
  }
  if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password) throw new AxmeError('INVALID_INPUT', `--mcp-url must be one http(s) URL without credentials, e.g. https://axme.example.com/mcp (got ${JSON.stringify(String(url).slice(0, 200))})`);
  if (tokenEnv !== undefined && (typeof tokenEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(tokenEnv))) throw new AxmeError('INVALID_INPUT', '--mcp-token-env needs the name of an environment variable (letters, digits, _), e.g. AXME_TOKEN');
  return { url: u.href, tokenEnv: (tokenEnv as string | undefined) ?? null };
}

/**
 * The server entry of `client` for `remote` (the stdio fields emptied: a local entry becomes a
 * remote one), for each client whose MCP server is in a project file (index.ts CLIENTS; `--user`
 * with `--mcp-url` is refused by parseAgents). Each client's own way of reading the token
 * from the environment when it starts (../shared/reference/agent-clients.md §3): `${VAR}` in
 * Claude Code's and Gemini CLI's headers, `${env:VAR}` in Cursor's and VS Code's, and Codex's
 * `bearer_token_env_var`, which names the variable.
 */
export function remoteEntry(client: string, remote: RemoteServer): Record<string, unknown> {
  const stdio = { command: undefined, args: undefined, env: undefined, type: undefined };
  // the entry is axme's: its headers are set whole (none without a token), never left from an earlier entry
  const bearer = (ref: string) => ({ headers: remote.tokenEnv ? { Authorization: `Bearer ${ref}` } : undefined });
  switch (client) {
    case 'claude-code':
      return { ...stdio, type: 'http', url: remote.url, ...bearer(`\${${remote.tokenEnv}}`) };
    case 'cursor':
      return { ...stdio, url: remote.url, ...bearer(`\${env:${remote.tokenEnv}}`) };
    case 'vscode':
      return { ...stdio, type: 'http', url: remote.url, ...bearer(`\${env:${remote.tokenEnv}}`) };
    case 'gemini':
      return { ...stdio, httpUrl: remote.url, ...bearer(`\${${remote.tokenEnv}}`) };
    case 'codex':
      return { url: remote.url, ...(remote.tokenEnv ? { bearer_token_env_var: remote.tokenEnv } : {}) };
    default:
      throw new Error(`internal: no HTTP server entry for ${client}`);
  }
}

/**
 * The server entry of `client` (one with a project MCP file): remoteEntry's with `remote`, else
 * its `local` stdio entry with the fields a remote entry sets emptied — a JSON entry is merged
 * into the one already there, so a server pointed back at the local axme must not keep the team
 * server's `type`, URL and headers (Codex's table is written whole).
 */
export function serverEntry(client: string, local: Record<string, unknown>, remote: RemoteServer | undefined): Record<string, unknown> {
  if (remote) return remoteEntry(client, remote);
  return client === 'codex' ? local : { type: undefined, url: undefined, httpUrl: undefined, headers: undefined, ...local };
}

/**
 * The team server Claude Code's `.mcp.json` entry points at, for `axme doctor` (remoteEntry's
 * 'claude-code' entry read back); null for a local stdio entry.
 */
export function remoteOf(entry: Record<string, unknown>): RemoteServer | null {
  if (typeof entry.url !== 'string' || typeof entry.command === 'string') return null;
  const auth = (entry.headers as Record<string, unknown> | undefined)?.Authorization;
  const tokenEnv = typeof auth === 'string' ? /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(auth)?.[1] : undefined;
  return { url: entry.url, tokenEnv: tokenEnv ?? null };
}
