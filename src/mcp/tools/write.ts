import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { addDecision } from '../../knowledge/add-decision.ts';
import { showSafety } from '../../knowledge/show-safety.ts';
import { supersedeDecision } from '../../knowledge/supersede-decision.ts';
import { updateSafety } from '../../knowledge/update-safety.ts';
import { safetyBlock } from '../../knowledge/digest.ts';
import { DecisionInput } from '../../model/decision.ts';
import { decisionAdd } from '../../operations/decision-add.ts';
import { memoryAdd } from '../../operations/memory-add.ts';
import { registerOperationTool } from '../operation-tool.ts';
import { SafetyUpdate } from '../../model/safety-rules.ts';
import { common, readCommon, reply, writeCommon, type ServerContext } from '../context.ts';
import { EDIT, READ, SAVE } from './annotations.ts';

/** Saving decisions and memories; reading and changing safety rules; scanning the oracle. */
export function registerWriteTools(server: McpServer, ctx: ServerContext): void {
  registerOperationTool(server, ctx, decisionAdd);
  registerOperationTool(server, ctx, memoryAdd);
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
