import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { axmeOk, tempRepo } from '../helpers.ts';
import { connectStdio, resultText, type ToolResult } from './stdio-client.ts';

/** A tool refuses arguments it does not take: the real MCP client over stdio. */
describe('unknown tool arguments', () => {
  let dir: string;
  let cleanup: () => void;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolResult;
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    await axmeOk(dir, ['init']);
    await axmeOk(dir, ['backlog', 'add', '--title', 'Cache warm-up']);
    ({ client } = await connectStdio(dir));
  });
  after(async () => {
    await client.close();
    cleanup();
  });

  test('an unknown argument is refused with its name and the accepted ones, on every tool; nothing is written', async () => {
    const r = await call('axme_save_decision', { title: 'Use Valkey', decision: 'Caches live in Valkey.', enfroce: 'required' });
    assert.equal(r.isError, true);
    assert.match(resultText(r), /unknown argument "enfroce": axme_save_decision takes .*\benforce\b/);
    assert.match(resultText(r), /\btitle\b/);
    assert.deepEqual(await axmeOk(dir, ['decision', 'list', '--json']), [], 'nothing saved');
    const read = await call('axme_backlog', { ids: 'B-001' });
    assert.equal(read.isError, true);
    assert.match(resultText(read), /"ids"/);
    const { tools } = await client.listTools();
    for (const t of tools)
      assert.equal((t.inputSchema as { additionalProperties?: unknown }).additionalProperties, false, `${t.name} declares it takes no other field`);
    // the session's own tools ask a client that loads tools on demand (Claude Code) to load them up front
    const upFront = tools.filter((t) => t._meta?.['anthropic/alwaysLoad'] === true).map((t) => t.name);
    assert.deepEqual(upFront.sort(), ['axme_begin_close', 'axme_context', 'axme_finalize_close', 'axme_save_decision', 'axme_save_memory', 'axme_search_kb']);
    for (const t of tools) assert.equal(typeof t._meta?.['anthropic/searchHint'], 'string', `${t.name} gives the search a hint`);
    const alias = await call('axme_context', { workspace_path: dir });
    assert.equal(alias.isError, undefined, 'the AXME alias of project_path is still taken');
  });

  test("a nested object's unknown field is refused too: a close's decision with a misspelt enforce", async () => {
    const r = await call('axme_finalize_close', {
      summary: 's',
      decisions: [{ title: 'Never rebase shared branches', decision: 'No rebase on shared/*.', enforcment: 'required' }],
    });
    assert.equal(r.isError, true, resultText(r));
    assert.match(resultText(r), /enforcment/);
    // the same words as the CLI's: the fields a decision takes, so the model can mend the call
    assert.match(resultText(r), /it takes title, decision, reasoning, enforce/);
    assert.deepEqual(await axmeOk(dir, ['decision', 'list', '--json']), [], 'nothing saved');
    const { tools } = await client.listTools();
    const close = tools.find((t) => t.name === 'axme_finalize_close')!.inputSchema as unknown as {
      properties: { decisions: { description?: string; items: { additionalProperties?: unknown; properties: { title: { description?: string } } } } };
    };
    assert.equal(close.properties.decisions.items.additionalProperties, false, 'a decision declares it takes no other field');
    assert.ok(close.properties.decisions.description, 'descriptions kept');
    assert.ok(close.properties.decisions.items.properties.title.description, 'descriptions kept');
  });
});
