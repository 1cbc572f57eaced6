import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LOG_BURST, LOG_PER_SECOND } from '../../src/mcp/http/log-rate.ts';
import { makeStore } from '../store-fixture.ts';
import { type HttpServer, raw, startHttp } from './http-helpers.ts';

/**
 * An error `axme serve --http` did not expect while answering a request: the client gets a
 * generic JSON-RPC internal error with an id it can quote, never the error's own words; the
 * operator's log has the stack once per distinct error under that id, then a throttled count.
 * Against the real server over HTTP, with a request that makes its handler throw.
 */

/** A request whose target makes the server's handler throw (`GET //`: a URL with no host). */
const CRASHING_PATH = '//';

describe('axme serve --http answers an unexpected error without its internals, and logs it once', () => {
  let dir: string;
  let cleanup: () => void;
  let server: HttpServer;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' }, commit: false }));
    server = await startHttp(dir);
  });
  after(async () => {
    await server?.stop();
    cleanup();
  });

  test('the client gets -32603 and an id to quote; the log has the stack once under that id, then a bounded count', async () => {
    const started = performance.now();
    const ids: string[] = [];
    const sent = LOG_BURST * 3;
    for (let i = 0; i < sent; i++) {
      const r = await raw(server.url.replace(/\/mcp$/, CRASHING_PATH), { method: 'GET' });
      assert.equal(r.status, 500, r.body);
      const reply = JSON.parse(r.body) as { error: { code: number; message: string; data?: { id?: string } } };
      assert.equal(reply.error.code, -32603);
      assert.doesNotMatch(reply.error.message, /Invalid URL|TypeError|\bat\b.*:\d+|\//, 'the error itself reaches the client');
      assert.match(reply.error.message, /operator/);
      const id = reply.error.data?.id;
      assert.ok(id && reply.error.message.includes(id), `an id in the message and in data: ${r.body}`);
      ids.push(id);
    }
    const seconds = (performance.now() - started) / 1000;
    assert.equal(new Set(ids).size, ids.length, 'each request its own id');
    await server.waitForLog(new RegExp(ids[0]!));
    const log = server.stderr();
    const stacks = log.match(/\n\s+at /g)?.length ?? 0;
    assert.ok(stacks > 0, `the stack is logged: ${log}`);
    const traces = log.split('\n').filter((l) => /^axme serve: internal error/.test(l));
    const withStack = log.split(/\naxme serve: /).filter((l) => /^internal error/.test(l) && /\n\s+at /.test(l));
    assert.equal(withStack.length, 1, `one stack for one distinct error: ${log}`);
    assert.match(withStack[0]!, new RegExp(`^internal error ${ids[0]}\\b`), 'the stack under the id the first client got');
    assert.match(withStack[0]!, /Invalid URL/, 'the operator reads what failed');
    const bound = LOG_BURST + Math.ceil(seconds * LOG_PER_SECOND) + 1;
    assert.ok(traces.length <= bound, `${traces.length} log lines for ${sent} failures in ${seconds.toFixed(1)} s`);
    assert.ok(traces.length < sent, 'every failure logged: no throttle');
  });
});
