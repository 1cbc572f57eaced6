import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { assembleContext } from '../../knowledge/views/context.ts';
import { workspaceStatus, workspaceText } from '../../knowledge/workspace/workspace-status.ts';
import { resolve } from 'node:path';
import { decisionDigest, decisionGet, memoryDigest, memoryGet, oracleDigest } from '../../operations/digests.ts';
import { status } from '../../operations/status.ts';
import { pageParam, readCommon, reply, type ServerContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';
import { READ } from './annotations.ts';

/** Session-start reads: context, oracle, decisions, memories, one item, status, workspace. */
export function registerReadTools(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'axme_context',
    {
      title: 'Project context',
      description: 'Call first in every session: safety rules, the latest handoff, open questions, backlog, required decisions, and what to load next. Paged.',
      inputSchema: { ...readCommon, ...pageParam, workspace_path: z.string().max(4096).optional().describe('AXME compatibility: same as project_path') },
      annotations: READ,
    },
    (a) =>
      reply(ctx, async () => {
        const r = await assembleContext(await ctx.kb(a.project_path ?? a.workspace_path), { at: a.at, page: a.page });
        return { text: r.text, data: { page: r.page, pages: r.pages, commit: r.commit, counts: r.counts } };
      }),
  );
  for (const op of [oracleDigest, decisionDigest, memoryDigest, decisionGet, memoryGet]) registerOperationTool(server, ctx, op);
  registerOperationTool(server, ctx, status);
  server.registerTool(
    'axme_workspace',
    {
      title: 'Workspace',
      description: 'The workspace this repository belongs to (a folder of repositories with a shared store, <workspace>/.axme.git): the workspace store and every repository, with their store tips and item counts. Outside a workspace: this one repository.',
      inputSchema: { path: z.string().max(4096).optional().describe('a repository or workspace folder (default: the server folder)') },
      annotations: READ,
    },
    (a) =>
      reply(ctx, async () => {
        const s = await workspaceStatus({ cwd: resolve(ctx.cwd, a.path ?? '.'), env: ctx.env });
        return { text: workspaceText(s), data: s };
      }),
  );
}
