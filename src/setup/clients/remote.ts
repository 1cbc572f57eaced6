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
  if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password)
    throw new AxmeError(
      'INVALID_INPUT',
      `--mcp-url must be one http(s) URL without credentials, e.g. https://axme.example.com/mcp (got ${JSON.stringify(String(url).slice(0, 200))})`,
    );
  if (tokenEnv !== undefined && (typeof tokenEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(tokenEnv)))
    throw new AxmeError('INVALID_INPUT', '--mcp-token-env needs the name of an environment variable (letters, digits, _), e.g. AXME_TOKEN');
  return { url: u.href, tokenEnv: (tokenEnv as string | undefined) ?? null };
}

/**
 * The Authorization header of a team server's entry, `ref` being the client's own reference to
 * the token variable (`${VAR}`, `${env:VAR}`); no header without a token. The entry is axme's: its
 * headers are set whole, never left from an earlier entry.
 */
export function bearerHeaders(server: RemoteServer, ref: (variable: string) => string): { headers: Record<string, string> | undefined } {
  return { headers: server.tokenEnv ? { Authorization: `Bearer ${ref(server.tokenEnv)}` } : undefined };
}

/** The fields of a local stdio entry, emptied: a local entry becomes a remote one. */
export const NO_STDIO = { command: undefined, args: undefined, env: undefined, type: undefined };

/**
 * The server entry of a client's MCP file (an adapter's `mcp`): its team entry with `remote`
 * (`--user` with `--mcp-url` is refused by parseAgents), else its local stdio entry with the
 * fields a remote entry sets emptied — a JSON entry is merged into the one already there, so a
 * server pointed back at the local axme must not keep the team server's `type`, URL and headers
 * (a TOML table is written whole).
 */
export function serverEntry(
  mcp: { format: { kind: string }; entry: () => Record<string, unknown>; remote: (server: RemoteServer) => Record<string, unknown> },
  remote: RemoteServer | undefined,
): Record<string, unknown> {
  if (remote) return mcp.remote(remote);
  const local = mcp.entry();
  return mcp.format.kind === 'toml' ? local : { type: undefined, url: undefined, httpUrl: undefined, headers: undefined, ...local };
}

/**
 * The team server a client's MCP entry points at, for `axme doctor` (its adapter's remote entry
 * read back, in every client's shape: `url` or Gemini CLI's `httpUrl`, the token variable as
 * `${VAR}` or `${env:VAR}` in the Authorization header, or Codex's `bearer_token_env_var`); null
 * for a local stdio entry.
 */
export function remoteOf(entry: Record<string, unknown>): RemoteServer | null {
  const url = typeof entry.url === 'string' ? entry.url : typeof entry.httpUrl === 'string' ? entry.httpUrl : null;
  if (url === null || typeof entry.command === 'string') return null;
  const auth = (entry.headers as Record<string, unknown> | undefined)?.Authorization;
  const fromHeader = typeof auth === 'string' ? /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/.exec(auth)?.[1] : undefined;
  const codexVar = typeof entry.bearer_token_env_var === 'string' ? entry.bearer_token_env_var : undefined;
  return { url, tokenEnv: fromHeader ?? codexVar ?? null };
}
