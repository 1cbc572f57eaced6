import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { beginClose } from '../../knowledge/begin-close.ts';
import { finalizeClose } from '../../knowledge/finalize-close.ts';
import { FinalizeCloseInput } from '../../model/close.ts';
import { common, reply, writeCommon, type ServerContext } from '../context.ts';
import { EDIT, READ } from './annotations.ts';

/** Closing a session: the extraction checklist, then everything in one commit. */
export function registerSessionTools(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'axme_begin_close',
    { title: 'Begin closing the session', description: 'What to extract before the session ends, with what is already stored (to avoid duplicates). Then call axme_finalize_close once.', inputSchema: common, annotations: READ },
    (a) =>
      reply(ctx, async () => {
        const r = await beginClose(await ctx.kb(a.project_path));
        return { text: r.text, data: r };
      }),
  );
  server.registerTool(
    'axme_finalize_close',
    {
      title: 'Finalize the session',
      description: 'Store everything extracted this session (decisions, memories, safety rules), the handoff for the next session and the worklog entry: ONE commit. Returns what was stored.',
      inputSchema: { ...writeCommon, ...(FinalizeCloseInput.shape as Record<string, z.ZodType>) },
      annotations: EDIT,
    },
    (a: Record<string, unknown> & { project_path?: string; allow_secret?: boolean }) =>
      reply(ctx, async () => {
        const { project_path, allow_secret, ...input } = a;
        const r = await finalizeClose(await ctx.kb(project_path), input, { allowSecret: allow_secret });
        return { text: r.text, data: r };
      }),
  );
}
