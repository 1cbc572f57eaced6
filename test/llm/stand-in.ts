// A local stand-in for both LLM wire formats (docs/auditor.md, model providers), for the
// official SDKs pointed at it by base URL: `POST /v1/messages` (Anthropic: checks anthropic-version
// and the key, in x-api-key or as a bearer token) and `POST /v1/chat/completions` (OpenAI-compatible: checks Authorization).
// Each request takes the next scripted response from one queue; every request is recorded.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted response, rendered in the wire format of the path it answers. */
export type Scripted =
  | { kind: 'answer'; text: string; stop?: 'end' | 'max_tokens'; inputTokens?: number; outputTokens?: number; model?: string }
  | { kind: 'error'; status: number; type?: string; message?: string; headers?: Record<string, string> }
  | { kind: 'raw'; status: number; body: string; headers?: Record<string, string> }
  /** never answers (until the stand-in closes): for timeouts */
  | { kind: 'hang' };

/** What the stand-in saw of one request. */
export interface Recorded {
  path: string;
  headers: IncomingMessage['headers'];
  /** the parsed JSON body (null when it was not JSON) */
  body: Record<string, unknown> | null;
  raw: string;
}

export interface StandIn {
  /** the server's root, `http://127.0.0.1:<port>`: Anthropic's base URL (the SDK adds /v1/messages) */
  url: string;
  /** `<url>/v1`: an OpenAI-compatible base URL (the SDK adds /chat/completions) */
  openaiUrl: string;
  /** the keys it accepts (x-api-key; Authorization: Bearer) */
  key: string;
  /** every request, in order */
  requests: Recorded[];
  /** queue responses; a request with none queued gets a 500 that says so (and is not retried) */
  script(...responses: Scripted[]): void;
  /** responses still queued */
  pending(): number;
  /** resolves once every `hang` scripted so far holds a request (none is left in the queue) */
  hung(): Promise<void>;
  close(): Promise<void>;
}

/** A canned answer. */
export const answer = (text: string, more: Omit<Extract<Scripted, { kind: 'answer' }>, 'kind' | 'text'> = {}): Scripted => ({ kind: 'answer', text, ...more });
/** An answer cut off by the token limit (`stop_reason: max_tokens` / `finish_reason: length`). */
export const truncated = (text: string): Scripted => ({ kind: 'answer', text, stop: 'max_tokens' });
/** A JSON value in a ```json fence, with chatter around it, as models often answer. */
export const fencedJson = (value: unknown): Scripted => answer(`Here is the result:\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\n`);
/** Text that looks like JSON and is not. */
export const invalidJson = (): Scripted => answer('{"decisions": [{"title": "Use pnpm", }');
/** An HTTP error in the provider's error shape; 429/5xx carry `retry-after-ms: 5` so the SDKs retry at once. */
export function failure(status: number, type?: string, message?: string): Scripted {
  const headers: Record<string, string> = status === 429 || status >= 500 ? { 'retry-after-ms': '5' } : {};
  return { kind: 'error', status, ...(type ? { type } : {}), ...(message ? { message } : {}), headers };
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** Starts a stand-in on 127.0.0.1 at a free port. */
export async function startStandIn(opts: { key?: string } = {}): Promise<StandIn> {
  const key = opts.key ?? 'test-key';
  const queue: Scripted[] = [];
  const requests: Recorded[] = [];
  const hanging = new Set<ServerResponse>();
  const onHang: Array<() => void> = [];
  let ids = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        body = null;
      }
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push({ path, headers: req.headers, body, raw });
      const wire = path === '/v1/messages' ? 'anthropic' : path === '/v1/chat/completions' ? 'openai' : null;
      if (req.method !== 'POST' || !wire) return send(res, 404, errorBody('openai', 404, 'not_found_error', `no route ${req.method} ${path}`));
      const authError = checkAuth(wire, req, key);
      if (authError) return send(res, 401, errorBody(wire, 401, 'authentication_error', authError));
      const next = queue.shift();
      if (!next) return send(res, 500, errorBody(wire, 500, 'api_error', 'the stand-in has no scripted response left'), { 'x-should-retry': 'false' });
      const id = `${wire === 'anthropic' ? 'msg' : 'chatcmpl'}_${++ids}`;
      switch (next.kind) {
        case 'hang':
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          for (const check of onHang.splice(0)) check();
          return;
        case 'raw':
          return send(res, next.status, next.body, next.headers);
        case 'error':
          return send(
            res,
            next.status,
            errorBody(wire, next.status, next.type ?? ERROR_TYPES[next.status] ?? 'api_error', next.message ?? `scripted ${next.status}`),
            next.headers,
          );
        case 'answer': {
          const model = next.model ?? (typeof body?.model === 'string' ? body.model : 'stand-in');
          const u = { input: next.inputTokens ?? 12, output: next.outputTokens ?? 34 };
          return send(
            res,
            200,
            JSON.stringify(wire === 'anthropic' ? anthropicAnswer(id, model, next.text, next.stop, u) : openaiAnswer(id, model, next.text, next.stop, u)),
          );
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    openaiUrl: `${url}/v1`,
    key,
    requests,
    script: (...responses) => void queue.push(...responses),
    pending: () => queue.length,
    hung: () =>
      new Promise<void>((resolve) => {
        const check = () => (queue.some((r) => r.kind === 'hang') ? onHang.push(check) : resolve());
        check();
      }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function checkAuth(wire: 'anthropic' | 'openai', req: IncomingMessage, key: string): string | null {
  if (wire === 'anthropic') {
    if (!req.headers['anthropic-version']) return 'anthropic-version header is required';
    // the API takes the key as x-api-key; @anthropic-ai/sdk 1.x sends it as a bearer token
    return req.headers['x-api-key'] === key || req.headers.authorization === `Bearer ${key}` ? null : 'invalid x-api-key';
  }
  return req.headers.authorization === `Bearer ${key}` ? null : 'Incorrect API key provided';
}

function anthropicAnswer(id: string, model: string, text: string, stop: 'end' | 'max_tokens' | undefined, u: { input: number; output: number }) {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: stop === 'max_tokens' ? 'max_tokens' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: u.input, output_tokens: u.output },
  };
}

function openaiAnswer(id: string, model: string, text: string, stop: 'end' | 'max_tokens' | undefined, u: { input: number; output: number }) {
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: 'fp_stand_in',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: stop === 'max_tokens' ? 'length' : 'stop' }],
    usage: { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output },
  };
}

function errorBody(wire: 'anthropic' | 'openai', _status: number, type: string, message: string): string {
  return JSON.stringify(
    wire === 'anthropic' ? { type: 'error', error: { type, message }, request_id: 'req_stand_in' } : { error: { message, type, code: null } },
  );
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_stand_in', ...headers });
  res.end(body);
}
