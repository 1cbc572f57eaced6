import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { checkKnowledge } from '../../knowledge/check-knowledge.ts';
import { diagnosticLine } from '../../knowledge/diagnostics.ts';
import { diffRevisions, DiffInput } from '../../knowledge/diff/diff-revisions.ts';
import { renderDiffMarkdown } from '../../knowledge/diff/render-diff.ts';
import { proposeKnowledge, ProposeInput } from '../../knowledge/review/propose.ts';
import { common, reply, type ServerContext } from '../context.ts';
import { PUBLISH, READ } from './annotations.ts';

/** Reviewing knowledge: the semantic diff, the check CI runs, opening a knowledge pull request. */
export function registerReviewTools(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'axme_diff',
    {
      title: 'What changed in the knowledge',
      description: 'The semantic diff between two memory revisions (default: what this clone changed since it and the remote-tracking tip diverged): items added, superseded, revoked, archived, changed field by field, safety rules, questions opened and answered. Markdown.',
      inputSchema: { ...common, ...DiffInput.shape },
      annotations: READ,
    },
    (a) =>
      reply(ctx, async () => {
        const d = await diffRevisions(await ctx.kb(a.project_path), { from: a.from, to: a.to, remote: a.remote });
        return { text: renderDiffMarkdown(d), data: d };
      }),
  );
  server.registerTool(
    'axme_check',
    {
      title: 'Check the knowledge',
      description: 'Validate a memory revision as CI does on knowledge pull requests: schemas, unique IDs, supersession links, rule files, no credentials in content.',
      inputSchema: { ...common, rev: z.string().max(300).optional().describe('revision to check (default: refs/memory/main)') },
      annotations: READ,
    },
    (a) =>
      reply(ctx, async () => {
        const r = await checkKnowledge(await ctx.kb(a.project_path), { at: a.rev });
        const lines = r.findings.map((f) => `- ${diagnosticLine(f)}`);
        return { text: `${r.ok ? 'ok' : 'FAILED'} at ${r.commit.slice(0, 12)} (${r.scanned} files)${lines.length ? `\n${lines.join('\n')}` : ''}`, data: r };
      }),
  );
  server.registerTool(
    'axme_propose',
    {
      title: 'Open a knowledge pull request',
      description: 'Push the pending knowledge (this session\'s proposal when review is required, else refs/memory/main) to axme/proposals/<name> and open a pull request into axme/memory with the semantic diff as its body. Returns the PR URL.',
      inputSchema: { ...common, ...ProposeInput.shape },
      annotations: PUBLISH,
    },
    (a) =>
      reply(ctx, async () => {
        const r = await proposeKnowledge(await ctx.kb(a.project_path), { title: a.title, remote: a.remote, name: a.name, repo: a.repo, ref: a.ref }, { env: ctx.env });
        return { text: r.text, data: r };
      }),
  );
}
