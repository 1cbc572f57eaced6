import { z } from 'zod';
import { anchorList, LearnedAt, LearnedContent, ReconfirmedBy } from './anchor.ts';
import { baseFields, Scope, Timestamp } from './common.ts';
import type { KindSpec } from './kind.ts';
import { memoryKind } from './kinds/memory.ts';
import { Slug } from './slug.ts';
import { listEntry, longText, stringList, titleText } from './text.ts';

export const MEMORY_TYPES = ['feedback', 'pattern'] as const;
export const MEMORY_STATUSES = ['active', 'superseded', 'archived'] as const;

/** A feedback or pattern memory: `memories/<slug>.md`. */
export const Memory = z.object({
  slug: Slug,
  type: z.enum(MEMORY_TYPES).describe('feedback: how to work with this team/user; pattern: how this code is done'),
  title: titleText('short name of the memory'),
  description: longText('one or two sentences: the memory itself').default(''),
  body: longText('details, examples, exceptions').default(''),
  status: z.enum(MEMORY_STATUSES).default('active').describe('active; superseded (by a newer memory) or archived: kept in the tree but no longer offered'),
  keywords: z.array(listEntry).default([]).describe('words that should find this memory'),
  scope: Scope.optional(),
  anchors: z.array(listEntry).default([]).describe('what the memory is about in the code: paths, globs, path#symbol, dep:<name>'),
  learned_at: LearnedAt.optional(),
  learned_content: LearnedContent.optional(),
  reconfirmed_by: ReconfirmedBy.optional(),
  archived_at: Timestamp.optional().describe('when the memory was archived'),
  supersedes: z.array(Slug).default([]).describe('slugs of the memories this one replaces'),
  superseded_by: Slug.optional().describe('slug of the memory that replaced this one'),
  ...baseFields,
});
export type Memory = z.infer<typeof Memory>;

export const memorySpec: KindSpec<Memory> = {
  ...memoryKind,
  schema: Memory,
  fields: [
    'type',
    'title',
    'description',
    'status',
    'keywords',
    'scope',
    'anchors',
    'learned_at',
    'learned_content',
    'reconfirmed_by',
    'archived_at',
    'supersedes',
    'superseded_by',
    'source',
    'session',
    'created',
    'updated',
  ],
  lead: 'body',
  sections: [],
  // the memory itself, one or two sentences
  prose: ['description'],
};

/** Parameters of "save a memory" (AXME's axme_save_memory). */
export const MemoryInput = z.object({
  type: z.enum(MEMORY_TYPES).describe('feedback: how to work with this team/user; pattern: how this code is done'),
  title: titleText('short name of the memory'),
  description: longText('one or two sentences: the memory itself').refine((v) => v.trim() !== '', 'must not be empty'),
  body: longText('details, examples, exceptions').default(''),
  keywords: stringList('words that should find this memory').default([]),
  scope: Scope.optional(),
  anchors: anchorList('what the memory is about in the code: paths, globs, path#symbol, dep:<name> (`axme verify` tells when they change)').optional(),
});
export type MemoryInput = z.input<typeof MemoryInput>;

/**
 * Parameters of editing a memory in place (`axme memory update`): its slug and the fields to
 * change; what is left out stays. The previous version stays in history (`axme history <slug>`).
 */
export const MemoryUpdate = z.strictObject({
  slug: z.string().min(1).max(200).describe("the memory's slug"),
  type: MemoryInput.shape.type.optional(),
  title: titleText('the new title').optional(),
  description: longText('the new description')
    .refine((v) => v.trim() !== '', 'must not be empty')
    .optional(),
  body: longText('the new details').optional(),
  keywords: stringList('the new keywords (replace the old ones)').optional(),
  anchors: anchorList('the new anchors (replace the old ones)').optional(),
});
export type MemoryUpdate = z.input<typeof MemoryUpdate>;
