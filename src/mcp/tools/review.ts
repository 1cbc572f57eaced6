import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { check, diff, propose } from '../../operations/review.ts';
import type { ServerContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';

/** Reviewing knowledge: the semantic diff, the check CI runs, opening a knowledge pull request. */
export function registerReviewTools(server: McpServer, ctx: ServerContext): void {
  registerOperationTool(server, ctx, diff);
  registerOperationTool(server, ctx, check);
  registerOperationTool(server, ctx, propose);
}
