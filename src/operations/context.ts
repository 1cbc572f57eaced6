import { z } from 'zod';
import type { ContextResult } from '../knowledge/views/context.ts';
import { defineOperation, READ } from './operation.ts';
import { atParam, budgetParam, pageParam } from './params.ts';

/** context: `axme context`, `axme_context` (which also takes AXME's `workspace_path` for `project_path`). */
export const context = defineOperation({
  id: 'context',
  summary: 'Project context',
  description:
    "Call first in every session: a bounded overview (at most 12,000 characters on page 1, whatever the store's size) — the latest handoff, open questions, the safety rules, required decisions by title, the items relevant to the branch and the files changed, the other decisions by title, the backlog's top — each item one line with its id, and which tool gives more. Paged.",
  input: { at: atParam, page: pageParam, budget: budgetParam },
  output: z.looseObject({
    page: z.number().describe('this page (1-based)'),
    pages: z.number().describe('how many pages there are'),
    commit: z.string().describe('the commit read'),
    counts: z.record(z.string(), z.number()).describe('items by kind'),
  }),
  annotations: READ,
  write: false,
  // the page budget is the CLI's own (the tool pages at axme.yaml context.budget)
  mcp: { tool: 'axme_context', omit: ['budget'], projectAlias: 'workspace_path', upFront: true },
  async run(kb, input): Promise<ContextResult> {
    const { assembleContext } = await import('../knowledge/views/context.ts');
    const { workFocus } = await import('../knowledge/views/work-focus.ts');
    const { wroteHandoffHere } = await import('../session/ran-here.ts');
    // the branch and the files changed say which items to list as relevant (an earlier revision has no such focus);
    // the handoff is one this clone wrote, a teammate's newer one named beside it
    const now = input.at === undefined;
    return assembleContext(kb, {
      at: input.at,
      page: input.page,
      budget: input.budget,
      focus: now ? await workFocus(kb) : undefined,
      ownHandoff: now ? wroteHandoffHere(kb.repo.commonDir) : undefined,
    });
  },
  cli: {
    command: ['context'],
    describe: 'the session-start overview an agent gets from axme_context',
    // the page as it is, its text included
    json: (r) => r,
  },
  json: (r) => ({ page: r.page, pages: r.pages, commit: r.commit, counts: r.counts }),
  text: (r) => r.text,
});
