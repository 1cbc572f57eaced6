import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { surfaceInput, type AnyOperation } from '../operations/operation.ts';
import { common, reply, writeCommon, type ServerContext } from './context.ts';

/**
 * The input schema of an operation's tool: `project_path` (and `allow_secret` for a write; an
 * operation on a folder, not a store, takes neither), the fields the tool takes, then the alias
 * of `project_path` when it has one.
 */
export function toolInput(op: AnyOperation): z.ZodRawShape {
  const extra = op.folder ? {} : op.write ? writeCommon : common;
  const alias = op.mcp?.projectAlias;
  return { ...extra, ...surfaceInput(op, 'mcp'), ...(alias ? { [alias]: z.string().max(4096).optional().describe('AXME compatibility: same as project_path') } : {}) };
}

/**
 * The MCP tool of an operation: its input schema, its output schema, annotations and
 * description; the reply is the operation's text with its JSON as structured content — the same
 * text and JSON the CLI prints.
 */
export function registerOperationTool(server: McpServer, ctx: ServerContext, op: AnyOperation): void {
  if (!op.mcp) throw new Error(`operation ${op.id} has no MCP tool`);
  const { tool, defaults = {}, projectAlias } = op.mcp;
  server.registerTool(
    tool,
    { title: op.summary, description: op.description, inputSchema: toolInput(op), outputSchema: op.output, annotations: op.annotations },
    async (args: Record<string, unknown>) => {
      const res = await reply(ctx, async () => {
        const { project_path, allow_secret, ...given } = args as Record<string, unknown> & { project_path?: string; allow_secret?: boolean };
        if (projectAlias) delete given[projectAlias];
        const input = { ...defaults, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
        if (op.folder) ctx.confine?.((input as { path?: string }).path);
        const r = op.folder
          ? await op.run({ cwd: ctx.cwd, env: ctx.env }, input as never)
          : await op.run(await ctx.kb(project_path ?? (projectAlias ? (args[projectAlias] as string | undefined) : undefined)), input as never, { allowSecret: !!allow_secret });
        return { text: op.text(r), data: op.json(r) };
      });
      // structured content must match the output schema, errors included (clients check it):
      // an error is told in its text
      if (res.isError) delete res.structuredContent;
      return res;
    },
  );
}
