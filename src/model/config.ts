import { z } from 'zod';
import { SANDBOX_DOMAIN_PATTERN, SANDBOX_MODE_HELP, SANDBOX_MODES, SANDBOX_NETWORK, SANDBOX_NETWORK_HELP, SANDBOX_SOCKETS_HELP } from './sandbox.ts';

export const FORMAT_VERSION = 1;

/**
 * `auditor` in axme.yaml: which model reads a session's transcript after it (docs/auditor.md,
 * "Model providers"). AXME_AUDITOR_PROVIDER / AXME_AUDITOR_MODEL and flags override it.
 */
export const AuditorConfig = z
  .object({
    provider: z
      .enum(['auto', 'anthropic', 'openai', 'claude-cli', 'none'])
      .optional()
      .describe(
        'auto (the default): claude-cli when `claude` is on PATH, else anthropic when ANTHROPIC_API_KEY is set, else openai when OPENAI_API_KEY or OPENAI_BASE_URL is; anthropic: the Messages API; openai: any OpenAI-compatible server; claude-cli: your own `claude -p`; none: no audit',
      ),
    model: z
      .string()
      .min(1)
      .optional()
      .describe(
        "the model to ask; default claude-sonnet-4-6 (anthropic), gpt-4o-mini (OpenAI), Claude Code's own choice (claude-cli); required with a server of your own",
      ),
    base_url: z
      .url()
      .optional()
      .describe("the API's base URL, e.g. http://localhost:11434/v1 for Ollama; default ANTHROPIC_BASE_URL / OPENAI_BASE_URL, then the official API"),
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional()
      .describe('the environment variable holding the API key; default ANTHROPIC_API_KEY / OPENAI_API_KEY (the key itself never goes in axme.yaml)'),
    claude_path: z.string().min(1).optional().describe('the `claude` executable for claude-cli; default the one on PATH'),
    max_retries: z.number().int().min(0).max(10).optional().describe('retries of a rate-limited, overloaded or failed request, with backoff; default 2'),
    timeout_ms: z.number().int().positive().optional().describe('how long one request (one run of `claude`) may take, in ms; default 300000'),
    enabled: z.boolean().optional().describe('false: no audit at all, whatever the provider; default true'),
  })
  .loose();
export type AuditorConfig = z.infer<typeof AuditorConfig>;

/** `search.embeddings`: an OpenAI-compatible endpoint search ranks by meaning with (machine-local: MACHINE_LOCAL_SETTINGS). */
export const EmbeddingsSettings = z.object({
  url: z.url().describe('an OpenAI-compatible embeddings endpoint, in full: http://localhost:11434/v1/embeddings'),
  model: z.string().min(1).describe('the model the endpoint embeds with (its `model` field)'),
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .optional()
    .describe('the environment variable holding the API key sent as a bearer token (the key itself never goes in a settings file)'),
  batch: z.number().int().min(1).max(2048).optional().describe('texts sent in one request (default 64); a request that times out is split in smaller ones'),
  timeout_ms: z.number().int().min(1).max(600_000).optional().describe("how long one request for the items' vectors may take, in milliseconds (default 30000)"),
  query_timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(600_000)
    .optional()
    .describe(
      "how long a search waits for its query's vector and the items' vectors still being made, in milliseconds (default 2000); past it, it answers by words",
    ),
});

/** `axme.yaml` at the root of the memory tree. Unknown keys are kept in the file. */
export const StoreConfig = z
  .object({
    format: z.number().int().min(1).describe('storage format version'),
    kind: z.enum(['repo', 'workspace']).default('repo').describe('repo: one repository; workspace: a folder of repositories'),
    review: z
      .object({
        required: z.boolean().default(false).describe("agents' writes go to refs/memory/proposals/<session> until a reviewed pull request brings them in"),
      })
      .loose()
      .optional()
      .describe('knowledge review (docs/review.md)'),
    sync: z
      .object({
        auto: z
          .enum(['off', 'session', 'commit'])
          .optional()
          .describe(
            'off: only `axme sync` shares; session (the default when the repository has a remote): a sync in the background when a session starts and when it ends; commit: also after every commit',
          ),
      })
      .loose()
      .optional()
      .describe('sharing the knowledge through the git remote (docs/sync.md)'),
    search: z
      .object({
        embeddings: EmbeddingsSettings.optional().describe(
          'off unless set: search also ranks by meaning with these embeddings, fused with the word ranking (docs/benchmarks.md, Retrieval)',
        ),
      })
      .loose()
      .optional()
      .describe('search settings'),
    auditor: AuditorConfig.optional().describe("the post-session auditor's model (docs/auditor.md, Model providers)"),
    autoMemory: z
      .enum(['off', 'sync'])
      .optional()
      .describe(
        "off (the default): only `axme export auto-memory` and `axme import auto-memory` touch Claude Code's auto memory; sync: a session's end imports what Claude wrote there, then exports the knowledge (docs/auto-memory.md)",
      ),
  })
  .loose();
