import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { AxmeError } from '../model/errors.ts';
import { ANTHROPIC_API_URL, DEFAULT_ANTHROPIC_MODEL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './defaults.ts';
import { connectionCause, type HttpFailure, sdkRequest } from './failure.ts';
import { costOf } from './prices.ts';
import type { LlmAnswer, LlmProvider, LlmRequest, ProviderConfig } from './types.ts';

/**
 * Anthropic's Messages API through the official SDK, which retries 408/409/429/5xx/529 with
 * backoff (honouring `retry-after`). Loaded only by `openProvider`, with `import()`.
 */
export function anthropicProvider(cfg: ProviderConfig, env: NodeJS.ProcessEnv): LlmProvider {
  const keyEnv = cfg.apiKeyEnv ?? 'ANTHROPIC_API_KEY';
  const apiKey = env[keyEnv]?.trim();
  if (!apiKey) {
    throw new AxmeError(
      'CONFIG',
      `the anthropic provider needs an API key: set ${keyEnv}${cfg.apiKeyEnv ? '' : ' (or auditor.api_key_env to the variable that holds it)'}`,
      {
        provider: 'anthropic',
      },
    );
  }
  const baseUrl = cfg.baseUrl ?? (env.ANTHROPIC_BASE_URL?.trim() || ANTHROPIC_API_URL);
  const model = cfg.model ?? DEFAULT_ANTHROPIC_MODEL;
  const maxRetries = cfg.maxRetries ?? DEFAULT_MAX_RETRIES;
  const timeout = cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // everything passed in: the SDK reads process.env only for what it is not given
  const client = new Anthropic({ apiKey, baseURL: baseUrl, maxRetries, timeout });
  return {
    name: 'anthropic',
    model,
    async complete(req: LlmRequest): Promise<LlmAnswer> {
      const started = Date.now();
      const message = await sdkRequest(req, timeout, { provider: 'anthropic', model, baseUrl, keyEnv, retries: maxRetries }, anthropicFailure, (options) =>
        client.messages.create(
          {
            model,
            max_tokens: req.maxTokens,
            system: req.system,
            messages: [{ role: 'user', content: req.user }],
            ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
          },
          options,
        ),
      );
      const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      const u = message.usage;
      const inputTokens = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
      const outputTokens = u.output_tokens;
      const answered = message.model || model;
      return {
        text,
        provider: 'anthropic',
        model: answered,
        inputTokens,
        outputTokens,
        stop:
          message.stop_reason === 'max_tokens' ? 'max_tokens' : message.stop_reason === 'end_turn' || message.stop_reason === 'stop_sequence' ? 'end' : 'other',
        durationMs: Date.now() - started,
        costUsd: costOf('anthropic', answered, inputTokens, outputTokens),
      };
    },
  };
}

function anthropicFailure(err: unknown): HttpFailure {
  if (err instanceof APIUserAbortError) return { kind: 'aborted' };
  if (err instanceof APIConnectionTimeoutError) return { kind: 'timeout' };
  if (err instanceof APIConnectionError) return { kind: 'connection', cause: connectionCause(err.cause ?? err) };
  if (err instanceof APIError && typeof err.status === 'number') {
    const body = err.error as { error?: { message?: unknown } } | undefined;
    const message = typeof body?.error?.message === 'string' ? body.error.message : '';
    return { kind: 'status', status: err.status, message, requestId: err.requestID ?? null, retryAfter: err.headers?.get('retry-after') ?? null };
  }
  throw err;
}
