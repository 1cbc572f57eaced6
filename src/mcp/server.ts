import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServerContext, type ServerContext } from './context.ts';
import { registerResources } from './resources.ts';
import { registerHistoryTools } from './tools/history.ts';
import { registerReadTools } from './tools/read.ts';
import { registerSessionTools } from './tools/session.ts';
import { registerWorkTools } from './tools/work.ts';
import { registerWriteTools } from './tools/write.ts';

declare const AXME_VERSION: string | undefined;

export const INSTRUCTIONS = `axme keeps this project's knowledge in its git repository (refs/memory/main).
- Start every session with axme_context, then load axme_oracle, axme_decisions and axme_memories in parallel.
- Save decisions (axme_save_decision) and memories (axme_save_memory) as soon as you discover them; do not wait for the end.
- Required decisions must be followed. When two decisions conflict, the newer one wins; revise one with axme_save_decision + supersedes.
- End every git commit and git push command with the comment: #!axme pr=<N|none> repo=<owner>/<name>
- Close the session with axme_begin_close, then ONE call of axme_finalize_close with everything extracted.
- Ask the user through axme_ask_question when only they can decide.`;

/** The MCP server over the knowledge of the repository at `ctx.cwd` (tools + resources). */
export function createServer(ctx: ServerContext): McpServer {
  const server = new McpServer({ name: 'axme', version: typeof AXME_VERSION === 'string' ? AXME_VERSION : 'dev' }, { instructions: INSTRUCTIONS });
  registerReadTools(server, ctx);
  registerWriteTools(server, ctx);
  registerWorkTools(server, ctx);
  registerHistoryTools(server, ctx);
  registerSessionTools(server, ctx);
  registerResources(server, ctx);
  return server;
}

/**
 * `axme serve`: MCP over stdio until the client closes stdin. stdout carries only the protocol;
 * everything else goes to stderr.
 */
export async function serve(opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<void> {
  const ctx = createServerContext({ cwd: opts.cwd, env: opts.env });
  const server = createServer(ctx);
  const transport = new StdioServerTransport();
  const done = new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.stdin.once('end', stop);
    process.stdin.once('close', stop);
    transport.onclose = stop;
  });
  await server.connect(transport);
  ctx.log(`serving ${opts.cwd} (session ${ctx.session})`);
  await done;
  await server.close().catch(() => {});
  await ctx.close();
}
