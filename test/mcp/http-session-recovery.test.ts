import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { axmeOk, git } from '../helpers.ts';
import { makeStore } from '../store-fixture.ts';
import { httpClient, startHttp, type ToolResult, text } from './http-helpers.ts';

/**
 * `axme serve --http` recovers the axme sessions its MCP sessions leave (docs/sessions.md): when a
 * session ends (the client terminates it, or it expires idle), when the server stops, and when it
 * starts (what a killed server left). A recovered session has its handoff; none stays an orphan.
 */

type Listed = { id: string; status: string; harness: string };

describe('axme serve --http: sessions recovered', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' }, commit: false }));
  });
  after(() => cleanup());

  /** A client that saves a decision (which opens its axme session) and is left connected. */
  const saving = async (url: string, title: string) => {
    const client = await httpClient(url);
    const r = (await client.callTool({ name: 'axme_save_decision', arguments: { title, decision: `${title}, decided.` } })) as ToolResult;
    assert.match(text(r), /Decision saved/);
    return client;
  };
  const sessions = async (): Promise<Listed[]> => (await axmeOk(dir, ['session', 'list', '--json'])) as Listed[];
  const orphans = async () => (await sessions()).filter((s) => s.status === 'orphan' || s.status === 'orphaned');
  const handoffs = () =>
    git(dir, ['ls-tree', '-r', '--name-only', 'refs/memory/main'])
      .split('\n')
      .filter((p) => p.startsWith('handoffs/'));

  test('a session the client terminates is recovered at once: its handoff is written', async () => {
    const server = await startHttp(dir);
    try {
      const before = handoffs().length;
      const client = await saving(server.url, 'Terminated session decision');
      await (client.transport as unknown as { terminateSession(): Promise<void> }).terminateSession();
      await server.waitForLog(/recovered session \S+ at end/, 60_000);
      assert.deepEqual(await orphans(), []);
      assert.ok(handoffs().length > before, 'no handoff written');
      await client.close();
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
  });

  test('a session that expires idle is recovered', async () => {
    const server = await startHttp(dir, ['--idle-timeout', '1']);
    try {
      const client = await saving(server.url, 'Idle session decision');
      await server.waitForLog(/closed after 1 s idle/, 60_000);
      await server.waitForLog(/recovered session \S+ at end/, 60_000);
      assert.deepEqual(await orphans(), []);
      await client.close().catch(() => {});
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
  });

  test('the sessions open when the server stops are recovered at the stop', async () => {
    const server = await startHttp(dir);
    const client = await saving(server.url, 'Stopped server decision');
    const exit = await server.stop('SIGTERM');
    assert.equal(exit.code, 0, server.stderr());
    assert.match(server.stderr(), /recovered session \S+ at stop/);
    assert.deepEqual(await orphans(), []);
    await client.close().catch(() => {});
  });

  test('what a killed server left is recovered when the next one starts', async () => {
    const first = await startHttp(dir);
    const client = await saving(first.url, 'Killed server decision');
    await first.stop('SIGKILL');
    await client.close().catch(() => {});
    assert.equal((await orphans()).length, 1, 'the killed server left no orphan');
    const second = await startHttp(dir);
    try {
      await second.waitForLog(/recovered session \S+ at start/, 60_000);
      assert.deepEqual(await orphans(), []);
    } finally {
      assert.equal((await second.stop()).code, 0);
    }
  });
});
