import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AnyOperation } from '../operations/operation.ts';
import { common, reply, writeCommon, type ServerContext } from './context.ts';

/**
 * The MCP tool of an operation: its input schema (plus `project_path`, and `allow_secret` for a
 * write), its output schema, annotations and description; the reply is the operation's text
 * with its JSON as structured content — the same text and JSON the CLI prints.
 */
export function registerOperationTool(server: McpServer, ctx: ServerContext, op: AnyOperation): void {
  if (!op.mcp) throw new Error(`operation ${op.id} has no MCP tool`);
  const extra = op.write ? writeCommon : common;
  server.registerTool(
    op.mcp.tool,
    { title: op.summary, description: op.description, inputSchema: { ...extra, ...op.input }, outputSchema: op.output, annotations: op.annotations },
    async (args: Record<string, unknown>) => {
      const res = await reply(ctx, async () => {
        const { project_path, allow_secret, ...input } = args as { project_path?: string; allow_secret?: boolean };
        const r = await op.run(await ctx.kb(project_path), input as never, { allowSecret: !!allow_secret });
        return { text: op.text(r), data: op.json(r) };
      });
      // structured content must match the output schema, errors included (clients check it):
      // an error is told in its text
      if (res.isError) delete res.structuredContent;
      return res;
    },
  );
}
