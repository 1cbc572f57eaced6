import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axmeInOk } from '../cli-in-process.ts';
import { git } from '../helpers.ts';
import { type HttpServer, startHttp } from '../mcp/http-helpers.ts';
import { type ClientWorld, cleanupWorld, clientWorld } from './project.ts';

/**
 * A team's `axme serve --http` for the real clients: a bare repository the server owns, a write
 * token and a read token, and project clones (each a client world of its own: a teammate's
 * machine) whose clients `axme init --mcp-url <url> --mcp-token-env AXME_TOKEN` points at it.
 */

/** The variable every clone's MCP entries read the token from. */
export const TOKEN_ENV = 'AXME_TOKEN';

export interface Team {
  /** the bare repository the server serves */
  repo: string;
  server: HttpServer;
  /** a token of scope write, and one of scope read */
  write: string;
  read: string;
  /** starts the server again on the same port (after `server.stop()`), the same repository and tokens */
  restart: () => Promise<HttpServer>;
  /** a clone of the team's code with axme initialised for `agents` against the server */
  clone: (agents: string) => Promise<ClientWorld>;
  close: () => Promise<void>;
}

/** A bare repository with one commit of code and a store, served on 127.0.0.1 (a free port) with two tokens. */
export async function teamServer(): Promise<Team> {
  const root = mkdtempSync(join(tmpdir(), 'axme-team-'));
  const repo = join(root, 'team.git');
  const seed = join(root, 'seed');
  git(root, ['init', '-q', '--bare', '-b', 'main', repo]);
  git(root, ['init', '-q', '-b', 'main', seed]);
  git(seed, ['-c', 'user.name=Lead', '-c', 'user.email=lead@example.com', 'commit', '-q', '--allow-empty', '-m', 'first']);
  git(seed, ['push', '-q', repo, 'main']);
  // as docs/mcp.md's recipe: a bare clone has no store until axme init makes one
  await axmeInOk(repo, ['init']);
  const token = async (name: string, scope: string) => ((await axmeInOk(repo, ['token', 'add', name, '--scope', scope, '--json'])) as { token: string }).token;
  const write = await token('alice', 'write');
  const read = await token('reviewer', 'read');
  let server = await startHttp(repo, ['--sync-interval', '0']);
  const worlds: ClientWorld[] = [];
  const team: Team = {
    repo,
    server,
    write,
    read,
    restart: async () => {
      server = await startHttp(repo, ['--sync-interval', '0', '--port', new URL(team.server.url).port]);
      team.server = server;
      return server;
    },
    clone: async (agents) => {
      const w = await clientWorld(agents, { init: ['--mcp-url', server.url, '--mcp-token-env', TOKEN_ENV] });
      worlds.push(w);
      // the team's code, from the repository the server owns
      git(w.project, ['fetch', '-q', repo, '+main:refs/heads/team']);
      git(w.project, ['remote', 'set-url', 'origin', repo]);
      return w;
    },
    close: async () => {
      await team.server.stop();
      for (const w of worlds) await cleanupWorld(w);
      rmSync(root, { recursive: true, force: true });
    },
  };
  return team;
}
