import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { withDeadline } from '../model/deadline.ts';
import { toolCall } from '../model/tool-args.ts';
import { OPERATIONS } from '../operations/index.ts';
import { createServerContext, type ServerContext } from './context.ts';
import { adaptToClient, registerOperationTool } from './operation-tool.ts';
import { recoverOrphans } from './recover-orphans.ts';
import { registerResources } from './resources.ts';
import { StdioTransport } from './stdio-transport.ts';

declare const AXME_VERSION: string | undefined;

export const INSTRUCTIONS = `axme keeps this project's knowledge in its git repository (refs/memory/main).
- Start every session with axme_context: a bounded overview (the handoff, the rules, required decisions, what is relevant now), each item one line with its id.
- Ask for more only when the work needs it: ${toolCall('axme_search_kb', '<words>')} (every kind), ${toolCall('axme_get_decision', '<id>')} / ${toolCall('axme_get_memory', '<slug>')} for one item whole.
- Save decisions (axme_save_decision) and memories (axme_save_memory) as soon as you discover them; do not wait for the end.
- Required decisions must be followed. When two decisions conflict, the newer one wins; revise one with axme_save_decision + supersedes.
- Correct what is wrong instead of adding a second item: axme_update_memory, axme_amend_decision (wording; history kept). Retire what no longer holds: axme_archive_memory, axme_revoke_decision (a required decision only the user revokes).
- End every git commit and git push command with the comment: #!axme pr=<N|none> repo=<owner>/<name>
- Close the session with axme_begin_close, then ONE call of axme_finalize_close with everything extracted.
- Ask the user through axme_ask_question when only they can decide.`;

/** The MCP server over the knowledge of the repository at `ctx.cwd` (tools + resources). */
export function createServer(ctx: ServerContext): McpServer {
  const server = new McpServer({ name: 'axme', version: typeof AXME_VERSION === 'string' ? AXME_VERSION : 'dev' }, { instructions: INSTRUCTIONS });
  registerAll(server, ctx);
  adaptToClient(server);
  return server;
}

/**
 * Registers every tool and resource on `server`: the one list both transports serve. The tools
 * are the operations that declare `mcp` (src/operations/), in the order of OPERATIONS.
 */
export function registerAll(server: Pick<McpServer, 'registerTool' | 'registerResource'>, ctx: ServerContext): void {
  const s = server as McpServer;
  for (const op of OPERATIONS) if (op.mcp) registerOperationTool(s, ctx, op);
  registerResources(s, ctx);
}

/**
 * `axme serve`: MCP over stdio until the client closes stdin, or a SIGTERM, SIGINT or SIGHUP.
 * stdout carries only the protocol; everything else goes to stderr. At a stop, new requests are
 * refused, the calls in flight are finished and answered (bounded), sessions that ended without
 * a close are recovered (bounded), every child process is closed, and the process exits.
 */
export async function serve(opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<void> {
  const ctx = createServerContext({ cwd: opts.cwd, env: opts.env });
  const server = createServer(ctx);
  const transport = new StdioTransport({ input: process.stdin, output: process.stdout, log: ctx.log });
  server.server.onerror = (err) => ctx.log(`protocol error: ${err.message}`);
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  let onSignal: (s: NodeJS.Signals) => void = () => {};
  const stopped = new Promise<string>((resolve) => {
    transport.oninputend = resolve;
    onSignal = (sig) => resolve(sig);
    for (const sig of signals) process.once(sig, onSignal);
  });
  await server.connect(transport);
  ctx.log(`serving ${opts.cwd}${ctx.session ? ` (session ${ctx.session})` : ''}`);
  // in the background: the first tool calls need not wait for it
  const recovery = { kb: () => ctx.kb(undefined, { bindSession: false }), log: ctx.log };
  const startSweep = recoverOrphans(recovery, 'start');
  const why = await stopped;
  ctx.log(`stopping (${why}${transport.inFlight ? `; finishing ${transport.inFlight} call${transport.inFlight === 1 ? '' : 's'} in flight` : ''})`);
  transport.stopAccepting();
  // a request written just before a signal is still read (and refused, or run if it came first)
  await transport.settleInput(50, 500);
  // answered while stdout is still open: a call the client sent is either answered or refused
  await transport.drain(DRAIN_MS);
  // both recoveries share the stop budget; what is left is done at the next start
  const deadline = Date.now() + SHUTDOWN_SWEEP_MS;
  await withDeadline(startSweep, SHUTDOWN_SWEEP_MS);
  const ended = ctx.endSessions('mcp-shutdown');
  if (ended.length) ctx.log(`ended session ${ended.join(', ')}`);
  await withDeadline(recoverOrphans(recovery, 'stop'), Math.max(0, deadline - Date.now()));
  await server.close().catch(() => {});
  await ctx.close();
  for (const sig of signals) process.off(sig, onSignal);
  // anything still holding the event loop (a call cut off by the drain bound) must not keep an
  // orphaned server alive: the exit code is set by then, the timer only fires if something lingers
  setTimeout(() => {
    ctx.log('exiting with work still pending (a call cut off at the stop)');
    process.exit(process.exitCode ?? 0);
  }, LINGER_MS).unref();
}

/** How long a stopping server waits for the calls in flight before answering them with an error. */
const DRAIN_MS = 10_000;
/** How long the process may take to exit on its own after the stop is done. */
const LINGER_MS = 500;

/** How long a stopping server spends on recovery; what is left is done at the next start. */
const SHUTDOWN_SWEEP_MS = 5_000;
