import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { axmeOk, CLI, cleanEnv, git, tempRepo } from '../helpers.ts';
import { makeStore } from '../store-fixture.ts';
import { type HttpServer, httpClient, INIT, raw, startHttp, type ToolResult, text } from './http-helpers.ts';

/**
 * `axme serve --http` as a real process on 127.0.0.1 with the SDK's Streamable HTTP client:
 * the same tools as stdio, tokens and scopes, sessions shared over one store, the bounds.
 */

async function stdioTools(dir: string): Promise<string[]> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve'],
    cwd: dir,
    env: cleanEnv({ AXME_SESSION: 'mcp-test' }) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio', version: '1' });
  await client.connect(transport);
  const names = (await client.listTools()).tools.map((t) => t.name).sort();
  await client.close();
  return names;
}

/** Arguments a tool accepts, made from its input schema: each required field given a plain value. */
function probeArgs(schema: { properties?: Record<string, any>; required?: string[] }): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const k of schema.required ?? []) {
    const p = schema.properties?.[k] ?? {};
    const type = Array.isArray(p.type) ? p.type[0] : (p.type ?? (p.anyOf?.[0]?.type as string | undefined));
    args[k] = p.enum
      ? p.enum[0]
      : type === 'array'
        ? []
        : type === 'boolean'
          ? false
          : type === 'number' || type === 'integer'
            ? 1
            : type === 'object'
              ? {}
              : 'probe';
  }
  return args;
}

describe('axme serve --http: tools over Streamable HTTP, open on loopback', () => {
  let dir: string;
  let cleanup: () => void;
  let server: HttpServer;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolResult;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' }, commit: false }));
    server = await startHttp(dir);
    client = await httpClient(server.url);
  });
  after(async () => {
    await client.close().catch(() => {});
    await server.stop();
    cleanup();
  });

  test('lists the same tools as stdio, and every tool answers', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), await stdioTools(dir));
    for (const t of tools) {
      const r = (await client.callTool({ name: t.name, arguments: probeArgs(t.inputSchema as never) })) as ToolResult;
      assert.ok(r.content.length > 0, `${t.name} answered nothing`);
      assert.doesNotMatch(text(r), /internal error/, `${t.name}: ${text(r)}`);
    }
  });

  test('save -> get -> search -> context -> resources round trip', async () => {
    const saved = await call('axme_save_decision', { title: 'Use Postgres for storage', decision: 'All data in Postgres.', reasoning: 'Known.' });
    assert.match(text(saved), /^Decision saved: D-\d+ - Use Postgres for storage/);
    const id = saved.structuredContent.id as string;
    assert.match(text(await call('axme_get_decision', { id_or_slug: id })), /All data in Postgres/);
    assert.match(
      text(await call('axme_save_memory', { title: 'Run tests with tsx', description: 'node --import tsx --test', type: 'feedback' })),
      /Memory saved/,
    );
    assert.match(text(await call('axme_backlog_add', { title: 'Ship the team server' })), /B-\d+/);
    assert.match(text(await call('axme_search_kb', { query: 'postgres' })), /Use Postgres for storage/);
    assert.match(text(await call('axme_context')), /Use Postgres|decisions/i);
    const res = await client.listResources();
    const uri = res.resources.find((r) => r.uri === 'axme://decisions/use-postgres-for-storage')!.uri;
    const read = await client.readResource({ uri });
    assert.match(String((read.contents[0] as { text: string }).text), /All data in Postgres/);
  });

  test('reading an item that is not there answers -32002 (resource not found), as over stdio', async () => {
    await assert.rejects(client.readResource({ uri: 'axme://decisions/no-such-decision' }), (err: { code?: number; message?: string }) => {
      assert.equal(err.code, -32002, err.message);
      return true;
    });
  });

  test('a project_path other than the served repository is refused', async () => {
    const r = await call('axme_status', { project_path: '/' });
    assert.equal(r.isError, true);
    assert.match(text(r), /serves .* only/);
  });

  test('a DNS-rebinding Host is refused; the server keeps answering', async () => {
    const r = await raw(server.url, { headers: { Host: 'evil.example' }, body: INIT });
    assert.equal(r.status, 403);
    assert.match(r.body, /not allowed/);
    assert.match(r.body, /Host \\"evil\.example\\"/);
    // a foreign Origin is refused as the Origin, the Host being fine
    for (const o of ['http://evil.example', 'null']) {
      const origin = await raw(server.url, { headers: { Origin: o }, body: INIT });
      assert.equal(origin.status, 403);
      assert.match(origin.body, new RegExp(`Origin \\\\"${o.replace('.', '\\.')}\\\\" is not allowed`));
      assert.doesNotMatch(origin.body, /Host/);
    }
    assert.equal((await raw(server.url, { body: INIT })).status, 200);
  });

  test('an oversize body is refused with 413, and the server still answers', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'axme_save_memory', arguments: { title: 'big', content: 'x'.repeat(2 * 1024 * 1024) } },
    });
    const r = await raw(server.url, { body: big });
    assert.ok(r.status === 413 || r.status === -1, `status ${r.status}`);
    const chunked = await raw(server.url, { headers: { 'Transfer-Encoding': 'chunked' }, body: Buffer.alloc(3 * 1024 * 1024, 0x20) });
    assert.ok(chunked.status === 413 || chunked.status === -1, `status ${chunked.status}`);
    const again = await httpClient(server.url);
    assert.match(text((await again.callTool({ name: 'axme_status', arguments: {} })) as ToolResult), /refs\/memory\/main|items|decisions/i);
    await again.close();
  });
});

