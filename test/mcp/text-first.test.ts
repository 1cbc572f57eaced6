/**
 * Claude Code and Codex hand their model a tool's structured result (as JSON) instead of its text
 * whenever the tool declares an output schema: the server lists the tools without output schemas
 * and answers with text alone when the client introduces itself as one of them, and keeps the
 * schemas and structured results for every other client.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { CLI } from '../helpers.ts';
import { cliText, makeStore } from '../store-fixture.ts';
import { connectStdio } from './stdio-client.ts';

type Result = { content: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

const connectAs = async (dir: string, name: string): Promise<Client> => (await connectStdio(dir, { name })).client;

describe('MCP results as each client reads them', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore());
    await cliText(dir, decisionAdd, { title: 'Use Valkey for caching', decision: 'Valkey replaces Redis.', enforce: 'required' });
  });
  after(() => cleanup());

  for (const name of ['claude-code', 'codex-mcp-client']) {
    test(`${name}: tools without output schemas, replies in words only (the model reads them line by line)`, async () => {
      const client = await connectAs(dir, name);
      try {
        const { tools } = await client.listTools();
        assert.ok(tools.length > 20);
        assert.deepEqual(
          tools.filter((t) => t.outputSchema).map((t) => t.name),
          [],
        );
        const ctx = (await client.callTool({ name: 'axme_context', arguments: {} })) as Result;
        assert.equal(ctx.structuredContent, undefined);
        assert.match(ctx.content[0]!.text, /^## Required decisions/m);
        assert.match(ctx.content[0]!.text, /D-001 Use Valkey for caching/);
        const saved = (await client.callTool({
          name: 'axme_save_memory',
          arguments: { type: 'feedback', title: 'Small PRs', description: 'Keep pull requests small.' },
        })) as Result;
        assert.equal(saved.structuredContent, undefined);
        assert.match(saved.content[0]!.text, /^Memory (saved|already stored): small-prs/);
      } finally {
        await client.close();
      }
    });
  }

  test('any other client (Gemini CLI, an SDK program): output schemas and structured results with the text first', async () => {
    const client = await connectAs(dir, 'gemini-cli-mcp-client');
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.filter((t) => !t.outputSchema).map((t) => t.name),
        [],
      );
      const ctx = (await client.callTool({ name: 'axme_context', arguments: {} })) as Result;
      assert.equal(ctx.structuredContent?.text, ctx.content[0]!.text);
      assert.equal(ctx.structuredContent?.page, 1);
    } finally {
      await client.close();
    }
  });
});
