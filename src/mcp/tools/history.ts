import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { history, log, worklogOp } from '../../operations/history.ts';
import { search } from '../../operations/search.ts';
import type { ServerContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';

/** Search, the worklog, the log and one item's history: the git-native reads. */
export function registerHistoryTools(server: McpServer, ctx: ServerContext): void {
  registerOperationTool(server, ctx, search);
  registerOperationTool(server, ctx, worklogOp);
  registerOperationTool(server, ctx, log);
  registerOperationTool(server, ctx, history);
}
