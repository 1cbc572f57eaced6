import { providerConfig } from '../../llm/provider-config.ts';
import type { ProviderConfig } from '../../llm/types.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { effectiveSettings } from '../core/local-settings.ts';
import { readState } from '../core/state.ts';

/**
 * The provider settings on this machine: the `auditor` block of the shared axme.yaml (its
 * harmless keys: model, retries, timeout, enabled) under the machine-local settings files
 * (provider, base_url, api_key_env, claude_path: local-settings.ts), the environment, then
 * `overrides` (flags). Its own file: the hooks ask it at every session start and end
 * (audit-worker.ts), and must not load the audit itself to do so.
 */
export async function auditorConfig(kb: KnowledgeBase, env: NodeJS.ProcessEnv, overrides: Partial<ProviderConfig> = {}): Promise<ProviderConfig> {
  const tip = await kb.repo.backend.resolveRef(kb.ref);
  const shared = tip ? (await readState(kb)).config : null;
  return providerConfig(effectiveSettings(shared, kb.repo.commonDir, env).auditor, env, overrides);
}
