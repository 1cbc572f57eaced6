import { z } from 'zod';

export const FORMAT_VERSION = 1;

/** `axme.yaml` at the root of the memory tree. Unknown keys are kept in the file. */
export const StoreConfig = z
  .object({
    format: z.number().int().min(1).describe('storage format version'),
    kind: z.enum(['repo', 'workspace']).default('repo').describe('repo: one repository; workspace: a folder of repositories'),
  })
  .loose();
export type StoreConfig = z.infer<typeof StoreConfig>;
