import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { deeplyStrict } from '../model/strict-schema.ts';
import { afterOperation } from '../operations/after-operation.ts';
import { type AnyOperation, surfaceInput, textWithWarnings } from '../operations/operation.ts';
import { common, reply, type ServerContext, writeCommon } from './context.ts';
import { toolWords } from './tool-words.ts';

/**
 * The input schema of an operation's tool: `project_path` (and `allow_secret` for a write; an
 * operation on a folder, not a store, takes neither), the fields the tool takes, then the alias
 * of `project_path` when it has one.
 */
export function toolInput(op: AnyOperation): z.ZodRawShape {
  const extra = op.folder ? {} : op.write ? writeCommon : common;
  const alias = op.mcp?.projectAlias;
  return {
    ...extra,
    ...surfaceInput(op, 'mcp'),
    ...(alias ? { [alias]: z.string().max(4096).optional().describe('AXME compatibility: same as project_path') } : {}),
  };
}

/**
 * The input schema a tool checks its arguments with: `toolInput`, and nothing else. An unknown
 * argument (a misspelt `enforce`) is refused with its name and the arguments the tool takes,
 * never dropped without a word: a call that meant something the tool did not do must not pass as
 * done. No client axme serves adds arguments of its own (docs/mcp.md, "Behaviour common to all tools").
 */
export function toolArguments(op: AnyOperation, input: z.ZodRawShape = toolInput(op)): z.ZodObject {
  const accepted = Object.keys(input).join(', ');
  // a nested object's unknown field is refused as well (a close's decision with a misspelt enforce)
  const strictFields = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, deeplyStrict(v as z.ZodType)]));
  return z.strictObject(strictFields, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown argument${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}: ${op.mcp?.tool} takes ${accepted}`
        : undefined,
  });
}

/**
 * What a tool tells clients that load tools on demand. Claude Code lists an MCP tool to its model
 * by name only, behind its ToolSearch tool, unless the tool's `_meta` says `anthropic/alwaysLoad`;
 * its search reads `anthropic/searchHint` beside the name and description. The tools of the
 * session's own flow (`upFront`) are loaded up front, so the model calls them without a search
 * first; every tool gets its summary as the hint (docs/mcp.md, "Tools a client loads on demand").
 */
export function toolMeta(op: AnyOperation): Record<string, unknown> {
  return { 'anthropic/searchHint': op.summary, ...(op.mcp?.upFront ? { 'anthropic/alwaysLoad': true } : {}) };
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
 * The MCP clients (the name each gives at `initialize`) that hand their model a tool's structured
 * result, serialised as JSON, instead of its text whenever the tool declares an output schema:
 * Claude Code and Codex. Their models read axme's words line by line only when the tools declare
 * none and return the text alone, so that is what these clients get; every other client (Gemini
 * CLI, Cursor, VS Code, programs using the SDK) gets the output schemas and the structured result.
 */
const TEXT_FIRST_CLIENTS: ReadonlySet<string> = new Set(['claude-code', 'codex-mcp-client']);

/** Whether the client connected to `server` reads text only (TEXT_FIRST_CLIENTS); false before it said who it is. */
export function textFirstClient(server: McpServer): boolean {
  const name = (server as Partial<McpServer>).server?.getClientVersion()?.name;
  return name !== undefined && TEXT_FIRST_CLIENTS.has(name);
}

/** The tools registered by registerOperationTool, per server: their output schemas go when a text-first client connects. */
const registered = new WeakMap<object, RegisteredTool[]>();

/**
 * Serves `server`'s client the way it reads tool results: a text-first client (TEXT_FIRST_CLIENTS)
 * lists the tools without output schemas and gets text only. Call once the tools are registered;
 * it acts when the client has initialized, before it lists the tools.
 */
export function adaptToClient(server: McpServer): void {
  const inner = (server as Partial<McpServer>).server;
  if (!inner) return;
  const before = inner.oninitialized;
  inner.oninitialized = () => {
    if (textFirstClient(server)) for (const t of registered.get(server) ?? []) t.outputSchema = undefined;
    before?.();
  };
}

/**
 * The MCP tool of an operation: its input schema, its output schema, annotations and
 * description; the reply is the operation's text, and as structured content the same text
 * (`text`) with the operation's JSON — the same text and JSON the CLI prints. A text-first
 * client gets the text alone (adaptToClient).
 */
export function registerOperationTool(server: McpServer, ctx: ServerContext, op: AnyOperation): void {
  if (!op.mcp) throw new Error(`operation ${op.id} has no MCP tool`);
  const { tool, defaults = {}, projectAlias } = op.mcp;
  const input = toolInput(op);
  const taken = new Set(Object.keys(input));
  const handle: RegisteredTool = server.registerTool(
    tool,
    {
      title: op.summary,
      description: op.description,
      inputSchema: toolArguments(op, input),
      outputSchema: toolOutput(op),
      annotations: op.annotations,
      _meta: toolMeta(op),
    },
    async (args: Record<string, unknown>) => {
      const res = await reply(
        ctx,
        async () => {
          const { project_path, allow_secret, ...given } = args as Record<string, unknown> & { project_path?: string; allow_secret?: boolean };
          if (projectAlias) delete given[projectAlias];
          const input = { ...defaults, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
          if (op.folder) ctx.confine?.((input as { path?: string }).path);
          const onStore = async () => {
            const kb = await ctx.kb(project_path ?? (projectAlias ? (args[projectAlias] as string | undefined) : undefined));
            const r = await op.run(kb, input as never, { allowSecret: !!allow_secret });
            // the server answers again: what follows a write is done while the agent reads this answer
            void afterOperation(op, kb, { answersAgain: true });
            return r;
          };
          const r = op.folder ? await op.run({ cwd: ctx.cwd, env: ctx.env }, input as never) : await onStore();
          // a save's warnings follow its answer: text-first clients read only the text
          const text = textWithWarnings(op.text(r), r);
          return { text, data: { text, ...op.json(r) } };
        },
        (message) => toolWords(op, taken, message),
      );
      if (!textFirstClient(server)) return res;
      // the text alone; the schema goes too (the SDK checks a result against it), in case the client called before it initialized
      handle.outputSchema = undefined;
      const { structuredContent: _, ...text } = res;
      return text;
    },
  );
  registered.set(server, [...(registered.get(server) ?? []), handle]);
}
