import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { decisionAdd } from '../../operations/decision-add.ts';
import { memoryAdd } from '../../operations/memory-add.ts';
import { oracleScan, safetyShow, safetyUpdate } from '../../operations/safety.ts';
import type { ServerContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';

/** Saving decisions and memories; reading and changing safety rules; scanning the oracle. */
export function registerWriteTools(server: McpServer, ctx: ServerContext): void {
  registerOperationTool(server, ctx, decisionAdd);
  registerOperationTool(server, ctx, memoryAdd);
  registerOperationTool(server, ctx, safetyShow);
  registerOperationTool(server, ctx, safetyUpdate);
  registerOperationTool(server, ctx, oracleScan);
}