describe('axme serve --http: tokens and scopes', () => {
  let dir: string;
  let cleanup: () => void;
  let server: HttpServer;
  const tokens: Record<string, string> = {};
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' }, commit: false }));
    for (const [name, scope] of [
      ['alice', 'write'],
      ['bob', 'write'],
      ['reader', 'read'],
    ])
      tokens[name!] = (await axmeOk(dir, ['token', 'add', name!, '--scope', scope!, '--json'])).token;
    server = await startHttp(dir);
  });
  after(async () => {
    await server.stop();
    cleanup();
  });

  test('401 with WWW-Authenticate without a token or with a wrong one', async () => {
    const none = await raw(server.url, { body: INIT });
    assert.equal(none.status, 401);
    assert.equal(none.headers['www-authenticate'], 'Bearer realm="axme"');
    const wrong = await raw(server.url, { headers: { Authorization: 'Bearer axme_wrong' }, body: INIT });
    assert.equal(wrong.status, 401);
    assert.match(String(wrong.headers['www-authenticate']), /^Bearer realm="axme"/);
    await assert.rejects(httpClient(server.url, 'axme_wrong'), (err: { code?: number }) => err.code === 401);
  });

  test('a read token reads but cannot save: the refusal is a tool error in words (the scope it needs), and nothing is written', async () => {
    const reader = await httpClient(server.url, tokens.reader);
    assert.match(text((await reader.callTool({ name: 'axme_decisions', arguments: {} })) as ToolResult), /decision|no /i);
    const tip = git(dir, ['rev-parse', 'refs/memory/main']);
    // a client hands its model a tool error's text; a refused HTTP request reaches it as the client's transport error
    const refused = (await reader.callTool({ name: 'axme_save_memory', arguments: { title: 'nope', description: 'nope', type: 'feedback' } })) as ToolResult;
    assert.equal(refused.isError, true);
    assert.match(text(refused), /^not allowed: .*token reader has scope read.*axme_save_memory needs write.*nothing was saved/s);
    assert.match(text(refused), /axme token add <name> --scope write/);
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main']), tip);
    // a call outside a session is refused as before (no session, no tool runs)
    const outside = await raw(server.url, {
      headers: { Authorization: `Bearer ${tokens.reader}`, 'Mcp-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'axme_save_memory', arguments: {} } }),
    });
    assert.equal(outside.status, 400);
    await reader.close();
  });

  test("a second client sees the first one's writes; the commit carries the token name", async () => {
    const a = await httpClient(server.url, tokens.alice);
    const b = await httpClient(server.url, tokens.bob);
    const saved = (await a.callTool({
      name: 'axme_save_decision',
      arguments: { title: 'Alice picks SQLite', decision: 'SQLite for the cache.' },
    })) as ToolResult;
    assert.match(text(saved), /Decision saved/);
    assert.match(text((await b.callTool({ name: 'axme_search_kb', arguments: { query: 'sqlite' } })) as ToolResult), /Alice picks SQLite/);
    const msg = git(dir, ['log', '-1', '--format=%B', 'refs/memory/main']);
    assert.match(msg, /^Axme-Actor: agent$/m);
    assert.match(msg, /^Axme-Token: alice$/m);
    assert.match(msg, /^Axme-Session: /m);
    const log = await axmeOk(dir, ['log', '--json']);
    assert.equal((Array.isArray(log) ? log : log.entries)[0].actor, 'agent');
    assert.equal((Array.isArray(log) ? log : log.entries)[0].token, 'alice', 'axme log names the token');
    // a session is its token's own
    const sid = (a as unknown as { transport: { sessionId: string } }).transport.sessionId;
    const stolen = await raw(server.url, {
      headers: { Authorization: `Bearer ${tokens.bob}`, 'Mcp-Session-Id': sid, 'Mcp-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    assert.equal(stolen.status, 404);
    await a.close();
    await b.close();
  });

  test('a revoked token is refused by the running server', async () => {
    const t = (await axmeOk(dir, ['token', 'add', 'temp', '--scope', 'read', '--json'])).token;
    assert.equal((await raw(server.url, { headers: { Authorization: `Bearer ${t}` }, body: INIT })).status, 200);
    await axmeOk(dir, ['token', 'revoke', 'temp']);
    assert.equal((await raw(server.url, { headers: { Authorization: `Bearer ${t}` }, body: INIT })).status, 401);
  });
});

test('a served repository without knowledge yet: the start says so, and a call names the server, not the caller, as the place to run axme init', async () => {
  const { dir, cleanup } = tempRepo({ bare: true });
  const server = await startHttp(dir);
  try {
    await server.waitForLog(/no axme knowledge in .* yet .*axme init/);
    const client = await httpClient(server.url);
    const r = (await client.callTool({ name: 'axme_save_decision', arguments: { title: 'Rounding', decision: 'Half to even.' } })) as ToolResult;
    assert.equal(r.isError, true);
    // the model's own project is not where the fix is: `axme init` there changes nothing on the server
    assert.match(text(r), /the team server's repository \(.+\) has no axme knowledge yet/);
    assert.match(text(r), /whoever runs the team server runs `axme init` in that repository/);
    assert.equal(git(dir, ['for-each-ref', 'refs/memory']).trim(), '', 'nothing was written');
    // once the operator initialises it, the running server serves it
    await axmeOk(dir, ['init']);
    assert.match(
      text((await client.callTool({ name: 'axme_save_decision', arguments: { title: 'Rounding', decision: 'Half to even.' } })) as ToolResult),
      /Decision saved/,
    );
    await client.close();
  } finally {
    await server.stop();
    cleanup();
  }
});
