import { z } from 'zod';
import { anchorList, LearnedAt, LearnedContent, ReconfirmedBy } from './anchor.ts';
import { baseFields, Scope, Timestamp } from './common.ts';
import { displayId } from './ids.ts';
import type { KindSpec } from './kind.ts';
import { decisionKind } from './kinds/decision.ts';
import { Slug } from './slug.ts';
import { listEntry, longText, stringList, titleText } from './text.ts';

export const DECISION_STATUSES = ['active', 'superseded', 'revoked'] as const;
export const ENFORCE = ['required', 'advisory'] as const;

/** An architectural decision: `decisions/<slug>.md`. */
export const Decision = z.object({
  slug: Slug,
  id: displayId(decisionKind.idPrefix),
  title: titleText('short name of the decision'),
  decision: longText('what was decided'),
  reasoning: longText('why it was decided').default(''),
  enforce: z.enum(ENFORCE).default('advisory').describe('required: agents must follow it; advisory: a strong default'),
  status: z.enum(DECISION_STATUSES).default('active').describe('active, superseded (by a newer decision) or revoked'),
  scope: Scope.optional(),
  supersedes: z.array(Slug).default([]).describe('slugs of the decisions this one replaces'),
  superseded_by: Slug.optional().describe('slug of the decision that replaced this one'),
  revoked_at: Timestamp.optional().describe('when the decision was revoked'),
  revoked_reason: longText('why the decision was revoked').optional(),
  aliases: z.array(displayId(decisionKind.idPrefix)).default([]).describe('earlier display IDs (after a renumbering merge)'),
  anchors: z.array(listEntry).default([]).describe('what the decision is about in the code: paths, globs, path#symbol, dep:<name>'),
  learned_at: LearnedAt.optional(),
  learned_content: LearnedContent.optional(),
  reconfirmed_by: ReconfirmedBy.optional(),
  tags: z.array(listEntry).default([]).describe('free-form labels'),
  ...baseFields,
});
export type Decision = z.infer<typeof Decision>;

export const decisionSpec: KindSpec<Decision> = {
  ...decisionKind,
  schema: Decision,
  fields: [
    'id',
    'title',
    'status',
    'enforce',
    'scope',
    'tags',
    'anchors',
    'learned_at',
    'learned_content',
    'reconfirmed_by',
    'supersedes',
    'superseded_by',
    'revoked_at',
    'revoked_reason',
    'aliases',
    'source',
    'session',
    'created',
    'updated',
  ],
  lead: 'decision',
  sections: [['Reasoning', 'reasoning']],
};

/** Parameters of "save a decision" (AXME's axme_save_decision plus tags/anchors). */
export const DecisionInput = z.object({
  title: titleText('short name of the decision, e.g. "Use Valkey for caching"'),
  decision: longText('what was decided, in a sentence or a short paragraph').refine((v) => v.trim() !== '', 'must not be empty'),
  reasoning: longText('why: the forces, the alternatives rejected').default(''),
  // No defaults here: a revision must tell "not given" (carry over) from a value. The stored
  // Decision schema applies the defaults (advisory, no tags, no anchors).
  enforce: z.enum(ENFORCE).optional().describe('required: agents must follow it; advisory (default): a strong default'),
  scope: Scope.optional(),
  tags: stringList('free-form labels').optional(),
  anchors: anchorList('what the decision is about in the code: paths, globs, path#symbol, dep:<name> (`axme verify` tells when they change)').optional(),
});
export type DecisionInput = z.input<typeof DecisionInput>;

/** Parameters of revoking a decision. */
export const RevokeInput = z.object({
  id: z.string().min(1).describe('ID (D-001), alias or slug of the decision'),
  reason: longText('why the decision no longer holds').refine((v) => v.trim() !== '', 'say why the decision is revoked'),
});
export type RevokeInput = z.input<typeof RevokeInput>;

/**
 * What amending a decision may change: its wording (title, decision text, reasoning) and its tags.
 * What the decision binds — enforcement, scope, anchors, status — is not here: changing those is
 * a new decision (supersede), so an amend can never loosen or move a decision. Unknown fields are
 * refused rather than dropped, so `enforce` given to an amend is an error, not a silent no-op.
 */
export const AmendInput = z.strictObject({
  id: z.string().min(1).max(200).describe('ID (D-001), alias or slug of the decision'),
  title: titleText('the corrected title').optional(),
  decision: longText('the corrected decision text')
    .refine((v) => v.trim() !== '', 'must not be empty')
    .optional(),
  reasoning: longText('the corrected reasoning').optional(),
  tags: stringList('the new tags (replace the old ones)').optional(),
});
export type AmendInput = z.input<typeof AmendInput>;