export type StoreConfig = z.infer<typeof StoreConfig>;

/**
 * The settings that choose where data or credentials go, or what runs: a URL, the name of an
 * environment variable to send, an executable, the provider a transcript goes to. Whoever can
 * push to the knowledge ref must not choose them for every teammate, so they are machine-local:
 * read from the clone's `.git/axme/config.yaml` or the user's `~/.config/axme/config.yaml`
 * (LocalSettings), never from the shared `axme.yaml`, where they are ignored with a diagnostic.
 */
export const MACHINE_LOCAL_SETTINGS = [
  'auditor.provider',
  'auditor.base_url',
  'auditor.api_key_env',
  'auditor.claude_path',
  'search.embeddings',
  'sandbox.mode',
  'sandbox.network',
  'sandbox.domains',
  'sandbox.writable',
  'sandbox.hidden',
  'sandbox.sockets',
] as const;
export type MachineLocalSetting = (typeof MACHINE_LOCAL_SETTINGS)[number];

/** The shared `axme.yaml` without its machine-local settings, and the ones it tried to set. */
export function sharedConfig(config: StoreConfig): { config: StoreConfig; ignored: MachineLocalSetting[] } {
  const out = structuredClone(config) as Record<string, unknown>;
  const ignored: MachineLocalSetting[] = [];
  for (const setting of MACHINE_LOCAL_SETTINGS) {
    const [section, key] = setting.split('.') as [string, string];
    const block = out[section];
    if (block && typeof block === 'object' && key in block) {
      delete (block as Record<string, unknown>)[key];
      ignored.push(setting);
    }
  }
  return { config: out as StoreConfig, ignored };
}

/** A machine-local settings file (`.git/axme/config.yaml`, `~/.config/axme/config.yaml`): every setting, the local ones included. */
export const LocalSettings = z
  .object({
    auditor: AuditorConfig.optional().describe("the post-session auditor's model: provider, model, base_url, api_key_env, claude_path, …"),
    search: z.object({ embeddings: EmbeddingsSettings.optional() }).loose().optional().describe('search.embeddings: the endpoint search ranks by meaning with'),
    sandbox: z
      .object({
        mode: z
          .enum(SANDBOX_MODES)
          .optional()
          .describe(`auto (the default): ${SANDBOX_MODE_HELP.auto}; required: ${SANDBOX_MODE_HELP.required}; off: ${SANDBOX_MODE_HELP.off}`),
        network: z
          .enum(SANDBOX_NETWORK)
          .optional()
          .describe(SANDBOX_NETWORK.map((n) => `${n}: ${SANDBOX_NETWORK_HELP[n]}`).join('; ')),
        domains: z
          .array(z.string().regex(SANDBOX_DOMAIN_PATTERN))
          .optional()
          .describe('with network allowlist: the hosts commands may reach (registry.npmjs.org, *.github.com)'),
        writable: z.array(z.string().min(1)).optional().describe('more folders commands may write (absolute paths)'),
        hidden: z.array(z.string().min(1)).optional().describe('more paths commands may not read (~/ for the home folder)'),
        sockets: z.array(z.string().startsWith('/')).optional().describe(SANDBOX_SOCKETS_HELP),
      })
      .loose()
      .optional()
      .describe('the kernel sandbox under the guard (docs/safety.md): mode, network, domains, writable, hidden, sockets'),
  })
  .loose();
export type LocalSettings = z.infer<typeof LocalSettings>;
