/**
 * The model behind the post-session auditor (issue 23, "The model"; docs/auditor.md, "Model
 * providers"): one request in, one answer out, whichever provider serves it. Types only.
 */

/** Who answers: an HTTP API through its official client, the user's own `claude` CLI, or nobody. */
export type ProviderName = 'anthropic' | 'openai' | 'claude-cli' | 'none';

/** One completion: a system prompt and one user message. */
export interface LlmRequest {
  system: string;
  user: string;
  /** the most tokens the answer may have (Anthropic's required `max_tokens`) */
  maxTokens: number;
  /** sent only when given (some models accept only their default) */
  temperature?: number;
  /** ask for a JSON object: openai's `response_format: {type: 'json_object'}`; the others rely on the prompt */
  json?: boolean;
  /** per attempt for the HTTP providers, for the whole run of `claude`; default the provider's */
  timeoutMs?: number;
  /** aborts the request (or stops `claude`) */
  signal?: AbortSignal;
}

/** The answer, normalised across providers. */
export interface LlmAnswer {
  /** every text block joined (anthropic), the message content (openai), `result` (claude-cli) */
  text: string;
  provider: ProviderName;
  /** the model that answered, as the provider names it */
  model: string;
  /** prompt tokens, cached ones included */
  inputTokens: number;
  outputTokens: number;
  /** `max_tokens`: the answer was cut off (Anthropic `stop_reason: max_tokens`, OpenAI `finish_reason: length`) */
  stop: 'end' | 'max_tokens' | 'other';
  durationMs: number;
  /** USD, when the model's prices are known (src/llm/prices.ts) or `claude` reported it; else null */
  costUsd: number | null;
}

/** A provider opened by `openProvider`; `complete` throws AxmeError with a message that says what to do. */
export interface LlmProvider {
  name: ProviderName;
  /** the model asked for (claude-cli: `default` when none is set, the CLI's own choice) */
  model: string;
  complete(req: LlmRequest): Promise<LlmAnswer>;
}

/** Which provider and how: the `auditor` block of axme.yaml after flags and environment (`providerConfig`). */
export interface ProviderConfig {
  provider: 'auto' | ProviderName;
  model?: string;
  /** the API's base URL; default ANTHROPIC_BASE_URL / OPENAI_BASE_URL, then the official one */
  baseUrl?: string;
  /** the environment variable holding the API key; default ANTHROPIC_API_KEY / OPENAI_API_KEY */
  apiKeyEnv?: string;
  /** the `claude` executable; default the one on PATH */
  claudePath?: string;
  /** retries of 408/409/429/5xx/529 and connection failures by the SDK (with backoff); default 2 */
  maxRetries?: number;
  /** default per-request timeout in ms */
  timeoutMs?: number;
}
