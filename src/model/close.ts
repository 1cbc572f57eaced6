import { z } from 'zod';
import { DecisionInput } from './decision.ts';
import { PullRequestRef } from './handoff.ts';
import { MemoryInput } from './memory.ts';
import { SafetyRuleChange } from './safety-rules.ts';
import { listEntry, longText, stringList } from './text.ts';

/** A decision extracted from a session: a new one, or one that supersedes an existing decision (what the auditor finds). */
export const ExtractedDecision = DecisionInput.extend({
  action: z.enum(['add', 'supersede']).default('add').describe('add a new decision, or supersede an existing one'),
  supersedes: z.string().optional().describe('with action supersede: ID or slug of the decision it replaces'),
});

/**
 * A decision at close: a new one, one that supersedes an existing decision, or the removal
 * (revocation) of one. The content fields are required for add and supersede; remove takes `id`
 * and `reason` alone (finalize-close checks each entry by its action).
 */
export const CloseDecision = DecisionInput.partial().extend({
  action: z
    .enum(['add', 'supersede', 'remove'])
    .default('add')
    .describe('add a new decision (title and decision required), supersede an existing one (also `supersedes`), or remove one (revoke it: `id` and `reason`)'),
  supersedes: z.string().max(200).optional().describe('with action supersede: ID or slug of the decision it replaces'),
  id: z.string().max(200).optional().describe('with action remove: ID or slug of the decision to revoke'),
  reason: z.string().max(2000).optional().describe('with action remove: why the decision no longer holds'),
});

/**
 * A memory at close: a new one, one that supersedes an existing memory, or the removal (archive)
 * of one. The content fields are required for add and supersede; remove takes `slug` alone.
 */
export const CloseMemory = MemoryInput.partial().extend({
  action: z
    .enum(['add', 'supersede', 'remove'])
    .default('add')
    .describe('add a new memory (type, title and description required), supersede an existing one (also `supersedes`), or remove one (archive it: `slug`)'),
  supersedes: z.string().max(200).optional().describe('with action supersede: slug of the memory it replaces'),
  slug: z.string().max(200).optional().describe('with action remove: slug of the memory to archive'),
});

/** A safety rule change made at close. */
export const CloseSafetyRule = SafetyRuleChange.extend({
  action: z.enum(['add', 'remove', 'supersede']).default('add').describe('add the value, remove it, or supersede (replace) the value named in `replaces`'),
  replaces: listEntry.optional().describe('with action supersede: the value being replaced'),
});

/**
 * What a session yields: new memories and decisions (a decision may supersede one), safety rule
 * changes, the handoff and the worklog. The auditor's answer has this shape (model/audit.ts): it
 * adds and asks, it never retires an item.
 */
export const SessionExtractions = z.object({
  memories: z.array(MemoryInput).max(50).default([]).describe('feedback and pattern memories learned this session'),
  decisions: z.array(ExtractedDecision).max(50).default([]).describe('decisions made this session'),
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

/**
 * Everything axme_finalize_close takes (AXME Code's parameter set): the session's extractions,
 * where a memory or a decision may also supersede or remove a stored one. One call = one commit.
 */
export const FinalizeCloseInput = SessionExtractions.extend({
  memories: z
    .array(CloseMemory)
    .max(50)
    .default([])
    .describe('feedback and pattern memories learned this session; also memories superseded or removed (action)'),
  decisions: z.array(CloseDecision).max(50).default([]).describe('decisions made this session; also decisions superseded or removed (action)'),
});
export type FinalizeCloseInput = z.input<typeof FinalizeCloseInput>;
