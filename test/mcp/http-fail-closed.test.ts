import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addToken, tokensPath } from '../../src/knowledge/admin/tokens.ts';
import { REFUSAL_LOG_BURST, REFUSAL_LOG_PER_SECOND } from '../../src/mcp/http/refusal-log.ts';
import { axmeIn, axmeInOk } from '../cli-in-process.ts';
import { cleanEnv } from '../helpers.ts';
import { makeStore } from '../store-fixture.ts';
import { type HttpServer, httpClient, INIT, raw, startHttp, startRefused, type ToolResult, text } from './http-helpers.ts';

/**
 * Attacks on `axme serve --http` as a team server: each test is named by what it tries, and the
 * server must stay closed (tokens required once they were), refuse to start open behind a proxy,
 * and keep one token from holding every session or passing the rate limit in one batch.
 */

/** Opens a session with a raw initialize; its id. */
async function rawSession(url: string, token: string): Promise<string> {
  const r = await raw(url, { headers: { Authorization: `Bearer ${token}` }, body: INIT });
  assert.equal(r.status, 200, r.body);
  return String(r.headers['mcp-session-id']);
}

/** A ping on session `sid`: the status. */
async function ping(url: string, token: string, sid: string): Promise<number> {
  const r = await raw(url, {
    headers: { Authorization: `Bearer ${token}`, 'Mcp-Session-Id': sid, 'Mcp-Protocol-Version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  return r.status;
}

describe('axme serve --http fails closed', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' }, commit: false }));
  });
  after(() => cleanup());

  test('revoking the last token does not open the server: everyone gets 401, the revoked token too, and the log says how to add one', async () => {
    const file = join(dir, 'last-token.json');
    const only = (await axmeInOk(dir, ['token', 'add', 'only', '--scope', 'write', '--json', '--tokens', file])).token as string;
    const server = await startHttp(dir, ['--tokens', file]);
    try {
      const client = await httpClient(server.url, only);
      assert.match(text((await client.callTool({ name: 'axme_status', arguments: {} })) as ToolResult), /refs\/memory\/main|items|decisions/i);
      await axmeInOk(dir, ['token', 'revoke', 'only', '--tokens', file]);
      assert.equal((await raw(server.url, { body: INIT })).status, 401, 'an anonymous caller is let in');
      assert.equal((await raw(server.url, { headers: { Authorization: `Bearer ${only}` }, body: INIT })).status, 401, 'the revoked token is let in');
      await assert.rejects(client.callTool({ name: 'axme_status', arguments: {} }), (err: { code?: number }) => err.code === 401);
      const line = await server.waitForLog(/no token left[^\n]*/);
      assert.match(line, /401/);
      assert.match(line, /axme token add/);
      assert.ok(!line.includes(only), 'a token in the log');
      // a token added now is taken (the file is reread); anonymous callers stay out
      const again = (await axmeInOk(dir, ['token', 'add', 'again', '--scope', 'read', '--json', '--tokens', file])).token as string;
      assert.equal((await raw(server.url, { headers: { Authorization: `Bearer ${again}` }, body: INIT })).status, 200);
      assert.equal((await raw(server.url, { body: INIT })).status, 401);
      await client.close().catch(() => {});
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
  });

  test('a tokens file damaged while the server runs: every request gets 503 telling the operator what to do (no path, no parser internals), the log is throttled and has no stack; fixed, it serves again', async () => {
    const file = join(dir, 'damaged-tokens.json');
    const token = (await axmeInOk(dir, ['token', 'add', 'keeper', '--scope', 'write', '--json', '--tokens', file])).token as string;
    const good = readFileSync(file, 'utf8');
    const server = await startHttp(dir, ['--tokens', file]);
    try {
      assert.equal((await raw(server.url, { headers: { Authorization: `Bearer ${token}` }, body: INIT })).status, 200);
      writeFileSync(file, '{"version":1,"tokens":[{"name":"keeper"}]}');
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: REFUSAL_LOG_BURST * 3 }, (_, i) => raw(server.url, { headers: i % 2 ? { Authorization: `Bearer ${token}` } : {}, body: INIT })),
      );
      const seconds = (performance.now() - started) / 1000;
      for (const r of answers) {
        assert.equal(r.status, 503, r.body);
        const message = (JSON.parse(r.body) as { error: { message: string } }).error.message;
        assert.match(message, /tokens file/);
        assert.match(message, /operator/);
        assert.doesNotMatch(message, /damaged-tokens|\/|zod|internal error|\[/i, 'the path or the parser speaks to the client');
      }
      const line = await server.waitForLog(/refused [^\n]*503[^\n]*/);
      assert.match(line, /damaged-tokens\.json/, 'the log names the file');
      assert.match(line, /tokens\.0\.(scope|hash)/, 'the log says what is wrong');
      assert.doesNotMatch(server.stderr(), /\n\s+at /, 'a stack trace in the log');
      const lines = server
        .stderr()
        .split('\n')
        .filter((l) => /tokens file/.test(l)).length;
      // a burst, then one a second (refusal-log.ts); the sweep may add its own line
      const bound = REFUSAL_LOG_BURST + Math.ceil(seconds * REFUSAL_LOG_PER_SECOND) + 1;
      assert.ok(lines <= bound, `${lines} log lines for ${answers.length} refusals in ${seconds.toFixed(1)} s`);
      writeFileSync(file, good);
      assert.equal((await raw(server.url, { headers: { Authorization: `Bearer ${token}` }, body: INIT })).status, 200);
      assert.equal((await raw(server.url, { body: INIT })).status, 401, 'open once the file is fixed');
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
  });

  test('axme token list on a damaged tokens file names the file, what is wrong and what to do (exit 2)', async () => {
    const file = join(dir, 'list-damaged.json');
    for (const content of ['{"version":1,"tokens":[{"name":"x"}]}', '{"version":1,']) {
      writeFileSync(file, content);
      const r = await axmeIn(dir, ['token', 'list', '--tokens', file]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /list-damaged\.json/);
      assert.match(r.stderr, /axme token add/);
      assert.doesNotMatch(r.stderr, /\(\[|\n\s+at |ZodError/, 'zod internals or a stack');
    }
  });

  test("a token revoked and added again under its name cannot use the old token's sessions; the revoke ends them", async () => {
    const file = join(dir, 'reused-name.json');
    const old = (await axmeInOk(dir, ['token', 'add', 'bob', '--scope', 'write', '--json', '--tokens', file])).token as string;
    const server = await startHttp(dir, ['--tokens', file]);
    try {
      const sid = await rawSession(server.url, old);
      assert.equal(await ping(server.url, old, sid), 200);
      await axmeInOk(dir, ['token', 'revoke', 'bob', '--tokens', file]);
      const fresh = (await axmeInOk(dir, ['token', 'add', 'bob', '--scope', 'write', '--json', '--tokens', file])).token as string;
      assert.equal(await ping(server.url, fresh, sid), 404, "the new bob uses the revoked bob's session");
      assert.equal(await ping(server.url, old, sid), 401);
      await server.waitForLog(new RegExp(`session ${sid} of token bob closed[^\\n]*revoked`));
      const own = await rawSession(server.url, fresh);
      assert.equal(await ping(server.url, fresh, own), 200);
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
  });

  test('a token added to an open loopback server then revoked does not open it again', async () => {
    const file = join(dir, 'latch-tokens.json');
    const server = await startHttp(dir, ['--tokens', file]);
    try {
      await server.waitForLog(/no tokens: open to this machine only/);
      assert.equal((await raw(server.url, { body: INIT })).status, 200);
      const t = (await axmeInOk(dir, ['token', 'add', 'first', '--scope', 'read', '--json', '--tokens', file])).token as string;
      assert.equal((await raw(server.url, { body: INIT })).status, 401);
      await server.waitForLog(/a token was added[^\n]*every request needs one/);
      await axmeInOk(dir, ['token', 'revoke', 'first', '--tokens', file]);
      assert.equal((await raw(server.url, { body: INIT })).status, 401, 'open again after the revoke');
      assert.equal((await raw(server.url, { headers: { Authorization: `Bearer ${t}` }, body: INIT })).status, 401);
      await server.waitForLog(/no token left/);
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
  });

  test('--allowed-host without a token is refused at start (exit 2): the proxy would serve whoever reaches it', async () => {
    const r = await startRefused(dir, ['--allowed-host', 'axme.example.com', '--tokens', join(dir, 'none.json')]);
    assert.equal(r.listening, false, `it served: ${r.stderr}`);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--allowed-host/);
    assert.match(r.stderr, /axme token add/);
    assert.equal(r.stdout, '');
  });

  test('a non-loopback bind without a token is refused at start (exit 2)', async () => {
    const r = await startRefused(dir, ['--host', '0.0.0.0', '--tokens', join(dir, 'none.json')]);
    assert.equal(r.listening, false, `it served: ${r.stderr}`);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /axme token add/);
  });
});

describe('axme serve --http: one token cannot deny service to another', () => {
  let dir: string;
  let cleanup: () => void;
  let server: HttpServer;
  const tokens: Record<string, string> = {};
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' }, commit: false }));
    const path = tokensPath({ cwd: dir, env: cleanEnv() });
    for (const [name, scope] of [
      ['hog', 'read'],
      ['flood', 'read'],
      ['alice', 'write'],
    ] as const)
      tokens[name] = addToken({ path, name, scope, now: new Date() }).token;
    // the default limits: 32 sessions per token, 20 requests a second per token
    server = await startHttp(dir);
  });
  after(async () => {
    await server.stop();
    cleanup();
  });

  test('one read token cannot hold every session: its 33rd evicts its least recently used one, and another token still connects', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 33; i++) ids.push(await rawSession(server.url, tokens.hog!));
    assert.equal(await ping(server.url, tokens.hog!, ids[32]!), 200);
    assert.equal(await ping(server.url, tokens.hog!, ids[0]!), 404, 'the token holds 33 sessions');
    assert.equal(await ping(server.url, tokens.hog!, ids[1]!), 200, 'more than one session evicted');
    assert.match(await server.waitForLog(/session \S+ of token hog closed[^\n]*/), /32 sessions/);
    const alice = await httpClient(server.url, tokens.alice);
    assert.match(text((await alice.callTool({ name: 'axme_backlog_add', arguments: { title: 'Alice is still served' } })) as ToolResult), /B-\d+/);
    await alice.close();
  });

  test('a JSON-RPC batch of 100 calls is refused, not charged as one request against the rate limit', async () => {
    const sid = await rawSession(server.url, tokens.alice!);
    const batch = JSON.stringify(
      Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: 100 + i, method: 'tools/call', params: { name: 'axme_status', arguments: {} } })),
    );
    const r = await raw(server.url, {
      headers: { Authorization: `Bearer ${tokens.alice}`, 'Mcp-Session-Id': sid, 'Mcp-Protocol-Version': '2025-06-18' },
      body: batch,
    });
    assert.equal(r.status, 400, r.body.slice(0, 300));
    const reply = JSON.parse(r.body) as { error: { code: number; message: string } };
    assert.equal(reply.error.code, -32600);
    assert.match(reply.error.message, /batch/);
    assert.match(reply.error.message, /one request per message|each message on its own/);
    assert.equal(await ping(server.url, tokens.alice!, sid), 200, 'the session goes on');
  });

  test("a token flooding the server gets 429 while another token's calls are answered", async () => {
    const flood = Promise.all(
      Array.from({ length: 300 }, () =>
        raw(server.url, { headers: { Authorization: `Bearer ${tokens.flood}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) }),
      ),
    );
    const alice = await httpClient(server.url, tokens.alice);
    for (let i = 0; i < 5; i++) assert.ok(!((await alice.callTool({ name: 'axme_status', arguments: {} })) as ToolResult).isError);
    const statuses = (await flood).map((r) => r.status);
    assert.ok(statuses.includes(429), `the flood was not limited: ${[...new Set(statuses)].join(',')}`);
    await alice.close();
  });
});

describe('axme serve --http under load: 32 clients, one token each, the default limits', () => {
  let dir: string;
  let cleanup: () => void;
  let server: HttpServer;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' }, commit: false }));
  });
  after(async () => {
    await server?.stop();
    cleanup();
  });

  test('every write of every client is acknowledged and stored', async () => {
    const CLIENTS = 32;
    const WRITES = 5;
    const path = tokensPath({ cwd: dir, env: cleanEnv() });
    const tokens = Array.from({ length: CLIENTS }, (_, i) => addToken({ path, name: `client-${i}`, scope: 'write', now: new Date() }).token);
    server = await startHttp(dir);
    const clients = await Promise.all(tokens.map((t) => httpClient(server.url, t)));
    const results = await Promise.all(
      clients.map(async (client, c) => {
        const acked: string[] = [];
        for (let j = 0; j < WRITES; j++) {
          const title = `Load client ${c} write ${j}`;
          const r = (await client.callTool({ name: 'axme_backlog_add', arguments: { title } })) as ToolResult;
          assert.ok(!r.isError, `${title}: ${text(r)}`);
          acked.push(title);
        }
        return acked;
      }),
    );
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    const acked = results.flat();
    assert.equal(acked.length, CLIENTS * WRITES);
    const stored = JSON.stringify(await axmeInOk(dir, ['backlog', 'list', '--json']));
    const lost = acked.filter((t) => !stored.includes(t));
    assert.deepEqual(lost, [], `${lost.length} acknowledged writes lost`);
  });
});
