import { z } from 'zod';
import { baseFields } from './common.ts';
import type { KindSpec } from './kind.ts';
import { planKind } from './kinds/plan.ts';
import { Slug } from './slug.ts';
import { listEntry, longText, titleText } from './text.ts';

export const PLAN_STATUSES = ['draft', 'active', 'done', 'abandoned'] as const;

/** A multi-step plan: `plans/<slug>.md`. */
export const Plan = z.object({
  slug: Slug,
  title: titleText('short name of the plan'),
  status: z.enum(PLAN_STATUSES).default('active').describe('draft, active, done or abandoned'),
  tags: z.array(listEntry).default([]).describe('free-form labels'),
  body: longText('the plan: goal, steps, checkpoints').default(''),
  ...baseFields,
});
export type Plan = z.infer<typeof Plan>;

export const planSpec: KindSpec<Plan> = {
  ...planKind,
  schema: Plan,
  fields: ['title', 'status', 'tags', 'source', 'session', 'created', 'updated'],
  lead: 'body',
  sections: [],
};
