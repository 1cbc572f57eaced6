import { teamServerFix, teamServerOf } from './doctor-mcp.ts';
import { probeTeamServer } from './probe-team-server.ts';

/** How long the session start waits for the team server's answer. */
const PROBE_MS = 2_000;

/**
 * The session start's line when the client's axme server is a team server (`axme init --mcp-url`)
 * it cannot use: the token's variable unset, the token refused, the server not reachable. The
 * clients say little or nothing of it (Claude Code marks the server failed, Codex logs an rmcp
 * error, Gemini CLI 0.61 says nothing) and the model meets only a missing tool, so the context it
 * starts with says what is wrong and what the user does. '' when the entry is local, or the server
 * answers with the token; the token itself is never in it. One `initialize` (and its DELETE) a
 * session start, bounded by PROBE_MS.
 */
export async function teamServerNote(opts: { root: string; client: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<string> {
  const server = teamServerOf(opts.root, opts.client);
  if (!server) return '';
  const r = await probeTeamServer(server, opts.env, opts.timeoutMs ?? PROBE_MS);
  if (r.ok) return '';
  return (
    `\n\n(axme's team server ${server.url} cannot be used in this session: ${r.detail}. The axme_* tools are missing or fail. ` +
    `Tell the user: ${teamServerFix(server, r.cause)}, then start a new session (\`axme doctor\` checks it).)`
  );
}
