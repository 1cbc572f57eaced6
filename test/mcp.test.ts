import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { OPERATIONS } from '../src/operations/index.ts';
import { axmeInOk } from './cli-in-process.ts';
import { axmeOk, CLI, git, tempRepo } from './helpers.ts';
import { connectStdio, resultText, type ToolResult } from './mcp/stdio-client.ts';

/** The tools: every operation that declares `mcp` (src/operations/), no other. */
const TOOLS = OPERATIONS.flatMap((op) => (op.mcp ? [op.mcp.tool] : []));

type Result = ToolResult;

const connect = (dir: string, env: NodeJS.ProcessEnv = {}) => connectStdio(dir, { env });

const text = resultText;

describe('axme serve over stdio with the real MCP client', () => {
  let dir: string;
  let cleanup: () => void;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Result;
  before(async () => {
    ({ dir, cleanup } = tempRepo());
    await axmeInOk(dir, ['init']);
    ({ client } = await connect(dir));
  });
  after(async () => {
    await client.close();
    cleanup();
  });

  test('tools/list has every tool with a schema, annotations and instructions', async () => {
    const { tools } = await client.listTools();
    assert.ok(TOOLS.length >= 35, `the operations declare the tools: ${TOOLS.length}`);
    assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOLS].sort());
    for (const t of tools) {
      const op = OPERATIONS.find((o) => o.mcp?.tool === t.name)!;
      assert.deepEqual([t.title, t.description, t.annotations], [op.summary, op.description, op.annotations], t.name);
    }
    const save = tools.find((t) => t.name === 'axme_save_decision')!;
    assert.deepEqual(Object.keys(save.inputSchema.properties ?? {}).sort(), [
      'allow_secret',
      'anchors',
      'decision',
      'enforce',
      'project_path',
      'reasoning',
      'scope',
      'supersedes',
      'tags',
      'title',
    ]);
    assert.deepEqual([...(save.inputSchema.required ?? [])].sort(), ['decision', 'title']);
    assert.equal(tools.find((t) => t.name === 'axme_context')!.annotations?.readOnlyHint, true);
    assert.ok(tools.every((t) => t.description && t.description.length > 10));
    assert.match(client.getInstructions() ?? '', /#!axme pr=<N\|none> repo=<owner>\/<name>/);
  });

  test('save -> list -> get -> supersede -> search -> context', async () => {
    const saved = await call('axme_save_decision', {
      title: 'Use Redis for caching',
      decision: 'All caches live in Redis.',
      reasoning: 'Fast and known.',
      enforce: 'required',
    });
    assert.equal(text(saved), 'Decision saved: D-001 - Use Redis for caching -> refs/memory/main:decisions/use-redis-for-caching.md');
    assert.equal(
      text(await call('axme_save_decision', { title: 'redis caching', decision: 'again' })),
      'Decision already stored: D-001 - Use Redis for caching -> refs/memory/main:decisions/use-redis-for-caching.md',
    );
    const mem = await call('axme_save_memory', {
      type: 'feedback',
      title: 'Prefer small PRs',
      description: 'Keep pull requests under 300 lines.',
      keywords: ['review'],
    });
    assert.equal(text(mem), 'Memory saved: prefer-small-prs (feedback) -> refs/memory/main:memories/prefer-small-prs.md');
    const list = await call('axme_decisions');
    assert.match(text(list), /### D-001 \[required\] Use Redis for caching\nAll caches live in Redis\.\nWhy: Fast and known\./);
    assert.equal(list.structuredContent.total, 1);
    const got = await call('axme_get_decision', { id_or_slug: 'd-001' });
    assert.equal(got.structuredContent.slug, 'use-redis-for-caching');
    // a required decision is a person's to supersede: the agent is told to ask the user, the user runs it
    const refused = await call('axme_save_decision', { title: 'Use Valkey for caching', decision: 'All caches live in Valkey.', supersedes: 'D-001' });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /^not allowed: D-001 "Use Redis for caching" is a required decision: .*Ask the user to run `axme decision supersede D-001/);
    const sup = await axmeOk(dir, ['decision', 'supersede', 'D-001', '--title', 'Use Valkey for caching', '--decision', 'All caches live in Valkey.']);
    assert.match(sup, /^Decision saved: D-002 - Use Valkey for caching .* \(supersedes D-001\)$/m);
    const current = await call('axme_decisions');
    assert.deepEqual(
      current.structuredContent.items.map((d: { id: string }) => d.id),
      ['D-002'],
      'superseded decisions are never served as current',
    );
    assert.equal(current.structuredContent.items[0].enforce, 'required', 'enforce carried over');
    const found = await call('axme_search_kb', { query: 'redis caches' });
    const hits = found.structuredContent.hits as Array<{ id: string; citation: string; status: string; via?: string }>;
    assert.equal(hits[0]!.id, 'D-002', 'the successor stands in for the superseded decision that matched');
    assert.equal(hits[0]!.via, 'use-redis-for-caching');
    assert.ok(!hits.some((h) => h.id === 'D-001'), 'the superseded decision is not listed alongside its successor');
    const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    assert.equal(hits[0]!.citation, `git:${tip}:decisions/use-valkey-for-caching.md`);
    assert.match(git(dir, ['show', hits[0]!.citation.slice(4)]), /All caches live in Valkey/, 'the citation resolves with git show');
    const ctx = await call('axme_context');
    assert.match(text(ctx), /## Required decisions[^]*D-002 Use Valkey for caching/);
    assert.doesNotMatch(text(ctx), /D-001 Use Redis/);
    const hist = await call('axme_history', { id_or_slug: 'D-001' });
    assert.match(text(hist), /-status: active\n\+status: superseded/);
  });

  test('a write by another process is visible on the next call', async () => {
    await axmeOk(dir, ['backlog', 'add', '--title', 'Written by the CLI', '--priority', 'high']);
    assert.match(text(await call('axme_backlog')), /B-001 \[open, high\] Written by the CLI/);
    assert.match(text(await call('axme_context')), /B-001 \[open, high\] Written by the CLI/);
  });

  test('bad arguments give an error naming the field; unknown ids say not found with the closest; the server keeps serving', async () => {
    const bad = await call('axme_save_memory', { type: 'opinion', title: 'x', description: 'y' });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /type/);
    const big = await call('axme_save_decision', { title: 'Big', decision: 'x'.repeat(200_000) });
    assert.equal(big.isError, true);
    assert.match(text(big), /limit/);
    const nf = await call('axme_get_decision', { id_or_slug: 'use-valky-for-caching' });
    assert.equal(nf.isError, true);
    assert.match(text(nf), /^not found: no decision use-valky-for-caching; closest: D-002 use-valkey-for-caching, D-001 use-redis-for-caching/);
    const secret = await call('axme_save_memory', { type: 'pattern', title: 'Token', description: `token ghp_${'a'.repeat(36)}` });
    assert.equal(secret.isError, true);
    assert.match(text(secret), /allow_secret/);
    assert.equal((await call('axme_status')).isError, undefined, 'still serving');
  });

  test('questions and safety through the tools', async () => {
    assert.equal(text(await call('axme_ask_question', { question: 'Which region do we deploy to?' })), 'Question recorded: Q-001 [open]');
    assert.match(text(await call('axme_list_open_questions')), /Q-001 \[open\] Which region/);
    assert.equal(text(await call('axme_answer_question', { question_id: 'Q-001', answer: 'eu-west-1' })), 'Question answered: Q-001 [answered]');
    assert.equal(text(await call('axme_update_question', { question_id: 'Q-001', status: 'applied' })), 'Question updated: Q-001 [applied]');
    const bad = await call('axme_update_question', { question_id: 'Q-404', status: 'archived' });
    assert.ok(bad.isError);
    assert.match(text(bad), /not found/);
    assert.equal(
      text(await call('axme_update_safety', { rule_type: 'bash_deny', value: 'terraform destroy' })),
      'Safety rule added: bash_deny = terraform destroy',
    );
    assert.match(text(await call('axme_safety')), /terraform destroy/);
  });

  test('axme_update_safety never loosens the rules, whatever the hook saw: removing a deny rule or adding an allowed prefix is refused, nothing is written', async () => {
    const before = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    for (const args of [
      { rule_type: 'bash_deny', value: 'npm publish', action: 'remove' },
      { rule_type: 'git_protected_branch', value: 'main', action: 'remove' },
      { rule_type: 'bash_allow', value: 'npm publish' },
    ]) {
      const r = await call('axme_update_safety', args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(text(r), /^not allowed: .*loosens the safety rules, which only a person may do: ask the user to run `axme safety/);
    }
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), before, 'no commit');
    assert.match(text(await call('axme_safety')), /npm publish/);
  });

  test('finalize_close writes everything as exactly one commit', async () => {
    const before = git(dir, ['rev-parse', 'refs/memory/main']).trim();
    assert.match(text(await call('axme_begin_close')), /Newest decisions: D-002 Use Valkey for caching/);
    const r = await call('axme_finalize_close', {
      decisions: [{ title: 'Pin Node 20', decision: 'CI and dev use Node 20.', reasoning: 'Matches production.' }],
      memories: [
        { type: 'pattern', title: 'Errors carry a code', description: 'Every error class has a code field.' },
        { type: 'feedback', title: 'Prefer small PRs', description: 'dup' },
      ],
      safety_rules: [{ action: 'add', rule_type: 'fs_readonly', value: 'migrations/**' }],
      stopped_at: 'caching layer switched to Valkey',
      summary: 'Moved caches to Valkey.',
      next_steps: 'Benchmark Valkey under load.',
      worklog_entry: 'Replaced Redis with Valkey and pinned Node 20.',
      startup_text: 'Last time we moved caching to Valkey; next is the load test.',
      prs: [{ title: 'Valkey migration', url: 'https://example.com/pr/7', status: 'open' }],
      dirty_branches: ['feature/valkey'],
    });
    assert.equal(r.isError, undefined, text(r));
    assert.match(text(r), /D-003 Pin Node 20 \(saved\)/);
    assert.match(text(r), /prefer-small-prs \(already stored\)/);
    assert.equal(git(dir, ['rev-parse', 'refs/memory/main~1']).trim(), before, 'exactly one commit');
    const files = git(dir, ['diff-tree', '--no-commit-id', '--name-only', '-r', 'refs/memory/main']).trim().split('\n').sort();
    assert.deepEqual(files, [
      'decisions/pin-node-20.md',
      'handoffs/mcp-test.md',
      'memories/errors-carry-a-code.md',
      'safety/rules.yaml',
      `sessions/${new Date().toISOString().slice(0, 7)}/mcp-test.md`,
    ]);
    assert.match(
      git(dir, ['log', '-1', '--format=%B', 'refs/memory/main']),
      /^session: close mcp-test - caching layer switched to Valkey\n\nReplaced Redis with Valkey and pinned Node 20\.\n\nAxme-Event: session.closed\n/,
    );
    const ctx = text(await call('axme_context'));
    assert.match(ctx, /## Say this to the user first\nLast time we moved caching to Valkey/);
    assert.match(ctx, /## Latest handoff\nSession mcp-test[^]*Next steps: Benchmark Valkey under load\./);
  });

  test('resources list and read items as Markdown', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'axme://decisions/{slug}'));
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === 'axme://decisions/use-valkey-for-caching'));
    const read = await client.readResource({ uri: 'axme://decisions/use-valkey-for-caching' });
    assert.match((read.contents[0] as { text: string }).text, /^---\nid: D-002\n/);
  });

  test('reading an item that is not there answers -32002 (resource not found) naming it, not -32603 (internal error)', async () => {
    await assert.rejects(client.readResource({ uri: 'axme://decisions/no-such-decision' }), (err: { code?: number; message?: string }) => {
      assert.equal(err.code, -32002, err.message);
      assert.match(String(err.message), /no-such-decision/);
      return true;
    });
    // the server goes on
    assert.ok((await client.listResourceTemplates()).resourceTemplates.some((t) => t.uriTemplate === 'axme://decisions/{slug}'));
  });

  test('an item titled in another script is listed and read by its (percent-encoded) resource URI', async () => {
    const saved = await call('axme_save_decision', { title: 'Кэш в Valkey 使用', decision: 'Кэшировать через Valkey.' });
    assert.equal(saved.isError, undefined, text(saved));
    const { resources } = await client.listResources();
    const res = resources.find((r) => r.name.includes('Кэш в Valkey'));
    assert.ok(res, 'listed');
    assert.match(res.uri, /^axme:\/\/decisions\/[A-Za-z0-9%-]+$/, 'the URI is ASCII');
    const read = await client.readResource({ uri: res.uri });
    assert.match((read.contents[0] as { text: string }).text, /title: Кэш в Valkey 使用/);
  });
});

