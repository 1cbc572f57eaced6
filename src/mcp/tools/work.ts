import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { addBacklogItem } from '../../knowledge/add-backlog-item.ts';
import { answerQuestion } from '../../knowledge/answer-question.ts';
import { askQuestion } from '../../knowledge/ask-question.ts';
import { listItems } from '../../knowledge/list-items.ts';
import { showItem } from '../../knowledge/show-item.ts';
import { updateBacklogItem } from '../../knowledge/update-backlog-item.ts';
import { updateQuestionStatus } from '../../knowledge/update-question.ts';
import { backlogLine, questionBlock } from '../../knowledge/digest.ts';
import { BACKLOG_STATUSES, BacklogInput, BacklogUpdate, type BacklogItem } from '../../model/backlog.ts';
import { QuestionAnswer, QuestionInput, QuestionStatusUpdate } from '../../model/question.ts';
import { common, readCommon, reply, writeCommon, type ServerContext } from '../context.ts';
import { EDIT, READ, SAVE } from './annotations.ts';

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
  server.registerTool(
    'axme_backlog_add',
    { title: 'Add to the backlog', description: 'Record work to do later.', inputSchema: { ...writeCommon, ...BacklogInput.shape }, annotations: SAVE },
    (a) =>
      reply(ctx, async () => {
        const r = await addBacklogItem(await ctx.kb(a.project_path), { title: a.title, description: a.description, priority: a.priority, tags: a.tags, scope: a.scope }, { allowSecret: a.allow_secret });
        return { text: [r, ...(r.others ?? [])].map((x) => `${x.duplicate ? 'Backlog item exists' : 'Backlog item created'}: ${x.item.id} - ${x.item.title} (${x.item.priority})${x.store ? ` in ${x.store}` : ''}`).join('\n'), data: r };
      }),
  );
  server.registerTool(
    'axme_backlog_update',
    { title: 'Update a backlog item', description: 'Change status, priority or tags, or append a dated note.', inputSchema: { ...writeCommon, ...BacklogUpdate.shape }, annotations: EDIT },
    (a) =>
      reply(ctx, async () => {
        const r = await updateBacklogItem(await ctx.kb(a.project_path), { id: a.id, status: a.status, priority: a.priority, notes: a.notes, tags: a.tags }, { allowSecret: a.allow_secret });
        return { text: `${r.changed ? 'Backlog item updated' : 'Backlog item unchanged'}: ${r.item.id} - ${r.item.title} [${r.item.status}, ${r.item.priority}]`, data: r };
      }),
  );
  server.registerTool(
    'axme_ask_question',
    { title: 'Ask the user a question', description: 'Record a question only the user can answer; it is shown at the start of every session until answered.', inputSchema: { ...writeCommon, ...QuestionInput.shape }, annotations: SAVE },
    (a) =>
      reply(ctx, async () => {
        const r = await askQuestion(await ctx.kb(a.project_path), { question: a.question, context: a.context }, { allowSecret: a.allow_secret });
        return { text: `Question recorded: ${r.item.id} [${r.item.status}]`, data: r };
      }),
  );
  server.registerTool(
    'axme_list_open_questions',
    { title: 'Open questions', description: 'Questions waiting for the user.', inputSchema: readCommon, annotations: READ },
    (a) =>
      reply(ctx, async () => {
        const r = await listItems(await ctx.kb(a.project_path), { kind: 'question', at: a.at });
        return { text: r.items.length ? `# Open questions (${r.items.length})\n${r.items.map(questionBlock).join('\n')}` : 'No open questions.', data: { items: r.items } };
      }),
  );
  server.registerTool(
    'axme_answer_question',
    { title: 'Answer a question', description: "Record the user's answer to a question.", inputSchema: { ...writeCommon, ...QuestionAnswer.shape }, annotations: EDIT },
    (a) =>
      reply(ctx, async () => {
        const r = await answerQuestion(await ctx.kb(a.project_path), { question_id: a.question_id, answer: a.answer }, { allowSecret: a.allow_secret });
        return { text: `Question answered: ${r.item.id} [${r.item.status}]`, data: r };
      }),
  );
  server.registerTool(
    'axme_update_question',
    {
      title: 'Move a question along its lifecycle',
      description: 'Mark an answered question applied (its answer was acted on), archive a question that no longer matters, or reopen one. open -> answered (axme_answer_question) -> applied -> archived.',
      inputSchema: { ...common, ...QuestionStatusUpdate.shape },
      annotations: EDIT,
    },
    (a) =>
      reply(ctx, async () => {
        const r = await updateQuestionStatus(await ctx.kb(a.project_path), { question_id: a.question_id, status: a.status });
        return { text: `${r.changed ? 'Question updated' : 'Question unchanged'}: ${r.item.id} [${r.item.status}]`, data: r };
      }),
  );
}
