import { z } from 'zod';
import { LearnedAt, LearnedContent, ReconfirmedBy } from './anchor.ts';
import { baseFields } from './common.ts';
import type { KindSpec } from './kind.ts';
import { oracleKind } from './kinds/oracle.ts';
import { Slug } from './slug.ts';
import { listEntry, longText } from './text.ts';

/** The standard oracle pages; other slugs are allowed too. */
export const ORACLE_PAGES = ['stack', 'structure', 'patterns', 'glossary'] as const;

/** One page of project orientation: `oracle/<page>.md`. */
export const OraclePage = z.object({
  slug: Slug,
  title: z.string().max(200).optional().describe('page title'),
  body: longText('the page').default(''),
  anchors: z.array(listEntry).default([]).describe('the files the page was derived from (manifests, folders)'),
  learned_at: LearnedAt.optional(),
  learned_content: LearnedContent.optional(),
  reconfirmed_by: ReconfirmedBy.optional(),
  ...baseFields,
});
export type OraclePage = z.infer<typeof OraclePage>;

export const oracleSpec: KindSpec<OraclePage> = {
  ...oracleKind,
  schema: OraclePage,
  fields: ['title', 'anchors', 'learned_at', 'learned_content', 'reconfirmed_by', 'source', 'session', 'created', 'updated'],
  lead: 'body',
  sections: [],
};
