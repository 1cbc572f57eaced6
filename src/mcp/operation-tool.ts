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

/** The reply's own words in the structured result: what the agent reads in clients that show it that. */
const replyText = z.string().describe("the reply in words, as the tool's text content says it: what the agent reads");

/**
 * The output schema of an operation's tool: `text` first, then the operation's JSON. Claude Code
 * and Codex hand the model a tool's structured result instead of its text whenever the tool
 * declares an output schema, so the words the agent must read (the handoff, the rules, "Decision
 * saved: …", paging hints) travel in `text`; programs keep every field of the JSON beside it.
 */
export function toolOutput(op: AnyOperation): z.ZodObject {
  if (!(op.output instanceof z.ZodObject)) throw new Error(`operation ${op.id}: its output must be an object schema to carry the reply's text`);
  const out = z.object({ text: replyText, ...(op.output.shape as z.ZodRawShape) });
  // a loose result (an item's own fields) stays loose
  const rest = op.output._zod.def.catchall;
  return rest ? out.catchall(rest) : out;
}

/**
 * The MCP tool of an operation: its input schema, its output schema, annotations and
 * description; the reply is the operation's text, and as structured content the same text
 * (`text`) with the operation's JSON — the same text and JSON the CLI prints.
 */
export function registerOperationTool(server: McpServer, ctx: ServerContext, op: AnyOperation): void {
  if (!op.mcp) throw new Error(`operation ${op.id} has no MCP tool`);
  const { tool, defaults = {}, projectAlias } = op.mcp;
  server.registerTool(
    tool,
    { title: op.summary, description: op.description, inputSchema: toolInput(op), outputSchema: toolOutput(op), annotations: op.annotations },
    (args: Record<string, unknown>) =>
      reply(ctx, async () => {
        const { project_path, allow_secret, ...given } = args as Record<string, unknown> & { project_path?: string; allow_secret?: boolean };
        if (projectAlias) delete given[projectAlias];
        const input = { ...defaults, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
        if (op.folder) ctx.confine?.((input as { path?: string }).path);
        const r = op.folder
          ? await op.run({ cwd: ctx.cwd, env: ctx.env }, input as never)
          : await op.run(await ctx.kb(project_path ?? (projectAlias ? (args[projectAlias] as string | undefined) : undefined)), input as never, { allowSecret: !!allow_secret });
        const text = op.text(r);
        return { text, data: { text, ...op.json(r) } };
      }),
  );
}
