// The two HTTP providers (issue 23, "The model") against the local stand-in of both wire formats,
// with the official SDKs pointed at it by base URL: what is sent, what comes back normalised, the
// SDKs' retries of 429/529/503, and the errors that say what to do. No real network.

import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { openProvider } from '../../src/llm/open-provider.ts';
import type { LlmProvider, ProviderConfig } from '../../src/llm/types.ts';
import { isAxmeError } from '../../src/model/errors.ts';
import { answer, failure, fencedJson, invalidJson, type StandIn, startStandIn, truncated } from './stand-in.ts';

let s: StandIn;
before(async () => (s = await startStandIn()));
after(() => s.close());

interface Wire {
  name: 'anthropic' | 'openai';
  open(more?: Partial<ProviderConfig>): Promise<LlmProvider>;
  /** the overloaded status this API answers */
  overloaded: number;
  keyEnv: string;
}

const wires: Wire[] = [
  {
    name: 'anthropic',
    open: async (more = {}) =>
      (await openProvider({ provider: 'anthropic', baseUrl: s.url, maxRetries: 2, timeoutMs: 5_000, ...more }, { ANTHROPIC_API_KEY: s.key }))!,
    overloaded: 529,
    keyEnv: 'ANTHROPIC_API_KEY',
  },
  {
    name: 'openai',
    open: async (more = {}) =>
      (await openProvider(
        { provider: 'openai', baseUrl: s.openaiUrl, model: 'llama3.2', maxRetries: 2, timeoutMs: 5_000, ...more },
        { OPENAI_API_KEY: s.key },
      ))!,
    overloaded: 503,
    keyEnv: 'OPENAI_API_KEY',
  },
];

const request = { system: 'Answer with JSON only.', user: '<user>hello</user>', maxTokens: 256 };

/** The requests one call makes. */
async function seen<T>(run: () => Promise<T>): Promise<{ result: T; requests: typeof s.requests }> {
  const start = s.requests.length;
  const result = await run();
  return { result, requests: s.requests.slice(start) };
}

async function rejected(run: () => Promise<unknown>): Promise<{ err: unknown; requests: typeof s.requests }> {
  const start = s.requests.length;
  try {
    await run();
  } catch (err) {
    return { err, requests: s.requests.slice(start) };
  }
  assert.fail('expected a rejection');
}

