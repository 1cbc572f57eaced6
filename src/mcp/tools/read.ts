import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { assembleContext } from '../../knowledge/context.ts';
import { readDigest } from '../../knowledge/read-digest.ts';
import { showItem } from '../../knowledge/show-item.ts';
import { workspaceStatus, workspaceText } from '../../knowledge/workspace/workspace-status.ts';
import { resolve } from 'node:path';
import { decisionBlock, memoryBlock } from '../../knowledge/digest.ts';
import type { Decision } from '../../model/decision.ts';
import type { Memory } from '../../model/memory.ts';
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
  for (const [name, kind, title, description] of [
    ['axme_oracle', 'oracle', 'Project oracle', 'The stack, structure, patterns and glossary of the project. Paged.'],
    ['axme_decisions', 'decision', 'Decisions', 'Current architectural decisions, required ones first (superseded or revoked ones are never listed). Paged.'],
    ['axme_memories', 'memory', 'Memories', 'Current feedback memories (how to work here) and pattern memories (how the code is done). Paged.'],
  ] as const) {
    server.registerTool(name, { title, description, inputSchema: { ...readCommon, ...pageParam }, annotations: READ }, (a) =>
      reply(ctx, async () => {
        const r = await readDigest(await ctx.kb(a.project_path), { kind, at: a.at, page: a.page });
        return { text: r.text, data: { page: r.page, pages: r.pages, total: r.total, commit: r.commit, items: r.items } };
      }),
    );
  }
  server.registerTool(
    'axme_get_decision',
    { title: 'One decision', description: 'A decision by ID (D-001), alias or slug, in full.', inputSchema: { ...readCommon, id_or_slug: z.string().min(1).max(200).describe('D-001, an alias or a slug') }, annotations: READ },
    (a) =>
      reply(ctx, async () => {
        const r = await showItem<Decision>(await ctx.kb(a.project_path), { kind: 'decision', ref: a.id_or_slug, at: a.at });
        return { text: `${decisionBlock(r.item, r.store)}\nStatus: ${r.item.status}${r.item.superseded_by ? ` (superseded by ${r.item.superseded_by})` : ''}\nSource: ${r.location}`, data: { ...r.item, path: r.path, location: r.location, ...(r.store ? { store: r.store } : {}) } };
      }),
  );
  server.registerTool(
    'axme_get_memory',
    { title: 'One memory', description: 'A memory by slug, in full.', inputSchema: { ...readCommon, slug: z.string().min(1).max(200).describe('the memory slug') }, annotations: READ },
    (a) =>
      reply(ctx, async () => {
        const r = await showItem<Memory>(await ctx.kb(a.project_path), { kind: 'memory', ref: a.slug, at: a.at });
        return { text: `${memoryBlock(r.item, r.store)}\nStatus: ${r.item.status}\nSource: ${r.location}`, data: { ...r.item, path: r.path, location: r.location, ...(r.store ? { store: r.store } : {}) } };
      }),
  );
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
