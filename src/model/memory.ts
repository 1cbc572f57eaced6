import { z } from 'zod';
import { baseFields, Scope, Timestamp } from './common.ts';
import type { KindSpec } from './kind.ts';
import { Slug } from './slug.ts';
import { listEntry, longText, stringList, titleText } from './text.ts';
import { anchorList, LearnedAt } from './anchor.ts';

export const MEMORY_TYPES = ['feedback', 'pattern'] as const;
export const MEMORY_STATUSES = ['active', 'archived'] as const;

/** A feedback or pattern memory: `memories/<slug>.md`. */
export const Memory = z.object({
  slug: Slug,
  type: z.enum(MEMORY_TYPES).describe('feedback: how to work with this team/user; pattern: how this code is done'),
  title: titleText('short name of the memory'),
  description: longText('one or two sentences: the memory itself').default(''),
  body: longText('details, examples, exceptions').default(''),
  status: z.enum(MEMORY_STATUSES).default('active').describe('archived memories are kept in the tree but no longer offered'),
  keywords: z.array(listEntry).default([]).describe('words that should find this memory'),
  scope: Scope.optional(),
  anchors: z.array(listEntry).default([]).describe('what the memory is about in the code: paths, globs, path#symbol, dep:<name>'),
  learned_at: LearnedAt.optional(),
  archived_at: Timestamp.optional().describe('when the memory was archived'),
  ...baseFields,
});
export type Memory = z.infer<typeof Memory>;

export const memorySpec: KindSpec<Memory> = {
  kind: 'memory',
  dir: 'memories',
  schema: Memory,
  fields: ['type', 'title', 'description', 'status', 'keywords', 'scope', 'anchors', 'learned_at', 'archived_at', 'source', 'session', 'created', 'updated'],
  lead: 'body',
  sections: [],
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
