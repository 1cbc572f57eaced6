// The claude-cli provider (issue 23, "The model"): the user's own `claude -p --output-format json`,
// here a fake `claude` first on PATH. What it is given, what is read back, and each way it fails.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { openProvider } from '../../src/llm/open-provider.ts';
import type { LlmProvider, ProviderConfig } from '../../src/llm/types.ts';
import { isAxmeError } from '../../src/model/errors.ts';
import { processAlive } from '../../src/session/owner.ts';
import { HANG_BOUND_MS, until } from '../until.ts';
import { type FakeClaude, fakeClaude } from './fake-claude.ts';

let fake: FakeClaude;
before(() => (fake = fakeClaude()));
after(() => fake.remove());

const request = { system: 'Return only JSON.', user: '<user>the transcript</user>', maxTokens: 2048 };

/**
 * What every run gets: no tools, no MCP server, none of the user's or the project's settings
 * (hooks, permissions, MCP servers, CLAUDE.md), no hooks at all, no slash commands, no session
 * left on disk. The auditor's `claude` reads an untrusted transcript: it must not be an agent.
 */
const ISOLATED = [
  '--tools',
  '',
  '--strict-mcp-config',
  '--mcp-config',
  '{"mcpServers":{}}',
  '--setting-sources',
  '',
  '--settings',
  '{"disableAllHooks":true}',
  '--disable-slash-commands',
  '--no-session-persistence',
];

async function open(env: NodeJS.ProcessEnv, cfg: Partial<ProviderConfig> = {}): Promise<LlmProvider> {
  const p = await openProvider({ provider: 'auto', ...cfg }, env);
  assert.ok(p);
  return p;
}

