import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REFUSAL_LOG_BURST, refusalLog } from '../../src/mcp/http/refusal-log.ts';
import { axmeInOk } from '../cli-in-process.ts';
import { makeStore } from '../store-fixture.ts';
import { type HttpServer, INIT, raw, startHttp } from './http-helpers.ts';

/**
 * Every request `axme serve --http` refuses is one line on its stderr: when, the method, the path
 * without its query, the address it came from, the status and why; never the token or the query.
 * Against the real server over HTTP; the log's own rate limit is also checked on its clock.
 */

/** A refusal line as the server writes it (after the CLI's "axme serve: " prefix). */
const LINE = /^axme serve: refused (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (\S+) (\S+) from (\S+): (\d{3}) (.+)$/;

const refusals = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('axme serve: refused '))
    .map((l) => {
      const m = LINE.exec(l);
      assert.ok(m, `a refusal line has every field: ${l}`);
      return { method: m[2]!, path: m[3]!, remote: m[4]!, status: Number(m[5]), reason: m[6]! };
    });

describe('axme serve --http logs each refused request, one line each', () => {
  let dir: string;
  let cleanup: () => void;
  let token: string;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' }, commit: false }));
    token = (await axmeInOk(dir, ['token', 'add', 'ann', '--scope', 'read', '--json'])).token;
  });
  after(() => cleanup());

  test('bad path, bad token, bad host, too large, not JSON, no session, rate limit: each logged with its status, no token or query', async () => {
    const server: HttpServer = await startHttp(dir, ['--max-body', '1024', '--rate-limit', '0.001']);
    const secret = 'axme_0123456789abcdefSECRETSECRET';
    try {
      const auth = { Authorization: `Bearer ${token}` };
      const sent: Array<[status: number, method: string, path: string]> = [];
      const send = async (path: string, opts: Parameters<typeof raw>[1], expect: number) => {
        const r = await raw(server.url.replace(/\/mcp$/, path), opts);
        assert.equal(r.status, expect, `${path}: ${r.body}`);
        sent.push([expect, opts.method ?? 'POST', path.split('?')[0]!]);
      };
      await send(`/other?token=${secret}`, { method: 'GET' }, 404);
      await send(`/mcp?access_token=${secret}`, { headers: { Authorization: `Bearer ${secret}` }, body: INIT }, 401);
      await send('/mcp', { headers: { ...auth, Host: 'evil.example' }, body: INIT }, 403);
      await send('/mcp', { headers: auth, body: 'x'.repeat(2048) }, 413);
      await send('/mcp', { headers: auth, body: '{not json' }, 400);
      await send('/mcp', { headers: auth, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) }, 400);
      // the bucket holds 10 at this rate: the requests above took 3 of them (path, token and host are refused before it)
      for (let i = 0; i < 7; i++) await send('/mcp', { headers: auth, body: '{not json' }, 400);
      await send('/mcp', { headers: auth, body: INIT }, 429);
      await server.waitForLog(/refused \S+ POST \/mcp from \S+: 429 /);
      const lines = refusals(server.stderr());
      assert.deepEqual(
        lines.map((l) => [l.status, l.method, l.path]),
        sent,
        'one line per refused request, in order, the path without its query',
      );
      for (const l of lines) assert.match(l.remote, /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
      const reason = (status: number) => lines.find((l) => l.status === status)!.reason;
      assert.match(reason(404), /not found/);
      assert.match(reason(401), /bearer token is not valid/);
      assert.match(reason(403), /Host "evil\.example" is not allowed/);
      assert.match(reason(413), /over the 1024-byte limit/);
      assert.match(reason(429), /too many requests for token ann/);
      assert.doesNotMatch(server.stderr(), /SECRET|access_token|\?token/, 'never the token, never the query');
      assert.doesNotMatch(server.stderr(), new RegExp(token), "never the caller's token");
    } finally {
      await server.stop();
    }
  });

  test('a flood of refused requests writes a bounded number of lines', async (t) => {
    const server: HttpServer = await startHttp(dir);
    let stderr = '';
    try {
      const flood = 120;
      for (let i = 0; i < flood; i++) assert.equal((await raw(server.url.replace(/\/mcp$/, `/probe${i}`), { method: 'GET' })).status, 404);
    } finally {
      await server.stop();
      stderr = server.stderr();
    }
    const lines = refusals(stderr).filter((l) => l.path.startsWith('/probe'));
    t.diagnostic(`${lines.length} lines for 120 refused requests`);
    // the burst, and one a second after it: far fewer than the 120 refused
    assert.ok(lines.length >= REFUSAL_LOG_BURST && lines.length < 60, `${lines.length} lines for 120 refusals`);
  });
});

describe('the refusal log keeps its own rate (its clock given)', () => {
  test('a burst, then one line a second; the lines left out are counted on the next one', () => {
    const lines: string[] = [];
    let now = Date.parse('2026-12-02T00:00:00Z');
    const log = refusalLog({ log: (l) => lines.push(l), now: () => now, burst: 3, perSecond: 1 });
    const r = { method: 'GET', path: '/x', remote: '127.0.0.1', status: 404, reason: 'not found' };
    for (let i = 0; i < 10; i++) log(r);
    assert.equal(lines.length, 3);
    assert.equal(lines[0], 'refused 2026-12-02T00:00:00.000Z GET /x from 127.0.0.1: 404 not found');
    now += 1000;
    log(r);
    assert.equal(lines.length, 4);
    assert.equal(lines[3], 'refused 2026-12-02T00:00:01.000Z GET /x from 127.0.0.1: 404 not found (7 more refused before this one, not logged: too many)');
    log(r);
    assert.equal(lines.length, 4, 'the bucket is empty again');
  });
});
