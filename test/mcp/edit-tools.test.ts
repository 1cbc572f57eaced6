import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { git } from '../helpers.ts';
import { makeStore } from '../store-fixture.ts';
import { connectStdio, resultText, type ToolResult } from './stdio-client.ts';

type Result = ToolResult;
const text = resultText;

/** Editing and retiring knowledge through the MCP server, with the real client over stdio: the agent's tools. */
describe('the agent corrects and retires knowledge over MCP', () => {
  let dir: string;
  let cleanup: () => void;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Result;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { claude: true, gitHooks: true, scan: 'if-new' }, commit: false }));
    ({ client } = await connectStdio(dir, { session: 'mcp-edit-test' }));
  });
  after(async () => {
    await client.close();
    cleanup();
  });

  test('tools/list has the revoke, archive, amend and update tools with their schemas and annotations', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['axme_revoke_decision', 'axme_archive_memory', 'axme_amend_decision', 'axme_update_memory']) {
      const t = byName.get(name);
      assert.ok(t, `${name} is listed`);
      assert.equal(t.annotations?.readOnlyHint, false);
      assert.equal(t.annotations?.destructiveHint, false, 'kept in history: never destructive');
      assert.ok(t.outputSchema, `${name} declares its output`);
    }
    assert.deepEqual(Object.keys(byName.get('axme_revoke_decision')!.inputSchema.properties ?? {}).sort(), ['allow_secret', 'id', 'project_path', 'reason']);
    assert.deepEqual(Object.keys(byName.get('axme_amend_decision')!.inputSchema.properties ?? {}).sort(), [
      'allow_secret',
      'decision',
      'id',
      'project_path',
      'reasoning',
      'tags',
      'title',
    ]);
    assert.ok(Object.keys(byName.get('axme_save_memory')!.inputSchema.properties ?? {}).includes('supersedes'));
  });

  test('update a memory and amend a decision: axme_history shows both versions of each', async () => {
    await call('axme_save_memory', { type: 'feedback', title: 'Prefer small PRs', description: 'Under 300 lines.' });
    const u = await call('axme_update_memory', { slug: 'prefer-small-prs', description: 'Under 200 lines.' });
    assert.equal(text(u), 'Memory updated: prefer-small-prs (feedback) -> refs/memory/main:memories/prefer-small-prs.md');
    assert.equal(u.structuredContent.changed, true);
    const mh = await call('axme_history', { id_or_slug: 'prefer-small-prs' });
    assert.equal(mh.structuredContent.versions.length, 2);
    assert.match(text(mh), /-description: Under 300 lines\.\n\+description: Under 200 lines\./);

    await call('axme_save_decision', { title: 'Use Postgress', decision: 'One databse.' });
    const a = await call('axme_amend_decision', { id: 'D-001', title: 'Use Postgres', decision: 'One database.' });
    assert.equal(text(a), 'Decision amended: D-001 - Use Postgres -> refs/memory/main:decisions/use-postgress.md');
    const dh = await call('axme_history', { id_or_slug: 'D-001' });
    assert.equal(dh.structuredContent.versions.length, 2);
    assert.match(text(dh), /-title: Use Postgress\n\+title: Use Postgres/);
  });

  test("archive a memory and revoke an advisory decision; a required one is the user's to revoke", async () => {
    const archived = await call('axme_archive_memory', { slug: 'prefer-small-prs' });
    assert.equal(text(archived), 'Memory archived: prefer-small-prs');
    assert.doesNotMatch(text(await call('axme_memories')), /prefer-small-prs/);
    const revoked = await call('axme_revoke_decision', { id: 'D-001', reason: 'one database was too few' });
    assert.equal(text(revoked), 'Decision revoked: D-001 - Use Postgres');
    await call('axme_save_decision', { title: 'Never log tokens', decision: 'Redact tokens.', enforce: 'required' });
    const before = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    const refused = await call('axme_revoke_decision', { id: 'D-002', reason: 'slows me down' });
    assert.equal(refused.isError, true);
    assert.match(
      text(refused),
      /^not allowed: D-002 "Never log tokens" is a required decision: .*only a person may do\. Ask the user to run `axme decision revoke D-002 --reason "slows me down"`/,
    );
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), before, 'no commit');
  });
});
