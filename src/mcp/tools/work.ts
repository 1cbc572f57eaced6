import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { listItems } from '../../knowledge/list-items.ts';
import { showItem } from '../../knowledge/show-item.ts';
import { backlogLine, questionBlock } from '../../knowledge/digest.ts';
import { BACKLOG_STATUSES, type BacklogItem } from '../../model/backlog.ts';
import { backlogAdd, backlogUpdate } from '../../operations/backlog.ts';
import { questionAnswer, questionAsk, questionStatus } from '../../operations/question.ts';
import { readCommon, reply, type ServerContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';
import { READ } from './annotations.ts';

/** The backlog and the open questions. */
export function registerWorkTools(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'axme_backlog',
    {
      title: 'Backlog',
      description: 'Backlog items (not done ones by default), or one item in full by `id`.',
      inputSchema: { ...readCommon, status: z.enum(BACKLOG_STATUSES).optional().describe('only this status'), id: z.string().max(200).optional().describe('B-001 or a slug: show this item') },
      annotations: READ,
    },
    (a) =>
      reply(ctx, async () => {
        const kb = await ctx.kb(a.project_path);
        if (a.id) {
          const r = await showItem<BacklogItem>(kb, { kind: 'backlog', ref: a.id, at: a.at });
          return { text: r.text, data: { ...r.item, path: r.path, location: r.location } };
        }
        const r = await listItems(kb, { kind: 'backlog', at: a.at, status: a.status ? [a.status] : undefined });
        return { text: r.items.length ? `# Backlog (${r.items.length})\n${r.items.map(backlogLine).join('\n')}` : '# Backlog\nNothing here.', data: { items: r.items } };
      }),
  );
  registerOperationTool(server, ctx, backlogAdd);
  registerOperationTool(server, ctx, backlogUpdate);
  registerOperationTool(server, ctx, questionAsk);
  server.registerTool(
    'axme_list_open_questions',
    { title: 'Open questions', description: 'Questions waiting for the user.', inputSchema: readCommon, annotations: READ },
    (a) =>
      reply(ctx, async () => {
        const r = await listItems(await ctx.kb(a.project_path), { kind: 'question', at: a.at });
        return { text: r.items.length ? `# Open questions (${r.items.length})\n${r.items.map(questionBlock).join('\n')}` : 'No open questions.', data: { items: r.items } };
      }),
  );
  registerOperationTool(server, ctx, questionAnswer);
  registerOperationTool(server, ctx, questionStatus);
}
