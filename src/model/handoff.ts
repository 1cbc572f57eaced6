import { z } from 'zod';
import { baseFields } from './common.ts';
import type { KindSpec } from './kind.ts';
import { handoffKind } from './kinds/handoff.ts';
import { Slug } from './slug.ts';
import { listEntry, longText } from './text.ts';

export const HANDOFF_SOURCES = ['agent', 'auditor', 'recovered'] as const;

export const PullRequestRef = z.object({
  title: z.string().max(300).describe('PR title'),
  url: z.string().max(500).default('').describe('PR URL'),
  status: z.string().max(40).default('open').describe('open, merged, closed, draft, ...'),
});

/** What the next session needs to continue: `handoffs/<session>.md` (slug = session id). */
export const Handoff = z.object({
  slug: Slug,
  stopped_at: longText('where work stopped, in one line').default(''),
  startup_text: longText('what the agent says to the user at the next start').default(''),
  prs: z.array(PullRequestRef).default([]).describe('pull requests touched in the session'),
  dirty_branches: z.array(listEntry).default([]).describe('branches with uncommitted or unpushed work'),
  summary: longText('what was done').default(''),
  in_progress: longText('what is half done').default(''),
  next_steps: longText('what to do next').default(''),
  test_results: longText('last test results').default(''),
  blockers: longText('what blocks progress').default(''),
  author: listEntry
    .optional()
    .describe(
      "the git identity (email) of who wrote it: a close prunes only its writer's older handoffs, never a teammate's (absent on handoffs written before)",
    ),
  ...baseFields,
  source: z.enum(HANDOFF_SOURCES).default('agent').describe('agent (written at close), auditor or recovered (orphan recovery)'),
});
export type Handoff = z.infer<typeof Handoff>;

export const handoffSpec: KindSpec<Handoff> = {
  ...handoffKind,
  schema: Handoff,
  fields: ['session', 'source', 'author', 'stopped_at', 'startup_text', 'prs', 'dirty_branches', 'created', 'updated'],
  lead: 'summary',
  sections: [
    ['In Progress', 'in_progress'],
    ['Next Steps', 'next_steps'],
    ['Test Results', 'test_results'],
    ['Blockers', 'blockers'],
  ],
};
