import { z } from 'zod';
import { DecisionInput } from './decision.ts';
import { PullRequestRef } from './handoff.ts';
import { MemoryInput } from './memory.ts';
import { SafetyRuleChange } from './safety-rules.ts';
import { listEntry, longText, stringList } from './text.ts';

/** A decision extracted at close: a new one, or one that supersedes an existing decision. */
export const CloseDecision = DecisionInput.extend({
  action: z.enum(['add', 'supersede']).default('add').describe('add a new decision, or supersede an existing one'),
  supersedes: z.string().optional().describe('with action supersede: ID or slug of the decision it replaces'),
});

/** A safety rule change made at close. */
export const CloseSafetyRule = SafetyRuleChange.extend({
  action: z.enum(['add', 'remove', 'supersede']).default('add').describe('add the value, remove it, or supersede (replace) the value named in `replaces`'),
  replaces: listEntry.optional().describe('with action supersede: the value being replaced'),
});

/** Everything axme_finalize_close takes (AXME Code's parameter set). One call = one commit. */
export const FinalizeCloseInput = z.object({
  memories: z.array(MemoryInput).max(50).default([]).describe('feedback and pattern memories learned this session'),
  decisions: z.array(CloseDecision).max(50).default([]).describe('decisions made this session'),
  safety_rules: z.array(CloseSafetyRule).max(50).default([]).describe('safety rule changes agreed this session'),
  stopped_at: longText('where work stopped, in one line').default(''),
  summary: longText('what was done this session').default(''),
  in_progress: longText('what is half done').default(''),
  next_steps: longText('what the next session should do first').default(''),
  worklog_entry: longText('the narrative of the session, for the worklog').default(''),
  startup_text: longText('what to tell the user at the start of the next session').default(''),
  prs: z.array(PullRequestRef).max(50).default([]).describe('pull requests touched: title, url, status'),
  test_results: longText('the last test results').default(''),
  blockers: longText('what blocks progress').default(''),
  dirty_branches: stringList('branches with uncommitted or unpushed work').default([]),
});
export type FinalizeCloseInput = z.input<typeof FinalizeCloseInput>;
