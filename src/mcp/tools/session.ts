import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { beginCloseOp, finalizeCloseOp } from '../../operations/session.ts';
import type { ServerContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';

/** Closing a session: the extraction checklist, then everything in one commit. */
export function registerSessionTools(server: McpServer, ctx: ServerContext): void {
  registerOperationTool(server, ctx, beginCloseOp);
  registerOperationTool(server, ctx, finalizeCloseOp);
}