describe('paging', () => {
  test('every item appears exactly once across pages, none cut in half', async () => {
    const { dir, cleanup } = tempRepo();
    try {
      await axmeInOk(dir, ['init']);
      // 60 decisions of ~1.5 KB each: about four pages at a 25,000-character budget
      for (const half of [0, 30]) {
        const input = JSON.stringify({
          decisions: Array.from({ length: 30 }, (_, i) => ({
            title: `Paged decision ${half + i}`,
            decision: `Decision number ${half + i}. ${'Lorem ipsum dolor sit amet. '.repeat(50)}`,
          })),
        });
        await axmeInOk(dir, ['session', 'finalize'], { input, env: { AXME_SESSION: `seed-${half}` } });
      }
      const { client } = await connect(dir);
      try {
        const seen: string[] = [];
        let pages = 0;
        for (let page = 1; ; page++) {
          const r = (await client.callTool({ name: 'axme_decisions', arguments: { page } })) as Result;
          assert.equal(r.isError, undefined, text(r));
          assert.ok(text(r).length <= 25_000, `page ${page} is within the budget`);
          for (const d of r.structuredContent.items as Array<{ id: string; decision: string }>) {
            seen.push(d.id);
            assert.ok(text(r).includes(d.decision), `${d.id} is whole on page ${page}`);
          }
          pages = r.structuredContent.pages;
          if (page >= pages) {
            assert.match(text(r), /page \d+ of \d+ \(last\)/);
            break;
          }
          assert.match(text(r), new RegExp(`call again with page: ${page + 1}`));
        }
        assert.ok(pages >= 3, `several pages (${pages})`);
        assert.equal(seen.length, 60);
        assert.equal(new Set(seen).size, 60);
        const past = (await client.callTool({ name: 'axme_decisions', arguments: { page: pages + 1 } })) as Result;
        assert.equal(past.isError, true);
      } finally {
        await client.close();
      }
    } finally {
      cleanup();
    }
  });
});

describe('review tools over MCP', () => {
  test('axme_diff and axme_check call the same core as axme diff and axme check', async () => {
    const { dir, cleanup } = tempRepo({ commit: true });
    await axmeInOk(dir, ['init', '--no-claude', '--no-git-hooks', '--no-scan']);
    const { client } = await connect(dir);
    try {
      const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Result;
      await call('axme_save_decision', { title: 'Use Postgres', decision: 'One database.' });
      const d = await call('axme_diff', { from: '~1' });
      assert.ok(!d.isError, text(d));
      assert.match(text(d), /- \*\*added\*\* D-001 Use Postgres/);
      assert.equal(d.structuredContent.counts.added, 1);
      assert.equal(text(d), (await axmeInOk(dir, ['diff', '~1', '--format', 'markdown'])).trimEnd(), 'the CLI prints the same diff');
      const c = await call('axme_check');
      assert.match(text(c), /^ok at [0-9a-f]{12}/);
      const noRemote = await call('axme_diff');
      assert.ok(noRemote.isError);
      assert.match(text(noRemote), /^invalid request: this repository has no git remote/);
    } finally {
      await client.close();
      cleanup();
    }
  });
});
