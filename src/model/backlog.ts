import { z } from 'zod';
import { anchorList, LearnedAt, LearnedContent, ReconfirmedBy } from './anchor.ts';
import { baseFields, Scope } from './common.ts';
import { displayId } from './ids.ts';
import type { KindSpec } from './kind.ts';
import { backlogKind } from './kinds/backlog.ts';
import { Slug } from './slug.ts';
import { listEntry, longText, stringList, titleText } from './text.ts';

export const BACKLOG_STATUSES = ['open', 'in-progress', 'done', 'blocked'] as const;
export const PRIORITIES = ['high', 'medium', 'low'] as const;

/** A backlog item: `backlog/<slug>.md`. */
export const BacklogItem = z.object({
  slug: Slug,
  id: displayId(backlogKind.idPrefix),
  title: titleText('short name of the work'),
  description: longText('what is to be done and why').default(''),
  status: z.enum(BACKLOG_STATUSES).default('open').describe('open, in-progress, done or blocked'),
  priority: z.enum(PRIORITIES).default('medium').describe('high, medium or low'),
  tags: z.array(listEntry).default([]).describe('free-form labels'),
  scope: Scope.optional(),
  notes: longText('progress notes, newest last').default(''),
  anchors: z.array(listEntry).default([]).describe('what the work is about in the code: paths, globs, path#symbol, dep:<name>'),
  learned_at: LearnedAt.optional(),
  learned_content: LearnedContent.optional(),
  reconfirmed_by: ReconfirmedBy.optional(),
  aliases: z.array(displayId(backlogKind.idPrefix)).default([]).describe('earlier display IDs (after a renumbering merge)'),
  ...baseFields,
});
export type BacklogItem = z.infer<typeof BacklogItem>;

export const backlogSpec: KindSpec<BacklogItem> = {
  ...backlogKind,
  schema: BacklogItem,
  fields: [
    'id',
    'title',
    'status',
    'priority',
    'tags',
    'scope',
    'anchors',
    'learned_at',
    'learned_content',
    'reconfirmed_by',
    'aliases',
    'source',
    'session',
    'created',
    'updated',
  ],
  lead: 'description',
  sections: [['Notes', 'notes']],
};

/** Parameters of "add a backlog item" (AXME's axme_backlog_add). */
export const BacklogInput = z.object({
  title: titleText('short name of the work'),
  description: longText('what is to be done and why').default(''),
  priority: z.enum(PRIORITIES).default('medium').describe('high, medium or low'),
  tags: stringList('free-form labels').default([]),
  scope: Scope.optional(),
  anchors: anchorList('what the work is about in the code: paths, globs, path#symbol, dep:<name>').optional(),
});
export type BacklogInput = z.input<typeof BacklogInput>;

/** Parameters of "update a backlog item" (AXME's axme_backlog_update, plus tags). */
export const BacklogUpdate = z.object({
  id: z.string().min(1).describe('ID (B-001), alias or slug of the item'),
  status: z.enum(BACKLOG_STATUSES).optional().describe('new status'),
  priority: z.enum(PRIORITIES).optional().describe('new priority'),
  notes: longText('a note to append (dated)').optional(),
  tags: stringList('replace the tags with these').optional(),
});
export type BacklogUpdate = z.input<typeof BacklogUpdate>;
