/**
 * The model the anthropic provider asks for unless `auditor.model` says otherwise (not
 * claude-sonnet-4-5: @anthropic-ai/sdk 1.x warns on stderr that it is deprecated).
 */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-6';
/** The model the openai provider asks for on OpenAI's own API (a server of your own needs `auditor.model`). */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';
/** How often the SDKs retry a rate-limited, overloaded or failed request, with backoff. */
export const DEFAULT_MAX_RETRIES = 2;
/** How long one request (one run of `claude`) may take. */
export const DEFAULT_TIMEOUT_MS = 300_000;
/** The official endpoints, used when neither the config nor the environment names another. */
export const ANTHROPIC_API_URL = 'https://api.anthropic.com';
export const OPENAI_API_URL = 'https://api.openai.com/v1';
