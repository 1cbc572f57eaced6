import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { decisionAdd } from '../../operations/decision-add.ts';
import { memoryAdd } from '../../operations/memory-add.ts';
import { memoryUpdate } from '../../operations/memory-update.ts';
import { memoryArchive } from '../../operations/memory-archive.ts';
import { decisionAmend } from '../../operations/decision-amend.ts';
import { decisionRevoke } from '../../operations/decision-revoke.ts';
import { oracleScan, safetyShow, safetyUpdate } from '../../operations/safety.ts';
import type { ServerContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';

/** Saving, correcting and retiring decisions and memories; reading and changing safety rules; scanning the oracle. */
export function registerWriteTools(server: McpServer, ctx: ServerContext): void {
  registerOperationTool(server, ctx, decisionAdd);
  registerOperationTool(server, ctx, decisionAmend);
  registerOperationTool(server, ctx, decisionRevoke);
  registerOperationTool(server, ctx, memoryAdd);
  registerOperationTool(server, ctx, memoryUpdate);
  registerOperationTool(server, ctx, memoryArchive);
  registerOperationTool(server, ctx, safetyShow);
  registerOperationTool(server, ctx, safetyUpdate);
  registerOperationTool(server, ctx, oracleScan);
}
