import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { check, diff, propose } from '../../operations/review.ts';
import { verify } from '../../operations/verify.ts';
import { reconfirm } from '../../operations/reconfirm.ts';
import type { ServerContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';

/** Reviewing knowledge: the semantic diff, the check CI runs, opening a knowledge pull request, knowledge the code moved away from, and the record that it still holds. */
export function registerReviewTools(server: McpServer, ctx: ServerContext): void {
  registerOperationTool(server, ctx, diff);
  registerOperationTool(server, ctx, check);
  registerOperationTool(server, ctx, propose);
  registerOperationTool(server, ctx, verify);
  registerOperationTool(server, ctx, reconfirm);
}
