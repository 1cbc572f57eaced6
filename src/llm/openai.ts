import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { AxmeError } from '../model/errors.ts';
import { DEFAULT_MAX_RETRIES, DEFAULT_OPENAI_MODEL, DEFAULT_TIMEOUT_MS, OPENAI_API_URL } from './defaults.ts';
import { connectionCause, type HttpFailure, sdkRequest } from './failure.ts';
import { costOf } from './prices.ts';
import type { LlmAnswer, LlmProvider, LlmRequest, ProviderConfig } from './types.ts';

/**
 * Any OpenAI-compatible chat completions server through the official SDK: OpenAI itself, or a
 * server of your own (Ollama, LM Studio, vLLM, llama.cpp) at `baseUrl` / OPENAI_BASE_URL, which
 * needs `model` and no key. The SDK retries 408/409/429/5xx with backoff. Loaded only by
 * `openProvider`, with `import()`.
 */
export function openaiProvider(cfg: ProviderConfig, env: NodeJS.ProcessEnv): LlmProvider {
  const keyEnv = cfg.apiKeyEnv ?? 'OPENAI_API_KEY';
  const baseUrl = cfg.baseUrl ?? (env.OPENAI_BASE_URL?.trim() || OPENAI_API_URL);
  const official = isOpenAi(baseUrl);
  const key = env[keyEnv]?.trim();
  if (!key && official) {
    throw new AxmeError(
      'CONFIG',
      `the openai provider needs an API key for ${baseUrl}: set ${keyEnv}, or auditor.base_url (OPENAI_BASE_URL) to a server of your own`,
      {
        provider: 'openai',
      },
    );
  }
  if (!cfg.model && !official) {
    throw new AxmeError('CONFIG', `auditor.model is required with a server of your own (${baseUrl}): the name it serves the model under, e.g. llama3.2`, {
      provider: 'openai',
      base_url: baseUrl,
    });
  }
  const model = cfg.model ?? DEFAULT_OPENAI_MODEL;
  const maxRetries = cfg.maxRetries ?? DEFAULT_MAX_RETRIES;
  const timeout = cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // local servers ignore the key, but the SDK requires one
  const client = new OpenAI({
    apiKey: key || 'ollama',
    baseURL: baseUrl,
    organization: env.OPENAI_ORG_ID ?? null,
    project: env.OPENAI_PROJECT_ID ?? null,
    maxRetries,
    timeout,
  });
  return {
    name: 'openai',
    model,
    async complete(req: LlmRequest): Promise<LlmAnswer> {
      const started = Date.now();
      const completion = await sdkRequest(
        req,
        timeout,
        { provider: 'openai', model, baseUrl, keyEnv: key ? keyEnv : null, retries: maxRetries },
        openaiFailure,
        (options) =>
          client.chat.completions.create(
            {
              model,
              messages: [
                { role: 'system', content: req.system },
                { role: 'user', content: req.user },
              ],
              // OpenAI's newer models refuse max_tokens; other servers may not know max_completion_tokens
              ...(official ? { max_completion_tokens: req.maxTokens } : { max_tokens: req.maxTokens }),
              ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
              ...(req.json ? { response_format: { type: 'json_object' as const } } : {}),
              stream: false,
            },
            options,
          ),
      );
      const choice = completion.choices[0];
      const inputTokens = completion.usage?.prompt_tokens ?? 0;
      const outputTokens = completion.usage?.completion_tokens ?? 0;
      const answered = completion.model || model;
      return {
        text: choice?.message.content ?? '',
        provider: 'openai',
        model: answered,
        inputTokens,
        outputTokens,
        stop: choice?.finish_reason === 'length' ? 'max_tokens' : choice?.finish_reason === 'stop' ? 'end' : 'other',
        durationMs: Date.now() - started,
        // a server of your own has no price list
        costUsd: official ? costOf('openai', answered, inputTokens, outputTokens) : null,
      };
    },
  };
}

function isOpenAi(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    throw new AxmeError('CONFIG', `the openai base URL is not a URL: ${baseUrl} (auditor.base_url or OPENAI_BASE_URL)`, { provider: 'openai' });
  }
}

function openaiFailure(err: unknown): HttpFailure {
  if (err instanceof APIUserAbortError) return { kind: 'aborted' };
  if (err instanceof APIConnectionTimeoutError) return { kind: 'timeout' };
  if (err instanceof APIConnectionError) return { kind: 'connection', cause: connectionCause(err.cause ?? err) };
  if (err instanceof APIError && typeof err.status === 'number') {
    const body = err.error as { message?: unknown } | undefined;
    const message = typeof body?.message === 'string' ? body.message : '';
    return { kind: 'status', status: err.status, message, requestId: err.requestID ?? null, retryAfter: err.headers?.get('retry-after') ?? null };
  }
  throw err;
}
