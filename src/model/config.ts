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
    sync: z
      .object({
        auto: z
          .enum(['off', 'session', 'commit'])
          .optional()
          .describe('off: only `axme sync` shares; session (the default when the repository has a remote): a sync in the background when a session starts and when it ends; commit: also after every commit'),
      })
      .loose()
      .optional()
      .describe('sharing the knowledge through the git remote (docs/sync.md)'),
    search: z
      .object({
        embeddings: z
          .object({
            url: z.url().describe('an OpenAI-compatible embeddings endpoint, in full: http://localhost:11434/v1/embeddings'),
            model: z.string().min(1).describe('the model the endpoint embeds with (its `model` field)'),
            api_key_env: z
              .string()
              .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
              .optional()
              .describe('the environment variable holding the API key sent as a bearer token (the key itself never goes in axme.yaml)'),
          })
          .optional()
          .describe('off unless set: search also ranks by meaning with these embeddings, fused with the word ranking (docs/benchmarks.md, Retrieval)'),
      })
      .loose()
      .optional()
      .describe('search settings'),
    autoMemory: z
      .enum(['off', 'sync'])
      .optional()
      .describe("off (the default): only `axme export auto-memory` and `axme import auto-memory` touch Claude Code's auto memory; sync: a session's end imports what Claude wrote there, then exports the knowledge (docs/auto-memory.md)"),
  })
  .loose();
export type StoreConfig = z.infer<typeof StoreConfig>;
