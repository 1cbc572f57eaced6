import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeStore } from '../store-fixture.ts';
import { type HttpServer, INIT, raw, startHttp } from './http-helpers.ts';

/**
 * A client reuses its kept-alive connection for its next request. When the server closes an idle
 * one just as that request arrives, the request is lost to a reset (ECONNRESET): a client whose
 * requests wait on each other's writes (32 clients on a loaded machine) sits idle past Node's
 * default 5 s. The server keeps an idle connection a minute, and says so, so that clients drop it
 * first.
 */
describe('axme serve --http keeps an idle connection open while a client may still reuse it', () => {
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

  test('the Keep-Alive timeout it announces is a minute or more', async () => {
    const r = await raw(server.url, { headers: { Connection: 'keep-alive' }, body: INIT });
    const announced = /timeout=(\d+)/.exec(String(r.headers['keep-alive'] ?? ''));
    assert.ok(announced, `a Keep-Alive header: ${JSON.stringify(r.headers)}`);
    assert.ok(Number(announced[1]) >= 60, `timeout=${announced[1]} s`);
  });
});
