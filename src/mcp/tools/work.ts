import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { backlogAdd, backlogUpdate } from '../../operations/backlog.ts';
import { backlogRead, openQuestions } from '../../operations/digests.ts';
import { questionAnswer, questionAsk, questionStatus } from '../../operations/question.ts';
import type { ServerContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';

/** The backlog and the open questions. */
export function registerWorkTools(server: McpServer, ctx: ServerContext): void {
  for (const op of [backlogRead, backlogAdd, backlogUpdate, questionAsk, openQuestions, questionAnswer, questionStatus]) registerOperationTool(server, ctx, op);
}
