import { providerConfig } from '../../llm/provider-config.ts';
import type { ProviderConfig } from '../../llm/types.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { readState } from '../core/state.ts';

/**
 * The provider settings of this store: axme.yaml's `auditor` block, the environment, then
 * `overrides` (flags). Its own file: the hooks ask it at every session start and end
 * (audit-worker.ts), and must not load the audit itself to do so.
 */
export async function auditorConfig(kb: KnowledgeBase, env: NodeJS.ProcessEnv, overrides: Partial<ProviderConfig> = {}): Promise<ProviderConfig> {
  const tip = await kb.repo.backend.resolveRef(kb.ref);
  const block = tip ? (await readState(kb)).config?.auditor : undefined;
  return providerConfig(block, env, overrides);
}
