import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PRE_EDIT_HEADER } from '../../src/knowledge/views/recall-lines.ts';
import { axmeOk, tempRepo } from '../helpers.ts';
import { connectStdio, resultText, type ToolResult } from './stdio-client.ts';

/** Every `axme_<tool> <arg>` / `axme_<tool> {"arg": …}` a text names: the tool and the argument it tells a model to send. */
function mentions(text: string): Array<{ tool: string; arg: string }> {
  const out: Array<{ tool: string; arg: string }> = [];
  for (const m of text.matchAll(/\b(axme_[a-z_]+)(?: \/ (axme_[a-z_]+))* (?:<(\w+)>|\{"(\w+)")/g)) out.push({ tool: m[1]!, arg: (m[3] ?? m[4])! });
  for (const m of text.matchAll(/\/ (axme_[a-z_]+) (?:<(\w+)>|\{"(\w+)")/g)) out.push({ tool: m[1]!, arg: (m[2] ?? m[3])! });
  return out;
}

describe('the context names each tool with the argument its schema takes', () => {
  let dir: string;
  let cleanup: () => void;
  let client: Client;
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    await axmeOk(dir, ['init']);
    await axmeOk(dir, ['decision', 'add', '--title', 'Money in integer cents', '--decision', 'Store money as integer cents.', '--enforce', 'required']);
    await axmeOk(dir, ['memory', 'add', '--title', 'Run tests with tsx', '--description', 'Run the tests through tsx.', '--type', 'feedback']);
    ({ client } = await connectStdio(dir));
  });
  after(async () => {
    await client.close();
    cleanup();
  });

  test('every argument the context, the instructions and the recall headers name is a property of that tool, and the call it teaches works', async () => {
    const { tools } = await client.listTools();
    const props = new Map(tools.map((t) => [t.name, Object.keys((t.inputSchema as { properties?: object }).properties ?? {})]));
    const context = resultText((await client.callTool({ name: 'axme_context', arguments: {} })) as ToolResult);
    const texts = [context, client.getInstructions() ?? '', PRE_EDIT_HEADER];
    const named = texts.flatMap(mentions);
    assert.ok(
      named.some((n) => n.tool === 'axme_get_decision'),
      `the context tells how to read a decision whole: ${context}`,
    );
    for (const { tool, arg } of named)
      assert.ok(props.get(tool)?.includes(arg), `${tool} is told to take "${arg}"; its schema has ${props.get(tool)?.join(', ')}`);
    const get = named.find((n) => n.tool === 'axme_get_decision')!;
    const r = (await client.callTool({ name: get.tool, arguments: { [get.arg]: 'D-001' } })) as ToolResult;
    assert.ok(!r.isError, resultText(r));
    assert.match(resultText(r), /integer cents/);
  });
});

describe("an error an MCP tool answers names what an agent can call, not the CLI's options", () => {
  let dir: string;
  let cleanup: () => void;
  let client: Client;
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    await axmeOk(dir, ['init']);
    ({ client } = await connectStdio(dir));
  });
  after(async () => {
    await client.close();
    cleanup();
  });

  test('a missing item and a folder that does not exist', async () => {
    const missing = (await client.callTool({ name: 'axme_get_decision', arguments: { id_or_slug: 'D-404' } })) as ToolResult;
    assert.ok(missing.isError);
    assert.doesNotMatch(resultText(missing), /`axme [a-z]+ list/, resultText(missing));
    assert.match(resultText(missing), /axme_search_kb/, resultText(missing));
    const away = (await client.callTool({ name: 'axme_get_decision', arguments: { id_or_slug: 'D-001', project_path: `${dir}/nonexistent` } })) as ToolResult;
    assert.ok(away.isError);
    assert.doesNotMatch(resultText(away), /-C <path>/, resultText(away));
    assert.match(resultText(away), /project_path/, resultText(away));
  });
});
