import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import { closeKnowledgeBase, type KnowledgeBase } from '../src/knowledge/core/kb.ts';
import { isAxmeError } from '../src/model/errors.ts';
import { backlogRead } from '../src/operations/backlog/reads.ts';
import { backlogAdd } from '../src/operations/backlog/writes.ts';
import { decisionAdd } from '../src/operations/decision/add.ts';
import { log, worklog } from '../src/operations/history.ts';
import { OPERATIONS } from '../src/operations/index.ts';
import { memoryAdd } from '../src/operations/memory/add.ts';
import { inputSchema } from '../src/operations/operation.ts';
import { safetyUpdate } from '../src/operations/safety/reads.ts';
import { initCore } from './core.ts';
import { axme, axmeOk, CLI, cleanEnv, git, openTestKb, tempRepo } from './helpers.ts';
import { makeStore } from './store-fixture.ts';

/**
 * Operations are declared once (src/operations/) and the CLI command, the MCP tool and the
 * reference docs derive from the declaration: the core is called directly here, the surfaces end
 * to end, and both surfaces must give the same text and the same JSON for one result.
 */

describe('operation declarations', () => {
  test('every declaration is complete: described fields, an output schema, unique names', () => {
    const ids = new Set<string>();
    const tools = new Set<string>();
    const commands = new Set<string>();
    for (const op of OPERATIONS) {
      assert.ok(!ids.has(op.id), `${op.id} declared once`);
      ids.add(op.id);
      if (op.mcp) {
        assert.ok(!tools.has(op.mcp.tool), `${op.mcp.tool} registered once`);
        tools.add(op.mcp.tool);
      }
      if (op.cli) {
        const c = op.cli.command.join(' ');
        assert.ok(!commands.has(c), `axme ${c} declared once`);
        commands.add(c);
        for (const f of [...(op.cli.positional ?? []), ...(op.cli.stdin ?? [])]) assert.ok(f in op.input, `${op.id}: ${f} is an input field`);
      }
      const props = (z.toJSONSchema(inputSchema(op), { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, { description?: string }> })
        .properties;
      for (const [name, f] of Object.entries(props)) assert.ok(f.description && f.description.length > 3, `${op.id}: input field ${name} has a description`);
      assert.ok(op.summary && op.description, `${op.id}: summary and description`);
      const out = z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' }) as { type?: string };
      assert.equal(out.type, 'object', `${op.id}: structured content is an object`);
    }
  });
});

describe('memory.add: the core called directly', () => {
  let dir: string;
  let cleanup: () => void;
  let kb: KnowledgeBase;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ commit: false }));
    kb = await openTestKb(dir);
  });
  after(async () => {
    await closeKnowledgeBase(kb);
    cleanup();
  });

  test('run saves one commit; text and JSON describe it; a second run is a duplicate', async () => {
    const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    const r = await memoryAdd.run(
      kb,
      { type: 'pattern', title: 'Errors are typed', description: 'Every error is an AxmeError with a code.', keywords: 'errors,codes' },
      { allowSecret: false },
    );
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main~1']).trim(), tip, 'one commit');
    assert.equal(memoryAdd.text(r), 'Memory saved: errors-are-typed (pattern) -> refs/memory/main:memories/errors-are-typed.md');
    const json = memoryAdd.json(r);
    assert.equal(memoryAdd.output.safeParse(json).success, true, 'the JSON matches the declared output schema');
    assert.deepEqual(json.keywords, ['errors', 'codes']);
    assert.equal(json.duplicate, false);
    assert.equal(json.commit, git(dir, ['rev-parse', 'refs/memory/main']).trim());
    const again = await memoryAdd.run(kb, { type: 'pattern', title: 'errors are typed', description: 'dup' }, { allowSecret: false });
    assert.equal(memoryAdd.text(again), 'Memory already stored: errors-are-typed (pattern) -> refs/memory/main:memories/errors-are-typed.md');
    assert.equal(memoryAdd.json(again).commit, null);
  });

  test('bad input is INVALID_INPUT naming the field; a credential is refused unless allowed', async () => {
    await assert.rejects(
      memoryAdd.run(kb, { type: 'pattern', title: '   ', description: 'x' }, { allowSecret: false }),
      (e) => isAxmeError(e, 'INVALID_INPUT') && /title/.test(e.message),
    );
    const token = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    await assert.rejects(memoryAdd.run(kb, { type: 'feedback', title: 'Token', description: `use ${token}` }, { allowSecret: false }), (e) =>
      isAxmeError(e, 'SECRET_DETECTED'),
    );
    const ok = await memoryAdd.run(kb, { type: 'feedback', title: 'Token', description: `use ${token}` }, { allowSecret: true });
    assert.equal(memoryAdd.json(ok).duplicate, false);
  });
});