for (const wire of wires) {
  describe(`${wire.name} through its official SDK`, () => {
    test('a canned answer, normalised; the request in the wire format', async () => {
      const p = await wire.open();
      s.script(answer('{"ok":true}', { inputTokens: 100, outputTokens: 20 }));
      const { result, requests } = await seen(() => p.complete({ ...request, temperature: 0, json: true }));
      assert.equal(result.text, '{"ok":true}');
      assert.equal(result.provider, wire.name);
      assert.equal(result.stop, 'end');
      assert.equal(result.inputTokens, 100);
      assert.equal(result.outputTokens, 20);
      assert.ok(result.durationMs >= 0);
      assert.equal(requests.length, 1);
      const [r] = requests;
      if (wire.name === 'anthropic') {
        assert.equal(r!.path, '/v1/messages');
        // the key: x-api-key, or (as @anthropic-ai/sdk 1.x sends it) a bearer token
        assert.ok(r!.headers['x-api-key'] === s.key || r!.headers.authorization === `Bearer ${s.key}`);
        assert.ok(r!.headers['anthropic-version']);
        assert.deepEqual(r!.body, {
          model: 'claude-sonnet-4-6',
          max_tokens: 256,
          system: 'Answer with JSON only.',
          messages: [{ role: 'user', content: '<user>hello</user>' }],
          temperature: 0,
        });
        assert.equal(result.model, 'claude-sonnet-4-6');
        assert.equal(result.costUsd, (100 * 3 + 20 * 15) / 1_000_000);
      } else {
        assert.equal(r!.path, '/v1/chat/completions');
        assert.equal(r!.headers.authorization, `Bearer ${s.key}`);
        assert.deepEqual(r!.body, {
          model: 'llama3.2',
          messages: [
            { role: 'system', content: 'Answer with JSON only.' },
            { role: 'user', content: '<user>hello</user>' },
          ],
          max_tokens: 256,
          temperature: 0,
          response_format: { type: 'json_object' },
          stream: false,
        });
        // a server of one's own has no price list
        assert.equal(result.costUsd, null);
      }
    });

    test('no temperature or JSON mode unless asked', async () => {
      const p = await wire.open();
      s.script(answer('plain'));
      const { requests } = await seen(() => p.complete(request));
      assert.equal(requests[0]!.body!.temperature, undefined);
      assert.equal(requests[0]!.body!.response_format, undefined);
    });

    test('fenced and invalid JSON come back as the model wrote them (parsing is the caller\u2019s)', async () => {
      const p = await wire.open();
      s.script(fencedJson({ decisions: [] }), invalidJson());
      const fenced = await p.complete(request);
      assert.match(fenced.text, /^Here is the result:\n\n```json\n\{\n {2}"decisions": \[\]\n\}\n```\n$/);
      const invalid = await p.complete(request);
      assert.equal(invalid.text, '{"decisions": [{"title": "Use pnpm", }');
      assert.equal(invalid.stop, 'end');
    });

    test('a truncated answer says so: stop max_tokens', async () => {
      const p = await wire.open();
      s.script(truncated('{"decisions": [{"ti'));
      const a = await p.complete(request);
      assert.equal(a.stop, 'max_tokens');
      assert.equal(a.text, '{"decisions": [{"ti');
    });

    test('429 then success: the SDK retried (2 requests)', async () => {
      const p = await wire.open();
      s.script(failure(429), answer('after the retry'));
      const { result, requests } = await seen(() => p.complete(request));
      assert.equal(result.text, 'after the retry');
      assert.equal(requests.length, 2);
    });

    test(`${wire.overloaded} (overloaded) then success: the SDK retried`, async () => {
      const p = await wire.open();
      s.script(failure(wire.overloaded), answer('served'));
      const { result, requests } = await seen(() => p.complete(request));
      assert.equal(result.text, 'served');
      assert.equal(requests.length, 2);
    });

    test('rate limited past the retries: UNAVAILABLE, retried N times, try later', async () => {
      const p = await wire.open({ maxRetries: 1 });
      s.script(failure(429), failure(429));
      const { err, requests } = await rejected(() => p.complete(request));
      assert.equal(requests.length, 2);
      assert.ok(isAxmeError(err, 'UNAVAILABLE'), String(err));
      assert.match(err.message, /rate limited \(HTTP 429\), retried once: try later/);
      assert.equal(err.data.retryable, true);
      assert.equal(err.data.status, 429);
    });

    test('overloaded past the retries: UNAVAILABLE', async () => {
      const p = await wire.open({ maxRetries: 2 });
      s.script(failure(wire.overloaded), failure(wire.overloaded), failure(wire.overloaded));
      const { err, requests } = await rejected(() => p.complete(request));
      assert.equal(requests.length, 3);
      assert.ok(isAxmeError(err, 'UNAVAILABLE'));
      assert.match(err.message, new RegExp(`overloaded \\(HTTP ${wire.overloaded}\\), retried 2 times: try later`));
    });

    test('a refused key (401): CONFIG naming the variable, no retry', async () => {
      const env = { [wire.keyEnv]: 'wrong-key' };
      const cfg: ProviderConfig =
        wire.name === 'anthropic' ? { provider: 'anthropic', baseUrl: s.url } : { provider: 'openai', baseUrl: s.openaiUrl, model: 'llama3.2' };
      const p = (await openProvider(cfg, env))!;
      const { err, requests } = await rejected(() => p.complete(request));
      assert.equal(requests.length, 1);
      assert.ok(isAxmeError(err, 'CONFIG'), String(err));
      assert.match(err.message, new RegExp(`^the API key in ${wire.keyEnv} was refused \\(HTTP 401: .+\\): check it$`));
      assert.equal(err.data.retryable, false);
    });

    test('an unknown model (404): CONFIG, check auditor.model', async () => {
      const p = await wire.open();
      s.script(failure(404, 'not_found_error', 'model: nope'));
      const { err } = await rejected(() => p.complete(request));
      assert.ok(isAxmeError(err, 'CONFIG'));
      assert.match(err.message, /knows no model .* check auditor\.model/);
    });

    test('a refused request (400): INVALID_INPUT with the server\u2019s words', async () => {
      const p = await wire.open();
      s.script(failure(400, 'invalid_request_error', 'prompt is too long'));
      const { err, requests } = await rejected(() => p.complete(request));
      assert.equal(requests.length, 1);
      assert.ok(isAxmeError(err, 'INVALID_INPUT'));
      assert.match(err.message, /HTTP 400: prompt is too long/);
    });

    test('nothing listening: UNAVAILABLE naming the base URL', async () => {
      const port = await freePort();
      const base = wire.name === 'anthropic' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`;
      const p = await wire.open({ baseUrl: base, maxRetries: 0 });
      const { err } = await rejected(() => p.complete(request));
      assert.ok(isAxmeError(err, 'UNAVAILABLE'), String(err));
      assert.ok(err.message.startsWith(`could not reach ${base} (ECONNREFUSED`), err.message);
    });

    test('no answer in time: UNAVAILABLE, raise auditor.timeout_ms', async () => {
      const p = await wire.open({ maxRetries: 0 });
      s.script({ kind: 'hang' });
      const { err } = await rejected(() => p.complete({ ...request, timeoutMs: 200 }));
      assert.ok(isAxmeError(err, 'UNAVAILABLE'), String(err));
      assert.match(err.message, /did not answer within 200 ms .*auditor\.timeout_ms/);
      // the request reached the stand-in (it is held there): none of this test's arrives during the next
      await s.hung();
    });

    test('an aborted request: UNAVAILABLE, cancelled', async () => {
      const p = await wire.open({ maxRetries: 0 });
      s.script({ kind: 'hang' });
      const controller = new AbortController();
      // aborted once the stand-in holds the request: no wall-clock wait, and no request of this test arrives after it
      const pending = rejected(() => p.complete({ ...request, signal: controller.signal }));
      await s.hung();
      controller.abort();
      const { err } = await pending;
      assert.ok(isAxmeError(err, 'UNAVAILABLE'), String(err));
      assert.match(err.message, /cancelled/);
    });
  });
}

describe('set-up of the HTTP providers', () => {
  test('anthropic honours ANTHROPIC_BASE_URL from the environment it is given', async () => {
    const p = (await openProvider({ provider: 'anthropic', model: 'claude-haiku-4-5-20251001' }, { ANTHROPIC_API_KEY: s.key, ANTHROPIC_BASE_URL: s.url }))!;
    s.script(answer('via env'));
    const { result, requests } = await seen(() => p.complete(request));
    assert.equal(result.text, 'via env');
    assert.equal(requests[0]!.body!.model, 'claude-haiku-4-5-20251001');
    assert.equal(result.costUsd, (12 * 1 + 34 * 5) / 1_000_000);
  });

  test('anthropic reads the key from api_key_env', async () => {
    const p = (await openProvider({ provider: 'anthropic', baseUrl: s.url, apiKeyEnv: 'MY_KEY' }, { MY_KEY: s.key }))!;
    s.script(answer('ok'));
    assert.equal((await p.complete(request)).text, 'ok');
  });

  test('anthropic without a key: CONFIG saying which variable to set', async () => {
    await assert.rejects(openProvider({ provider: 'anthropic' }, {}), (err) => isAxmeError(err, 'CONFIG') && /set ANTHROPIC_API_KEY/.test(err.message));
  });

  test('openai on a server of one\u2019s own (OPENAI_BASE_URL), no key: sends `Bearer ollama`', async () => {
    const local = await startStandIn({ key: 'ollama' });
    try {
      const p = (await openProvider({ provider: 'auto', model: 'llama3.2' }, { OPENAI_BASE_URL: local.openaiUrl, PATH: '' }))!;
      assert.equal(p.name, 'openai');
      local.script(answer('local'));
      assert.equal((await p.complete(request)).text, 'local');
      assert.equal(local.requests[0]!.headers.authorization, 'Bearer ollama');
    } finally {
      await local.close();
    }
  });

  test('openai on a server of one\u2019s own without a model: CONFIG asking for auditor.model', async () => {
    await assert.rejects(
      openProvider({ provider: 'openai', baseUrl: s.openaiUrl }, { OPENAI_API_KEY: s.key }),
      (err) => isAxmeError(err, 'CONFIG') && /auditor\.model is required/.test(err.message),
    );
  });

  test('openai on OpenAI itself without a key: CONFIG, nothing sent', async () => {
    await assert.rejects(openProvider({ provider: 'openai' }, {}), (err) => isAxmeError(err, 'CONFIG') && /set OPENAI_API_KEY/.test(err.message));
  });

  test('none opens nothing', async () => {
    assert.equal(await openProvider({ provider: 'none' }, { ANTHROPIC_API_KEY: 'k' }), null);
    assert.equal(await openProvider({ provider: 'auto' }, { PATH: '' }), null);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
