import type { ProviderName } from './types.ts';

/** USD per million tokens, in and out. */
export interface Price {
  input: number;
  output: number;
}

/**
 * List prices of a few well-known models (USD per million tokens), by the model's name without
 * its date: `claude-sonnet-4-5-20250929` and `gpt-4o-mini-2024-07-18` are priced as `claude-sonnet-4-5`
 * and `gpt-4o-mini`; any other name is unknown (`claude-opus-4-6` is not `claude-opus-4`).
 * Cached-prompt discounts are not modelled: a cost is an estimate. Update the table when the
 * providers' price pages change.
 */
export const PRICES: Readonly<Record<'anthropic' | 'openai', Readonly<Record<string, Price>>>> = {
  anthropic: {
    'claude-opus-4-6': { input: 5, output: 25 },
    'claude-opus-4-5': { input: 5, output: 25 },
    'claude-opus-4-1': { input: 15, output: 75 },
    'claude-opus-4': { input: 15, output: 75 },
    'claude-sonnet-4-6': { input: 3, output: 15 },
    'claude-sonnet-4-5': { input: 3, output: 15 },
    'claude-sonnet-4': { input: 3, output: 15 },
    'claude-haiku-4-5': { input: 1, output: 5 },
    'claude-3-7-sonnet': { input: 3, output: 15 },
    'claude-3-5-haiku': { input: 0.8, output: 4 },
  },
  openai: {
    'gpt-5': { input: 1.25, output: 10 },
    'gpt-5-mini': { input: 0.25, output: 2 },
    'gpt-5-nano': { input: 0.05, output: 0.4 },
    'gpt-4.1': { input: 2, output: 8 },
    'gpt-4.1-mini': { input: 0.4, output: 1.6 },
    'gpt-4.1-nano': { input: 0.1, output: 0.4 },
    'gpt-4o': { input: 2.5, output: 10 },
    'gpt-4o-mini': { input: 0.15, output: 0.6 },
    'o4-mini': { input: 1.1, output: 4.4 },
  },
};

/** The price of a model, or null when the table does not know it (a local model, a new name). */
export function priceOf(provider: ProviderName, model: string): Price | null {
  const table = provider === 'anthropic' || provider === 'claude-cli' ? PRICES.anthropic : provider === 'openai' ? PRICES.openai : null;
  if (!table) return null;
  const base = model.replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, '');
  return table[base] ?? null;
}

/** The estimated cost in USD of one answer, or null when the model's prices are unknown. */
export function costOf(provider: ProviderName, model: string, inputTokens: number, outputTokens: number): number | null {
  const price = priceOf(provider, model);
  return price ? (inputTokens * price.input + outputTokens * price.output) / 1_000_000 : null;
}
