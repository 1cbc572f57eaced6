import { AuditorConfig } from '../model/config.ts';
import { AxmeError } from '../model/errors.ts';
import type { ProviderConfig, ProviderName } from './types.ts';

/** The names axme.yaml's `auditor.provider` takes (its schema's), for AXME_AUDITOR_PROVIDER too. */
const NAMES: ReadonlySet<string> = new Set<ProviderName | 'auto'>(AuditorConfig.shape.provider.unwrap().options);

/**
 * The provider settings from the `auditor` block of axme.yaml, overridden by the environment
 * (AXME_AUDITOR_PROVIDER, AXME_AUDITOR_MODEL), then by `overrides` (command-line flags). With
 * `enabled: false` (and nothing overriding the provider) the provider is `none`.
 */
export function providerConfig(block: AuditorConfig | undefined, env: NodeJS.ProcessEnv, overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  const fromEnv = env.AXME_AUDITOR_PROVIDER?.trim();
  if (fromEnv && !NAMES.has(fromEnv)) {
    throw new AxmeError('CONFIG', `AXME_AUDITOR_PROVIDER is ${fromEnv}: use one of ${[...NAMES].join(', ')}`, { value: fromEnv });
  }
  const provider =
    overrides.provider ?? (fromEnv as ProviderConfig['provider'] | undefined) ?? (block?.enabled === false ? 'none' : (block?.provider ?? 'auto'));
  const cfg: ProviderConfig = { provider };
  const model = overrides.model ?? (env.AXME_AUDITOR_MODEL?.trim() || undefined) ?? block?.model;
  if (model !== undefined) cfg.model = model;
  const baseUrl = overrides.baseUrl ?? block?.base_url;
  if (baseUrl !== undefined) cfg.baseUrl = baseUrl;
  const apiKeyEnv = overrides.apiKeyEnv ?? block?.api_key_env;
  if (apiKeyEnv !== undefined) cfg.apiKeyEnv = apiKeyEnv;
  const claudePath = overrides.claudePath ?? block?.claude_path;
  if (claudePath !== undefined) cfg.claudePath = claudePath;
  const maxRetries = overrides.maxRetries ?? block?.max_retries;
  if (maxRetries !== undefined) cfg.maxRetries = maxRetries;
  const timeoutMs = overrides.timeoutMs ?? block?.timeout_ms;
  if (timeoutMs !== undefined) cfg.timeoutMs = timeoutMs;
  return cfg;
}
