import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isAxmeError } from '../model/errors.ts';
import { createServerContext, type ServerContext } from './context.ts';
import { registerResources } from './resources.ts';
import { registerHistoryTools } from './tools/history.ts';
import { registerReviewTools } from './tools/review.ts';
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
  registerReviewTools(server, ctx);
  registerSessionTools(server, ctx);
  registerResources(server, ctx);
  return server;
}

/**
 * `axme serve`: MCP over stdio until the client closes stdin (or a SIGTERM/SIGINT). stdout
 * carries only the protocol; everything else goes to stderr. At start and at stop, sessions that
 * ended without a close are recovered (their handoffs written from what is known).
 */
export async function serve(opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<void> {
  const ctx = createServerContext({ cwd: opts.cwd, env: opts.env });
  const server = createServer(ctx);
  const transport = new StdioServerTransport();
  const done = new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.stdin.once('end', stop);
    process.stdin.once('close', stop);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    transport.onclose = stop;
  });
  await server.connect(transport);
  ctx.log(`serving ${opts.cwd}${ctx.session ? ` (session ${ctx.session})` : ''}`);
  // in the background: the first tool calls need not wait for it
  const startSweep = recoverOrphans(ctx, 'start');
  await done;
  // both recoveries share the stop budget; what is left is done at the next start
  const deadline = Date.now() + SHUTDOWN_SWEEP_MS;
  await withDeadline(startSweep, SHUTDOWN_SWEEP_MS);
  const ended = ctx.endSessions('mcp-shutdown');
  if (ended.length) ctx.log(`ended session ${ended.join(', ')}`);
  await withDeadline(recoverOrphans(ctx, 'stop'), Math.max(0, deadline - Date.now()));
  await server.close().catch(() => {});
  await ctx.close();
}

/** How long a stopping server spends on recovery; what is left is done at the next start. */
const SHUTDOWN_SWEEP_MS = 5_000;

async function recoverOrphans(ctx: ServerContext, when: string): Promise<void> {
  try {
    const { sweepOrphans } = await import('../knowledge/recover-session.ts');
    const r = await sweepOrphans(await ctx.kb(undefined, { bindSession: false }));
    for (const x of r.recovered) ctx.log(`recovered session ${x.session} at ${when}${x.commit ? ` (commit ${x.commit.slice(0, 12)})` : ''}`);
    for (const e of r.errors) ctx.log(`could not recover session ${e.session}: ${e.message}`);
  } catch (err) {
    // no repository or no store yet: nothing to recover
    if (!(isAxmeError(err) && (err.code === 'NOT_INITIALIZED' || err.code === 'NOT_A_REPO'))) ctx.log(`session recovery failed: ${(err as Error).message}`);
  }
}

function withDeadline(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}
