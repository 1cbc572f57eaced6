/**
 * The model provider layer (docs/auditor.md, "Model providers"). Importing it loads no SDK:
 * `openProvider` loads the chosen provider's module when it is called.
 */

export { findOnPath } from '../model/on-path.ts';
export { chooseProvider } from './choose-provider.ts';
export { ANTHROPIC_API_URL, DEFAULT_ANTHROPIC_MODEL, DEFAULT_MAX_RETRIES, DEFAULT_OPENAI_MODEL, DEFAULT_TIMEOUT_MS, OPENAI_API_URL } from './defaults.ts';
export { openProvider } from './open-provider.ts';
export { costOf, PRICES, type Price, priceOf } from './prices.ts';
export { providerConfig } from './provider-config.ts';
export type { LlmAnswer, LlmProvider, LlmRequest, ProviderConfig, ProviderName } from './types.ts';
