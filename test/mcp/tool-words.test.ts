import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { axme, axmeOk, tempRepo } from '../helpers.ts';
import { connectStdio, resultText, type ToolResult } from './stdio-client.ts';

/** A reply's advice names what the tool takes (its arguments), not the CLI's flags: the real MCP client over stdio. */
describe("advice over MCP names the tool's arguments", () => {
  let dir: string;
  let cleanup: () => void;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolResult;
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    await axmeOk(dir, ['init']);
    await axmeOk(dir, ['decision', 'add', '--title', 'Use Redis', '--decision', 'Caches live in Redis.']);
    await axmeOk(dir, ['memory', 'add', '--title', 'Use Redis', '--description', 'Redis runs locally on 6379.', '--type', 'pattern']);
    ({ client } = await connectStdio(dir));
  });
  after(async () => {
    await client.close();
    cleanup();
  });

  test('an ambiguous axme_history names the argument the tool takes (kind), never a CLI flag, and that argument works', async () => {
    const amb = await call('axme_history', { id_or_slug: 'use-redis' });
    assert.equal(amb.isError, true);
    assert.doesNotMatch(resultText(amb), /--kind/);
    assert.match(resultText(amb), /`kind`/);
    const { tools } = await client.listTools();
    const props = Object.keys(tools.find((t) => t.name === 'axme_history')!.inputSchema.properties ?? {});
    assert.ok(props.includes('kind'), `axme_history takes what its advice names: ${props.join(', ')}`);
    const one = await call('axme_history', { id_or_slug: 'use-redis', kind: 'memory' });
    assert.equal(one.isError, undefined, resultText(one));
    assert.match(resultText(one), /History of memories\/use-redis\.md/);
  });

  test('the CLI names its flag for the same ambiguity', async () => {
    const r = await axme(dir, ['history', 'use-redis']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /pass --kind/);
  });

  test('an answer that names a field of the tool spells it as the argument (nothing to change; a credential)', async () => {
    const r = await call('axme_update_memory', { slug: 'use-redis' });
    assert.equal(r.isError, true);
    assert.doesNotMatch(resultText(r), /--\w/, resultText(r));
    assert.match(resultText(r), /`title`, `description`, `body`, `keywords`, `anchors` or `type`/);
    const secret = await call('axme_save_memory', { type: 'pattern', title: 'Token', description: `token ghp_${'a'.repeat(36)}` });
    assert.equal(secret.isError, true);
    assert.doesNotMatch(resultText(secret), /--allow-secret/);
    assert.match(resultText(secret), /pass `allow_secret: true`/);
  });
});

describe('toolWords: a core message in the tool spelling', () => {
  test("a flag of the operation becomes the tool's argument; a command line for the user keeps its flags", async () => {
    const { toolWords } = await import('../../src/mcp/tool-words.ts');
    const { toolInput } = await import('../../src/mcp/operation-tool.ts');
    const { decisionRevoke } = await import('../../src/operations/decision/revoke.ts');
    const taken = new Set(Object.keys(toolInput(decisionRevoke)));
    assert.equal(toolWords(decisionRevoke, taken, 'say why: pass --reason'), 'say why: pass `reason`');
    assert.equal(toolWords(decisionRevoke, taken, 'content looks like a key; pass --allow-secret.'), 'content looks like a key; pass `allow_secret: true`.');
    for (const kept of [
      'Ask the user to run `axme decision revoke D-001 --reason "x"` themselves',
      'revoke it too (axme decision revoke D-002 --reason ...)',
      'give --no-such-flag or --force',
    ])
      assert.equal(toolWords(decisionRevoke, taken, kept), kept);
  });
});
