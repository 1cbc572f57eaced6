import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { ClientAdapter, DoctorCheck } from './clients/adapter.ts';
import { ADAPTERS } from './clients/adapters.ts';
import { serversOf } from './clients/json-mcp.ts';
import { type RemoteServer, remoteOf } from './clients/remote.ts';
import { type Json, parseJsonObject, readTextFile } from './json-file.ts';
import { installHintFor, isPortableAxme } from './launch.ts';
import { probeTeamServer, type TeamServerProbe } from './probe-team-server.ts';

type McpClient = ClientAdapter & { mcp: NonNullable<ClientAdapter['mcp']> };

/**
 * The MCP entry of every client that has one in the project (Claude Code's `.mcp.json`, Cursor's,
 * VS Code's, Gemini CLI's settings, Codex's `config.toml`): a local entry must start an axme this
 * machine has (`found`, the one the portable command finds); a team server (`--mcp-url`) is
 * probed for real, once per URL and token variable, with the token the client would send —
 * reachable, token accepted, its scope — and the token is never shown. Claude Code's entry
 * missing is said (plain `axme init` writes it); another client with no axme entry is not connected.
 */
export async function mcpChecks(root: string, found: string, env: NodeJS.ProcessEnv): Promise<DoctorCheck[]> {
  const out: DoctorCheck[] = [];
  const teams = new Map<string, { server: RemoteServer; clients: string[] }>();
  for (const c of ADAPTERS.filter((a): a is McpClient => !!a.mcp)) {
    const name = `mcp ${c.id}`;
    const path = join(root, c.mcp.file);
    let entry: Json | null;
    try {
      entry = readEntry(c, path);
    } catch (err) {
      out.push({ name, status: 'problem', detail: (err as Error).message, fix: `fix ${c.mcp.file}` });
      continue;
    }
    if (!entry) {
      if (c.isDefault) out.push({ name, status: 'missing', detail: `no "axme" server in ${c.mcp.file}`, fix: 'axme init' });
      continue;
    }
    const remote = remoteOf(entry);
    if (remote) {
      const key = `${remote.url}\n${remote.tokenEnv ?? ''}`;
      teams.set(key, { server: remote, clients: [...(teams.get(key)?.clients ?? []), c.label] });
      continue;
    }
    out.push(localEntryCheck(name, c, entry, found, root));
  }
  for (const { server, clients } of teams.values()) out.push(await teamServerCheck(server, clients, env));
  return out;
}

/** The axme entry of the client's MCP file; null when the file or the entry is absent. CONFIG for a broken file. */
function readEntry(c: McpClient, path: string): Json | null {
  const text = readTextFile(path);
  if (text === null) return null;
  if (c.mcp.format.kind === 'json') {
    const servers = serversOf(parseJsonObject(text, path), c.mcp.format, path);
    const e = servers.axme;
    return e && typeof e === 'object' && !Array.isArray(e) ? (e as Json) : null;
  }
  let doc: Json;
  try {
    doc = parseToml(text) as Json;
  } catch (err) {
    throw new Error(`${c.mcp.file} is not valid TOML (${(err as Error).message.split('\n')[0]})`);
  }
  const e = (doc.mcp_servers as Json | undefined)?.axme;
  return e && typeof e === 'object' && !Array.isArray(e) ? (e as Json) : null;
}

/** A local stdio entry: its files exist on this machine, and the portable command finds an axme. */
function localEntryCheck(name: string, c: McpClient, entry: Json, found: string, root: string): DoctorCheck {
  const command = typeof entry.command === 'string' ? entry.command : '';
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [];
  if (!command)
    return {
      name,
      status: 'problem',
      detail: `the "axme" server in ${c.mcp.file} has neither a command nor a URL`,
      fix: `axme init${c.isDefault ? '' : ` --agent ${c.id}`}`,
    };
  // an entry of an earlier axme names files by path: they must exist on this machine
  const gone = [command, ...args].filter((a) => isAbsolute(a) && !existsSync(a));
  if (gone.length)
    return {
      name,
      status: 'problem',
      detail: `${c.mcp.file} starts ${gone.join(', ')}, which does not exist on this machine`,
      fix: `axme init${c.isDefault ? '' : ` --agent ${c.id}`} (it writes an entry that finds axme on any machine)`,
    };
  if (command === 'sh' && isPortableAxme(args.at(-1) ?? '')) {
    if (!found) return { name, status: 'problem', detail: `${c.label}'s entry finds no axme on this machine`, fix: installHintFor(root) };
    return { name, status: 'ok', detail: `${c.mcp.file} starts ${found} serve` };
  }
  return { name, status: 'ok', detail: `${c.mcp.file} starts ${[command, ...args].join(' ').slice(0, 160)}` };
}

/** What the user does about a team server a client cannot use, by the probe's cause. */
export function teamServerFix(server: RemoteServer, cause: Exclude<TeamServerProbe, { ok: true }>['cause']): string {
  return {
    'no-token': `export ${server.tokenEnv}=<the token \`axme token add <name>\` printed on the server> before starting the client`,
    'not-axme-token': `check that this team server is yours (the URL and $${server.tokenEnv} are in the committed MCP file): a client started here sends $${server.tokenEnv} to it; to point the clients at your server: axme init --agent <list> --mcp-url <url> --mcp-token-env AXME_TOKEN`,
    'token-refused': server.tokenEnv
      ? `set $${server.tokenEnv} to a valid token (\`axme token add <name>\` on the server prints one)`
      : 'point the clients at the server with a token: axme init --agent <list> --mcp-url <url> --mcp-token-env AXME_TOKEN',
    unreachable: `start the server (axme serve --http) or point the clients at the right URL (axme init --agent <list> --mcp-url <url>)`,
    refused: "check the server's log (axme serve --http prints why it refuses a request)",
    'not-mcp': 'point the clients at the MCP endpoint of axme serve --http (its URL ends in /mcp)',
  }[cause];
}

/**
 * The team server the MCP entry of client `id` in the project at `root` points at; null for a
 * local entry, none, or a file that does not read (the doctor reports those).
 */
export function teamServerOf(root: string, id: string): RemoteServer | null {
  const c = ADAPTERS.find((a): a is McpClient => a.id === id && !!a.mcp);
  if (!c) return null;
  try {
    const entry = readEntry(c, join(root, c.mcp.file));
    return entry ? remoteOf(entry) : null;
  } catch {
    return null;
  }
}

/** One team server, probed once for every client pointed at it. */
async function teamServerCheck(server: RemoteServer, clients: string[], env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  const name = 'mcp team server';
  const who = `${clients.join(', ')} → ${server.url}`;
  const r = await probeTeamServer(server, env);
  if (r.ok) {
    const token = server.tokenEnv ? `token from $${server.tokenEnv} accepted` : 'no token (an open server)';
    const scope = r.scope ? `, scope ${r.scope}${r.scope === 'read' ? ' (agents can read the knowledge, not save to it)' : ''}` : '';
    return { name, status: 'ok', detail: `${who}: reachable, ${token}${scope}` };
  }
  const fix = teamServerFix(server, r.cause);
  return { name, status: 'problem', detail: `${who}: ${r.detail}`, fix };
}