describe('log and worklog: two tools, two answers', () => {
  test('log gives the trailers and, with changes, what each commit changed; worklog one line per commit', async () => {
    const { dir, cleanup } = tempRepo();
    const kb = await (async () => {
      await initCore(dir);
      return openTestKb(dir);
    })();
    try {
      await decisionAdd.run(kb, { title: 'Use Valkey for caching', decision: 'Cache in Valkey.' }, { allowSecret: false });
      await decisionAdd.run(kb, { title: 'Use Valkey 8 for caching', decision: 'Cache in Valkey 8.', supersedes: 'D-001' }, { allowSecret: false });
      const plain = await worklog.run(kb, { limit: 5 });
      assert.match(worklog.text(plain), /^[0-9a-f]{12} \S+ agent: decision: supersede D-001/m);
      const changed = await log.run(kb, { limit: 2, changes: true });
      const text = log.text(changed);
      assert.match(text, /^    \+ added D-002 Use Valkey 8 for caching$/m, text);
      assert.match(text, /^    ~ superseded D-001 Use Valkey for caching -> D-002/m, text);
      assert.ok(
        changed.every((e) => e.changes),
        'every entry carries its changes',
      );
      assert.equal(log.output.safeParse(log.json(changed)).success, true);
      assert.equal((log.json(plain).entries as unknown[]).length, plain.length);
    } finally {
      await closeKnowledgeBase(kb);
      cleanup();
    }
  });
});

describe('safety.update and backlog.read', () => {
  test('adding twice says already present; removing an absent rule is not found and writes nothing', async () => {
    const { dir, cleanup } = tempRepo();
    await initCore(dir);
    const kb = await openTestKb(dir);
    try {
      const add = await safetyUpdate.run(kb, { rule_type: 'bash_deny', value: 'terraform destroy' });
      assert.equal(safetyUpdate.text(add), 'Safety rule added: bash_deny = terraform destroy');
      assert.equal(
        safetyUpdate.text(await safetyUpdate.run(kb, { rule_type: 'bash_deny', value: 'terraform destroy' })),
        'Safety rule already present: bash_deny = terraform destroy',
      );
      const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      await assert.rejects(
        safetyUpdate.run(kb, { action: 'remove', rule_type: 'bash_deny', value: 'never added' }),
        (e) => isAxmeError(e, 'NOT_FOUND') && /axme safety show/.test(e.message),
      );
      assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), tip, 'nothing written');
      // the agent cannot take a rule out again, even its own: loosening is a person's
      await assert.rejects(safetyUpdate.run(kb, { action: 'remove', rule_type: 'bash_deny', value: 'terraform destroy' }), (e) =>
        isAxmeError(e, 'NOT_ALLOWED'),
      );
      const person = await openTestKb(dir, { actor: 'human' });
      try {
        const removed = await safetyUpdate.run(person, { action: 'remove', rule_type: 'bash_deny', value: 'terraform destroy' });
        assert.equal(safetyUpdate.text(removed), 'Safety rule removed: bash_deny = terraform destroy');
      } finally {
        await closeKnowledgeBase(person);
      }
      await backlogAdd.run(kb, { title: 'Add rate limiting', priority: 'high' });
      const list = await backlogRead.run(kb, {});
      assert.match(backlogRead.text(list), /^# Backlog \(1\)\n- B-001 \[open, high\] Add rate limiting$/);
      const one = await backlogRead.run(kb, { id: 'B-001' });
      assert.equal(backlogRead.json(one).id, 'B-001');
      assert.equal(backlogRead.output.safeParse(backlogRead.json(one)).success, true);
    } finally {
      await closeKnowledgeBase(kb);
      cleanup();
    }
  });
});

