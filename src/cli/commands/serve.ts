import type { Argv, Options } from 'yargs';
import { HTTP_NUMBERS } from '../../mcp/http/http-options.ts';
import { AxmeError } from '../../model/errors.ts';
import { type CliArgs, type CliIO } from '../io.ts';
import { numberOption } from '../number-values.ts';

/** The flags of `axme serve --http` (checked by mcp/http/http-options.ts); each goes with --http only. */
const HTTP_FLAGS = {
  port: numberOption('port', HTTP_NUMBERS.port, { describe: 'with --http: the port (default 7777; 0 picks a free one)' }),
  host: {
    type: 'string',
    describe: 'with --http: the address to listen on (default 127.0.0.1; another address, or --allowed-host, needs a token: axme token add)',
  },
  tokens: { type: 'string', describe: 'with --http: the tokens file (default: <git common dir>/axme/tokens.json)' },
  'sync-interval': numberOption('sync-interval', HTTP_NUMBERS['sync-interval'], {
    describe: 'with --http: seconds between syncs with the remote, and a sync after writes (default 60 on a bare repository, else 0: none)',
  }),
  'max-body': numberOption('max-body', HTTP_NUMBERS['max-body'], { describe: 'with --http: the request body limit in bytes (default 1048576)' }),
  'rate-limit': numberOption('rate-limit', HTTP_NUMBERS['rate-limit'], {
    describe: 'with --http: requests per second per token (default 20, bursts of 5x that; 0: no limit)',
  }),
  'idle-timeout': numberOption('idle-timeout', HTTP_NUMBERS['idle-timeout'], {
    describe: 'with --http: seconds after which an idle session is closed (default 1800)',
  }),
  'sessions-per-token': numberOption('sessions-per-token', HTTP_NUMBERS['sessions-per-token'], {
    describe: "with --http: sessions one token may hold (default 32); a new one beyond closes that token's least recently used idle session",
  }),
  'allowed-host': {
    type: 'string',
    array: true,
    describe: 'with --http: another host name clients may reach it by (behind a proxy); Host headers are checked against DNS rebinding',
  },
} as const satisfies Record<string, Options>;

/** `axme serve`: the MCP server, on stdio or (--http) over Streamable HTTP. */
export function serveCommand(io: CliIO) {
  return {
    command: 'serve',
    describe: 'run the MCP server on stdio (for Claude Code, Cursor, Codex, any MCP client); --http: over Streamable HTTP, for a team (docs/mcp.md)',
    builder: (y: Argv) =>
      y.option('http', { type: 'boolean', describe: 'serve MCP over Streamable HTTP at /mcp instead of stdio (prints the URL on stdout)' }).options(HTTP_FLAGS),
    handler: async (a: CliArgs) => {
      if (a.http) return serveHttpCommand(io, a);
      const stray = Object.keys(HTTP_FLAGS).find((flag) => a[flag] !== undefined);
      if (stray) throw new AxmeError('INVALID_INPUT', `--${stray} goes with --http`);
      const { serve } = await import('../../mcp/server.ts');
      await serve({ cwd: a.C ?? io.cwd, env: io.env });
    },
  };
}

/** `axme serve --http`: the flags checked by the server's own rules, the URL on stdout, everything else on stderr. */
async function serveHttpCommand(io: CliIO, a: CliArgs): Promise<void> {
  const { httpOptions } = await import('../../mcp/http/http-options.ts');
  const settings = httpOptions(a);
  const { serveHttp } = await import('../../mcp/http/serve-http.ts');
  await serveHttp({
    ...settings,
    cwd: (a.C as string | undefined) ?? io.cwd,
    env: io.env,
    onListening: (url) => io.stdout.write(`${url}\n`),
    log: (m) => io.stderr.write(`axme serve: ${m}\n`),
  });
}
