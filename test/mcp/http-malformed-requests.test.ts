import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { LOG_BURST, LOG_PER_SECOND } from '../../src/mcp/http/log-rate.ts';
import { makeStore } from '../store-fixture.ts';
import { type HttpServer, INIT, raw, startHttp } from './http-helpers.ts';

/**
 * Requests that are not what the MCP endpoint takes — a body cut off by the client, a body that
 * is not JSON by its Content-Type, a client that accepts no JSON or no event stream, a method the
 * endpoint has not — are refused as such, before the body is read, each one line of the refusal
 * log at its rate: never an internal error, never a log line per request without a bound.
 */

/** A POST whose client hangs up after part of its declared body; resolves once its socket closed. */
function hangUpMidBody(url: string): Promise<void> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = connect(Number(u.port), u.hostname, () => {
      s.write(
        `POST ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"`,
        () => s.destroy(),
      );
    });
    s.on('close', () => resolve());
    s.on('error', () => {});
  });
}

describe('axme serve --http refuses malformed requests as such', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' }, commit: false }));
  });
  after(() => cleanup());

  test('a client that hangs up in the middle of its body is no internal error of the server', async () => {
    const server: HttpServer = await startHttp(dir);
    try {
      for (let i = 0; i < 5; i++) await hangUpMidBody(server.url);
      // served on: the next request is answered
      assert.equal((await raw(server.url, { body: INIT })).status, 200);
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
    assert.doesNotMatch(server.stderr(), /internal error|\n\s+at /, server.stderr());
  });

  test('a wrong Content-Type, an Accept without JSON or the event stream, another method: 415, 406, 405, each logged as a refusal at the log’s rate', async () => {
    const server: HttpServer = await startHttp(dir);
    const started = performance.now();
    try {
      const sent = LOG_BURST * 3;
      for (let i = 0; i < sent; i++) {
        const r = await raw(server.url, { headers: { 'Content-Type': 'text/plain' }, body: INIT });
        assert.equal(r.status, 415, r.body);
        assert.match(JSON.parse(r.body).error.message, /Content-Type/);
      }
      const noJson = await raw(server.url, { headers: { Accept: 'text/event-stream' }, body: INIT });
      assert.equal(noJson.status, 406, noJson.body);
      const put = await raw(server.url, { method: 'PUT', body: INIT });
      assert.equal(put.status, 405, put.body);
      assert.match(String(put.headers.allow), /GET/);
      const init = await raw(server.url, { body: INIT });
      const sid = String(init.headers['mcp-session-id']);
      const get = await raw(server.url, {
        method: 'GET',
        headers: { Accept: 'application/json', 'Mcp-Session-Id': sid, 'Mcp-Protocol-Version': '2025-06-18' },
      });
      assert.equal(get.status, 406, get.body);
    } finally {
      // stopped: its log is whole
      assert.equal((await server.stop()).code, 0);
    }
    const seconds = (performance.now() - started) / 1000;
    const log = server.stderr();
    assert.doesNotMatch(log, /protocol error/, 'a line per refused request, outside the refusal log');
    const lines = log.split('\n').filter((l) => /^axme serve: refused /.test(l));
    assert.ok(
      lines.some((l) => / POST \/mcp from \S+: 415 /.test(l)),
      log,
    );
    assert.ok(lines.length <= LOG_BURST + Math.ceil(seconds * LOG_PER_SECOND) + 1, `${lines.length} lines in ${seconds.toFixed(1)} s`);
  });
});