describe('memory.add: one result reads the same on the CLI and over MCP', () => {
  let dir: string;
  let cleanup: () => void;
  let client: Client;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ commit: false }));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve'],
      cwd: dir,
      env: cleanEnv({ AXME_SESSION: 'ops-test' }) as Record<string, string>,
      stderr: 'pipe',
    });
    client = new Client({ name: 'ops-test', version: '1' });
    await client.connect(transport);
  });
  after(async () => {
    await client.close();
    cleanup();
  });

  test('the tool declares the output schema; text and structured content equal the CLI text and --json', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'axme_save_memory');
    assert.ok(tool?.outputSchema, 'output schema declared');
    assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}).sort(), [
      'allow_secret',
      'anchors',
      'body',
      'description',
      'keywords',
      'project_path',
      'scope',
      'supersedes',
      'title',
      'type',
    ]);
    assert.equal(tool.annotations?.idempotentHint, true);

    const cliText = (await axmeOk(dir, ['memory', 'add', '--type', 'feedback', '--title', 'Small PRs', '--description', 'Keep pull requests small.'])).trim();
    const cliJson = await axmeOk(dir, ['memory', 'add', '--type', 'feedback', '--title', 'Small PRs', '--description', 'again', '--json']);
    const mcp = (await client.callTool({ name: 'axme_save_memory', arguments: { type: 'feedback', title: 'small prs', description: 'again' } })) as {
      content: Array<{ text: string }>;
      structuredContent: Record<string, unknown>;
    };
    assert.equal(mcp.content[0]!.text, cliText.replace('Memory saved', 'Memory already stored'), 'the same words on both surfaces');
    const { text, ...data } = mcp.structuredContent;
    assert.deepEqual(data, cliJson, 'the same JSON on both surfaces');
    // Claude Code and Codex hand the model the structured result, not the text: the words travel in it too
    assert.equal(text, mcp.content[0]!.text, 'the structured result carries the reply in words');
    assert.equal(Object.keys(mcp.structuredContent)[0], 'text', 'the words come first');
  });

  test('every MCP tool declares `text` first in its output schema and its structured result carries the reply in words', async () => {
    const { tools } = await client.listTools();
    for (const t of tools) {
      const props = Object.keys((t.outputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
      assert.equal(props[0], 'text', `${t.name}: text is the first field of the output schema`);
    }
    const ctx = (await client.callTool({ name: 'axme_context', arguments: {} })) as unknown as {
      content: Array<{ text: string }>;
      structuredContent: { text: string; page: number };
    };
    assert.equal(ctx.structuredContent.text, ctx.content[0]!.text);
    assert.match(ctx.structuredContent.text, /safety|rules/i, "axme_context's structured result holds the context itself, not only its page counts");
  });

  test('an error over MCP is a tool error without structured content (clients check it against the output schema)', async () => {
    const r = (await client.callTool({
      name: 'axme_save_memory',
      arguments: { type: 'feedback', title: 'Leaky', description: 'ghp_0123456789abcdefghij0123456789abcdef' },
    })) as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: unknown };
    assert.equal(r.isError, true);
    assert.match(r.content[0]!.text, /credential/);
    assert.equal(r.structuredContent, undefined);
  });

  test('usage errors on the CLI exit 2 with the field named', async () => {
    const r = await axme(dir, ['memory', 'add', '--type', 'feedback', '--title', '   ', '--description', 'x']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /title/);
  });
});
