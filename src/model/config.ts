import { z } from 'zod';

export const FORMAT_VERSION = 1;

/** `axme.yaml` at the root of the memory tree. Unknown keys are kept in the file. */
export const StoreConfig = z
  .object({
    format: z.number().int().min(1).describe('storage format version'),
    kind: z.enum(['repo', 'workspace']).default('repo').describe('repo: one repository; workspace: a folder of repositories'),
    review: z
      .object({ required: z.boolean().default(false).describe("agents' writes go to refs/memory/proposals/<session> until a reviewed pull request brings them in") })
      .loose()
      .optional()
      .describe('knowledge review (docs/review.md)'),
  })
  .loose();
export type StoreConfig = z.infer<typeof StoreConfig>;
