import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { axmeOk, tempRepo } from '../helpers.ts';
import { connectStdio, resultText, type ToolResult } from './stdio-client.ts';

/** axme_backlog {id} renders the item like the other single-item reads: the real MCP client over stdio. */
describe('axme_backlog reads one item', () => {
  let dir: string;
  let cleanup: () => void;
  let client: Client;
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    await axmeOk(dir, ['init']);
    await axmeOk(dir, ['backlog', 'add', '--title', 'Cache warm-up', '--description', 'Warm the cache at start.', '--priority', 'high', '--tags', 'cache']);
    ({ client } = await connectStdio(dir));
  });
  after(async () => {
    await client.close();
    cleanup();
  });

  test('axme_backlog with an id renders the item like the other single-item reads, not the raw file', async () => {
    const r = (await client.callTool({ name: 'axme_backlog', arguments: { id: 'B-001' } })) as ToolResult;
    assert.equal(r.isError, undefined, resultText(r));
    const t = resultText(r);
    assert.doesNotMatch(t, /^---$/m, `no front matter: ${t}`);
    assert.doesNotMatch(t, /^priority: /m);
    assert.match(t, /^### B-001 \[open, high\] Cache warm-up\nWarm the cache at start\.\nTags: cache\n/);
    assert.match(t, /\nSource: refs\/memory\/main:backlog\/cache-warm-up\.md$/);
    assert.equal(r.structuredContent?.slug, 'cache-warm-up', 'the structured result stays the item');
  });
});
