import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { itemHistory } from '../../knowledge/item-history.ts';
import { searchKnowledge } from '../../knowledge/search.ts';
import { SearchInput } from '../../model/search.ts';
import { worklog } from '../../knowledge/worklog.ts';
import { readCommon, reply, type ServerContext } from '../context.ts';
import { READ } from './annotations.ts';

/** Search, the worklog and one item's history: the git-native reads. */
export function registerHistoryTools(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'axme_search_kb',
    { title: 'Search the knowledge', description: 'Ranked search over decisions and memories (and backlog/questions with `type`). Each result cites git:<commit>:<path>.', inputSchema: { ...readCommon, ...SearchInput.shape }, annotations: READ },
    (a) =>
      reply(ctx, async () => {
        const r = await searchKnowledge(await ctx.kb(a.project_path), { query: a.query, k: a.k, type: a.type, at: a.at });
        const lines = r.hits.map((h, i) => `${i + 1}. ${h.id ? `${h.id} ` : ''}${h.title} [${h.kind}${h.status === 'active' ? '' : `, ${h.status}`}]${h.via ? ` (replaces ${h.via})` : ''}\n   ${h.snippet}\n   ${h.citation}`);
        return { text: r.hits.length ? `# ${r.hits.length} of ${r.total} matches for "${a.query}"\n${lines.join('\n')}` : `No matches for "${a.query}".`, data: r };
      }),
  );
  const logTool = (name: string, description: string, extra: Record<string, z.ZodType>) =>
    server.registerTool(name, { title: 'Worklog', description, inputSchema: { ...readCommon, limit: z.number().int().min(1).max(1000).optional().describe('at most this many entries (default 20)'), ...extra }, annotations: READ }, (a: { project_path?: string; at?: string; limit?: number; since?: string }) =>
      reply(ctx, async () => {
        const entries = await worklog(await ctx.kb(a.project_path), { limit: a.limit ?? 20, since: a.since, at: a.at });
        return { text: entries.map((e) => `${e.commit.slice(0, 12)} ${e.date} ${e.actor ?? '-'}: ${e.subject}`).join('\n') || 'No entries.', data: { entries } };
      }),
    );
  logTool('axme_worklog', 'What happened to the knowledge, newest first: one line per commit of refs/memory/main.', {});
  logTool('axme_log', 'The commits of refs/memory/main with their trailers (actor, event, items), newest first.', { since: z.string().max(200).optional().describe('only changes since this date ("2026-01-31", "2 days ago")') });
  server.registerTool(
    'axme_history',
    { title: 'History of one item', description: "Every version of one item (by ID, slug, alias or path), newest first, with commit, date, actor and the diff from the version before.", inputSchema: { ...readCommon, id_or_slug: z.string().min(1).max(300).describe('D-001, a slug, an alias, or a path like safety/rules.yaml') }, annotations: READ },
    (a) =>
      reply(ctx, async () => {
        const r = await itemHistory(await ctx.kb(a.project_path), { ref: a.id_or_slug, at: a.at, patch: true });
        const text = [`# History of ${r.path} (${r.versions.length} versions)`, ...r.versions.map((v) => `## ${v.commit.slice(0, 12)} ${v.date} ${v.actor ?? '-'} ${v.change}: ${v.subject}\n${v.patch ?? ''}`)].join('\n\n');
        return { text, data: { path: r.path, versions: r.versions.map(({ text: _t, ...v }) => v) } };
      }),
  );
}
