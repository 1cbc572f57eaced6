import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { context } from '../../operations/context.ts';
import { decisionDigest, decisionGet, memoryDigest, memoryGet, oracleDigest } from '../../operations/digests.ts';
import { status } from '../../operations/status.ts';
import { workspaceStatusOp } from '../../operations/workspace.ts';
import type { ServerContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';

/** Session-start reads: context, oracle, decisions, memories, one item, status, workspace. */
export function registerReadTools(server: McpServer, ctx: ServerContext): void {
  for (const op of [context, oracleDigest, decisionDigest, memoryDigest, decisionGet, memoryGet, status, workspaceStatusOp]) registerOperationTool(server, ctx, op);
}
