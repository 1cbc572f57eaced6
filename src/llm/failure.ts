import { AxmeError } from '../model/errors.ts';
import type { LlmRequest, ProviderName } from './types.ts';

/** What went wrong with an HTTP provider's request, read from its SDK's error by the provider. */
export type HttpFailure =
  | { kind: 'status'; status: number; message: string; requestId: string | null; retryAfter: string | null }
  | { kind: 'connection'; cause: string }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

/** Where the request went and how it was set up, for the message. */
export interface FailureContext {
  provider: ProviderName;
  model: string;
  baseUrl: string;
  /** the environment variable the key came from (null: no key of the user's, e.g. a local server) */
  keyEnv: string | null;
  retries: number;
  timeoutMs: number;
}

/**
 * One SDK request of an HTTP provider: `send` gets the request options (the timeout in whole
 * milliseconds, as the SDKs take them, and the signal); a failure is read from the SDK's error by
 * `read` and thrown as `httpFailure`'s AxmeError.
 */
export async function sdkRequest<T>(
  req: LlmRequest,
  defaultTimeoutMs: number,
  ctx: Omit<FailureContext, 'timeoutMs'>,
  read: (err: unknown) => HttpFailure,
  send: (options: { timeout: number; signal?: AbortSignal }) => Promise<T>,
): Promise<T> {
  const timeout = Math.max(1, Math.round(req.timeoutMs ?? defaultTimeoutMs));
  try {
    return await send({ timeout, ...(req.signal ? { signal: req.signal } : {}) });
  } catch (err) {
    throw httpFailure(read(err), { ...ctx, timeoutMs: timeout });
  }
}

/**
 * The AxmeError for a failed request: a message that says what to do, and in `data` the provider,
 * model, HTTP status, request id and `retryable` (worth trying again later, unchanged). Codes:
 * CONFIG (key refused, model unknown: fix the set-up), INVALID_INPUT (the request was refused as
 * too large or malformed), UNAVAILABLE (rate limited, overloaded, down, unreachable, timed out,
 * cancelled).
 */
export function httpFailure(failure: HttpFailure, ctx: FailureContext): AxmeError {
  const data: Record<string, unknown> = { provider: ctx.provider, model: ctx.model, base_url: ctx.baseUrl };
  const tried = ctx.retries === 1 ? 'retried once' : `retried ${ctx.retries} times`;
  switch (failure.kind) {
    case 'aborted':
      return new AxmeError('UNAVAILABLE', `the ${ctx.provider} request was cancelled`, { ...data, retryable: true });
    case 'timeout':
      return new AxmeError('UNAVAILABLE', `${ctx.baseUrl} did not answer within ${ctx.timeoutMs} ms (${tried}): try later, or raise auditor.timeout_ms`, {
        ...data,
        retryable: true,
      });
    case 'connection':
      return new AxmeError(
        'UNAVAILABLE',
        `could not reach ${ctx.baseUrl} (${failure.cause}; ${tried}): is the server running, and is the base URL right? ` +
          `(auditor.base_url, or ${ctx.provider === 'anthropic' ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL'})`,
        { ...data, retryable: true },
      );
    case 'status':
      return statusFailure(failure, ctx, { ...data, status: failure.status, request_id: failure.requestId }, tried);
  }
}

function statusFailure(failure: Extract<HttpFailure, { kind: 'status' }>, ctx: FailureContext, data: Record<string, unknown>, tried: string): AxmeError {
  const { status } = failure;
  const said = failure.message ? `: ${failure.message}` : '';
  const key = ctx.keyEnv ? `the API key in ${ctx.keyEnv}` : 'the API key';
  if (status === 401) return new AxmeError('CONFIG', `${key} was refused (HTTP 401${said}): check it`, { ...data, retryable: false });
  if (status === 403)
    return new AxmeError('CONFIG', `${key} may not do this (HTTP 403${said}): check its permissions for model ${ctx.model}`, { ...data, retryable: false });
  if (status === 404) {
    return new AxmeError(
      'CONFIG',
      `${ctx.baseUrl} knows no model ${ctx.model} or no such endpoint (HTTP 404${said}): check auditor.model and auditor.base_url`,
      {
        ...data,
        retryable: false,
      },
    );
  }
  if (status === 413)
    return new AxmeError('INVALID_INPUT', `the request was too large for ${ctx.provider} (HTTP 413${said}): send less at a time`, {
      ...data,
      retryable: false,
    });
  if (status === 429 || status === 529 || status === 503) {
    const what = status === 429 ? 'rate limited' : 'overloaded';
    const after = failure.retryAfter ? ` (it asks to wait ${failure.retryAfter} s)` : '';
    return new AxmeError('UNAVAILABLE', `${ctx.provider} is ${what} (HTTP ${status}), ${tried}: try later${after}`, { ...data, retryable: true });
  }
  if (status >= 500) return new AxmeError('UNAVAILABLE', `${ctx.provider} failed (HTTP ${status}${said}), ${tried}: try later`, { ...data, retryable: true });
  if (status === 408 || status === 409)
    return new AxmeError('UNAVAILABLE', `${ctx.provider} answered HTTP ${status}${said}, ${tried}: try later`, { ...data, retryable: true });
  return new AxmeError('INVALID_INPUT', `${ctx.provider} refused the request (HTTP ${status}${said})`, { ...data, retryable: false });
}

/** The cause of a connection failure in a few words: `ECONNREFUSED`, `ENOTFOUND`, or the error's message. */
export function connectionCause(err: unknown): string {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e instanceof Error; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return err instanceof Error ? err.message : String(err);
}
