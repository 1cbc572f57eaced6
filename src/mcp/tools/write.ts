import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { addDecision } from '../../knowledge/add-decision.ts';
import { addMemory } from '../../knowledge/add-memory.ts';
import { showSafety } from '../../knowledge/show-safety.ts';
import { supersedeDecision } from '../../knowledge/supersede-decision.ts';
import { updateSafety } from '../../knowledge/update-safety.ts';
import { safetyBlock } from '../../knowledge/digest.ts';
import { DecisionInput } from '../../model/decision.ts';
import { MemoryInput } from '../../model/memory.ts';
import { SafetyUpdate } from '../../model/safety-rules.ts';
import { common, readCommon, reply, writeCommon, type ServerContext } from '../context.ts';
import { EDIT, READ, SAVE } from './annotations.ts';

/** Saving decisions and memories; reading and changing safety rules; scanning the oracle. */
export function registerWriteTools(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'axme_save_decision',
    {
      title: 'Save a decision',
      description: 'Save an architectural decision as soon as it is made. An equal active decision is returned instead of a duplicate. To revise one, pass `supersedes` with its ID: the old one is kept in history as superseded.',
      inputSchema: { ...writeCommon, ...DecisionInput.shape, supersedes: z.string().max(200).optional().describe('ID or slug of the decision this one replaces') },
      annotations: SAVE,
    },
    (a) =>
      reply(ctx, async () => {
        const kb = await ctx.kb(a.project_path);
        const input = { title: a.title, decision: a.decision, reasoning: a.reasoning, enforce: a.enforce, scope: a.scope, tags: a.tags, anchors: a.anchors };
        if (a.supersedes) {
          const r = await supersedeDecision(kb, { ...input, id: a.supersedes }, { allowSecret: a.allow_secret });
          return { text: `Decision saved: ${r.item.id} - ${r.item.title} -> ${r.location} (supersedes ${r.superseded.id})`, data: r };
        }
        const r = await addDecision(kb, input, { allowSecret: a.allow_secret });
        return { text: [r, ...(r.others ?? [])].map((x) => `${x.duplicate ? 'Decision already stored' : 'Decision saved'}: ${x.item.id} - ${x.item.title} -> ${x.location}`).join('\n'), data: r };
      }),
  );
  server.registerTool(
    'axme_save_memory',
    {
      title: 'Save a memory',
      description: 'Save feedback (how the user wants work done) or a pattern (how this code does things). An equal active memory is returned instead of a duplicate.',
      inputSchema: { ...writeCommon, ...MemoryInput.shape },
      annotations: SAVE,
    },
    (a) =>
      reply(ctx, async () => {
        const r = await addMemory(await ctx.kb(a.project_path), { type: a.type, title: a.title, description: a.description, body: a.body, keywords: a.keywords, scope: a.scope }, { allowSecret: a.allow_secret });
        return { text: [r, ...(r.others ?? [])].map((x) => `${x.duplicate ? 'Memory already stored' : 'Memory saved'}: ${x.item.slug} (${x.item.type}) -> ${x.location}`).join('\n'), data: r };
      }),
  );
  server.registerTool(
    'axme_safety',
    { title: 'Safety rules', description: 'The safety rules the hooks enforce on every tool call.', inputSchema: readCommon, annotations: READ },
    (a) =>
      reply(ctx, async () => {
        const r = await showSafety(await ctx.kb(a.project_path), { at: a.at });
        return { text: `# Safety rules\n${safetyBlock(r.rules)}${r.diagnostics.length ? `\n\nProblems: ${r.diagnostics.map((d) => d.reason).join('; ')}` : ''}`, data: { rules: r.rules, diagnostics: r.diagnostics } };
      }),
  );
  server.registerTool(
    'axme_update_safety',
    {
      title: 'Change a safety rule',
      description: 'Add (or remove) a safety rule: a protected branch, a denied or allowed command prefix, a denied or read-only path.',
      inputSchema: { ...writeCommon, ...SafetyUpdate.shape },
      annotations: EDIT,
    },
    (a) =>
      reply(ctx, async () => {
        const action = a.action;
        const r = await updateSafety(await ctx.kb(a.project_path), { action, rule_type: a.rule_type, value: a.value });
        const verb = action === 'add' ? 'added' : 'removed';
        return { text: r.changed ? `Safety rule ${verb}: ${a.rule_type} = ${a.value}` : `Safety rule already present: ${a.rule_type} = ${a.value}`, data: r };
      }),
  );
  server.registerTool(
    'axme_oracle_scan',
    {
      title: 'Scan the project into the oracle',
      description: 'Detect the stack (languages, package managers, frameworks, test runners), structure (folders, entry points, workspaces) and patterns (lint/format, CI, agent instructions) of the working tree and write oracle/stack.md, structure.md, patterns.md in one commit. Hand-written text on the pages is kept; nothing new means no commit.',
      inputSchema: { ...common, dry_run: z.boolean().optional().describe('report what would change, commit nothing') },
      annotations: SAVE,
    },
    (a) =>
      reply(ctx, async () => {
        const { scanOracle } = await import('../../knowledge/oracle/scan-oracle.ts');
        const r = await scanOracle(await ctx.kb(a.project_path), { dryRun: a.dry_run });
        return { text: r.text, data: r };
      }),
  );
}