describe('claude-cli: the user\u2019s own claude -p', () => {
  test('auto picks it when claude is on PATH, even with API keys set', async () => {
    const p = await open(fake.env('ok', { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k' }));
    assert.equal(p.name, 'claude-cli');
    assert.equal(p.model, 'default');
  });

  test('a run: the prompt on stdin, the system prompt and model as flags, JSON read back', async () => {
    const p = await open(fake.env('ok', { CLAUDECODE: '1' }), { model: 'sonnet' });
    const before = fake.runs().length;
    const a = await p.complete(request);
    assert.deepEqual(a, {
      ...a,
      text: '{"ok":true}',
      provider: 'claude-cli',
      model: 'claude-sonnet-4-6',
      inputTokens: 1007,
      outputTokens: 42,
      stop: 'end',
      costUsd: 0.0123,
    });
    const run = fake.runs()[before]!;
    assert.deepEqual(run.argv, ['-p', '--output-format', 'json', ...ISOLATED, '--model=sonnet', '--system-prompt', 'Return only JSON.']);
    assert.equal(run.stdin, '<user>the transcript</user>');
    assert.equal(run.max_output_tokens, '2048');
    // outside the calling session: not nested under it, not in its project
    assert.equal(run.claudecode, null);
    assert.match(run.cwd, /axme-claude-/);
    assert.equal(existsSync(run.cwd), false, 'its temp folder is removed');
  });

  test('it runs as a plain model call: no tools, no MCP servers, no user or project settings, no hooks, whatever the request', async () => {
    const p = await open(fake.env('ok'), { model: 'haiku' });
    const before = fake.runs().length;
    await p.complete(request);
    await p.complete({ ...request, system: 'y'.repeat(70 * 1024) });
    for (const run of fake.runs().slice(before)) {
      const flag = (name: string) => run.argv[run.argv.indexOf(name) + 1];
      assert.equal(flag('--tools'), '', 'no built-in tool: not Bash, Edit, Write, Agent, ...');
      assert.ok(run.argv.includes('--strict-mcp-config'), 'no MCP server from ~/.claude.json or the project');
      assert.equal(flag('--mcp-config'), '{"mcpServers":{}}');
      assert.equal(flag('--setting-sources'), '', 'neither ~/.claude/settings.json nor the project\u2019s .claude/');
      assert.deepEqual(JSON.parse(flag('--settings')!), { disableAllHooks: true });
      assert.ok(run.argv.includes('--disable-slash-commands'));
      assert.ok(run.argv.includes('--no-session-persistence'), 'no transcript of its own under ~/.claude/projects');
      assert.ok(!run.argv.includes('--allowedTools') && !run.argv.includes('--dangerously-skip-permissions'));
    }
  });

  test("the model is given in one word with its flag: a shared axme.yaml's auditor.model that looks like an option is never read as one", async () => {
    const p = await open(fake.env('ok'), { model: '--dangerously-skip-permissions' });
    const before = fake.runs().length;
    await p.complete(request);
    const run = fake.runs()[before]!;
    assert.ok(run.argv.includes('--model=--dangerously-skip-permissions'), run.argv.join(' '));
    assert.ok(!run.argv.includes('--dangerously-skip-permissions') && !run.argv.includes('--model'), run.argv.join(' '));
  });

  test('a long system prompt goes on stdin before the message', async () => {
    const p = await open(fake.env('ok'));
    const before = fake.runs().length;
    const system = 'x'.repeat(70 * 1024);
    await p.complete({ ...request, system });
    const run = fake.runs()[before]!;
    assert.deepEqual(run.argv, ['-p', '--output-format', 'json', ...ISOLATED]);
    assert.equal(run.stdin, `${system}\n\n<user>the transcript</user>`);
  });

  test('a line before the JSON is tolerated; without total_cost_usd the price table estimates', async () => {
    const p = await open(fake.env('noisy'), { model: 'claude-haiku-4-5' });
    const a = await p.complete(request);
    assert.equal(a.text, '{"ok":true}');
    assert.equal(a.model, 'claude-haiku-4-5');
    assert.equal(a.costUsd, (1007 * 1 + 42 * 5) / 1_000_000);
  });

  test('stop_reason max_tokens: stop max_tokens', async () => {
    const p = await open(fake.env('truncated'));
    assert.equal((await p.complete(request)).stop, 'max_tokens');
  });

  test('is_error: UNAVAILABLE with what claude said', async () => {
    const p = await open(fake.env('is_error'));
    await assert.rejects(p.complete(request), (err) => {
      assert.ok(isAxmeError(err, 'UNAVAILABLE'));
      assert.match(err.message, /^claude reported an error \(error_during_execution: Invalid API key - Please run \/login\)/);
      return true;
    });
  });

  test('a non-zero exit without a result: the last lines of its stderr', async () => {
    const p = await open(fake.env('crash'));
    await assert.rejects(p.complete(request), (err) => {
      assert.ok(isAxmeError(err, 'UNAVAILABLE'));
      assert.equal(err.data.exit_code, 3);
      assert.match(err.message, /^claude exited with 3:\nline 3\nline 4\nline 5\nline 6\nError: something broke\ncheck that/);
      assert.doesNotMatch(err.message, /line 2/);
      return true;
    });
  });

  test('a timeout stops its whole process group, SIGKILL after SIGTERM is ignored', async () => {
    const p = await open(fake.env('hang'), { timeoutMs: 10_000 });
    // the request's own timeout, not the provider's 10 s; it must come once the fake ignores
    // SIGTERM and has started its child (it says so by writing their pids): a machine too loaded
    // to start it within one timeout is given twice as long by the next try
    let pids: ReturnType<FakeClaude['pids']> = null;
    for (let timeoutMs = 1_500; !pids; timeoutMs *= 2) {
      assert.ok(timeoutMs < HANG_BOUND_MS, 'the fake claude never started');
      fake.forgetPids();
      await assert.rejects(p.complete({ ...request, timeoutMs }), (err) => {
        assert.ok(isAxmeError(err, 'UNAVAILABLE'));
        assert.match(err.message, new RegExp(`^claude did not answer within ${timeoutMs} ms and was stopped: try later, or raise auditor\\.timeout_ms$`));
        return true;
      });
      pids = fake.pids();
    }
    assert.ok(pids);
    const { claude, grandchild } = pids;
    // stopped by SIGKILL after the grace: their ends are awaited, however long a loaded machine takes to reap them
    await until('claude and what it started are stopped', () => !processAlive(claude) && !processAlive(grandchild));
  });

  test('an abort signal stops it', async () => {
    const p = await open(fake.env('hang'));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(p.complete({ ...request, signal: controller.signal }), (err) => isAxmeError(err, 'UNAVAILABLE') && /cancelled/.test(err.message));
  });

  test('claude_path names the executable; a wrong one is a CONFIG error', async () => {
    const env = { ...fake.env('ok'), PATH: '' };
    const p = await open(env, { provider: 'claude-cli', claudePath: fake.path });
    assert.equal((await p.complete(request)).text, '{"ok":true}');
    await assert.rejects(
      openProvider({ provider: 'claude-cli', claudePath: `${fake.dir}/nope` }, env),
      (err) => isAxmeError(err, 'CONFIG') && /auditor\.claude_path/.test(err.message),
    );
    await assert.rejects(openProvider({ provider: 'claude-cli' }, env), (err) => isAxmeError(err, 'CONFIG') && /`claude` is not on PATH/.test(err.message));
  });
});
