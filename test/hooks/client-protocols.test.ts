import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path, { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { processHookIO } from '../../src/hooks/io.ts';
import { runHook } from '../../src/hooks/run.ts';
import type { HookClientName } from '../../src/model/hook-names.ts';
import { decisionAdd } from '../../src/operations/decision/add.ts';
import { safetyAdd, safetySet } from '../../src/operations/safety/edits.ts';
import { listSessions } from '../../src/session/sessions.ts';
import type { HookClientId } from '../../src/setup/clients/hook-registry.ts';
import { hookCommand } from '../../src/setup/launch.ts';
import { doctorJson, exitCodeOf } from '../core.ts';
import { axme, axmeOk, CLI, cleanEnv, tempRepo } from '../helpers.ts';
import { cliText } from '../store-fixture.ts';

/**
 * The hook adapters of Cursor, Codex and Gemini CLI, driven the way each client drives them:
 * the payloads of each client's reference (test/fixtures/hooks/<client>.json), each answered by
 * the hook `axme init --agent cursor,codex,gemini` registered for that event in the client's own
 * file. A sample per client and event is piped into that command through `sh -c` with the built
 * axme (the command, the launcher, the exit code); the other cases run the same handler in this
 * process. Every answer is checked against the client's own output schema.
 */

type Fixture = Record<string, Record<string, unknown>>;
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'hooks');
const fixture = (client: string): Fixture => JSON.parse(readFileSync(join(FIXTURES, `${client}.json`), 'utf8'));

/** The payload of `event` with its placeholders filled in. */
function payload(fx: Fixture, event: string, fill: Record<string, unknown>): string {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = /^\{\{(\w+)\}\}$/.exec(v);
      if (whole && whole[1]! in fill) return fill[whole[1]!];
      return v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const base = fx[event];
  assert.ok(base, `the fixture has a ${event} payload`);
  return JSON.stringify(walk(base));
}

// The answers each client accepts (strict: a key the client does not know fails the test)
const cursorAnswer = z
  .object({ permission: z.enum(['allow', 'deny', 'ask']).optional(), user_message: z.string().optional(), agent_message: z.string().optional() })
  .strict();
const cursorSessionStart = z.object({ additional_context: z.string(), continue: z.boolean().optional() }).strict();
const codexPreToolUse = z
  .object({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    systemMessage: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    hookSpecificOutput: z
      .object({ hookEventName: z.literal('PreToolUse'), permissionDecision: z.enum(['allow', 'deny', 'ask']), permissionDecisionReason: z.string() })
      .strict()
      .optional(),
  })
  .strict();
const sessionStartContext = z
  .object({ hookSpecificOutput: z.object({ hookEventName: z.literal('SessionStart'), additionalContext: z.string() }).strict() })
  .strict();
const geminiBeforeTool = z
  .object({
    decision: z.enum(['allow', 'deny', 'block', 'ask', 'approve']).optional(),
    reason: z.string().optional(),
    systemMessage: z.string().optional(),
    continue: z.boolean().optional(),
    // the call's input, changed (getModifiedToolInput): git hooks back on for a shell command
    hookSpecificOutput: z
      .object({ hookEventName: z.literal('BeforeTool'), tool_input: z.record(z.string(), z.unknown()) })
      .strict()
      .optional(),
  })
  .strict();

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

describe('hook adapters: Cursor, Codex and Gemini CLI through the installed commands', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    await axmeOk(dir, ['init', '--agent', 'cursor,codex,gemini', '--no-git-hooks', '--no-scan']);
    // the team denies its secret files outright, neither read nor written (the defaults only deny reading
    // them): the file rules below are checked for reads and writes through each client's own tools
    for (const value of ['.env', '*.pem', '*.key']) await cliText(dir, safetyAdd, { rule_type: 'fs_deny', value });
  });
  after(() => cleanup());

  /** The command `axme init --agent` registered in the client's file for its event `clientEvent`. */
  const installed = (client: HookClientName, clientEvent: string): string => {
    const file = { cursor: '.cursor/hooks.json', codex: '.codex/hooks.json', gemini: '.gemini/settings.json' }[client as 'cursor'];
    const list = JSON.parse(readFileSync(join(dir, file), 'utf8')).hooks[clientEvent] as any[];
    assert.ok(Array.isArray(list), `${file} registers ${clientEvent}`);
    const commands: string[] = client === 'cursor' ? list.map((h) => h.command) : list.flatMap((g) => g.hooks.map((h: { command: string }) => h.command));
    const ours = commands.filter((c) => / hook [a-z-]+ --client /.test(c));
    assert.equal(ours.length, 1, `one axme hook for ${clientEvent} in ${file}`);
    return ours[0]!;
  };

  /** Runs axme's hook for `event` the way the client does: the installed command of the payload's event, through sh. */
  const runInstalled = (client: HookClientName, event: string, input: string, env: NodeJS.ProcessEnv = cleanEnv()): Run => {
    const command = installed(client, JSON.parse(input).hook_event_name);
    assert.equal(command, hookCommand(event, client), `the client's event is answered by axme hook ${event} --client ${client}`);
    const r = spawnSync('/bin/sh', ['-c', command], { cwd: dir, env, input, encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  /**
   * Answers `input` with axme's hook for `event` in this process: the handler the installed command
   * runs (runHook, in the client's protocol), without the process around it. For the cases where
   * the answer is what is checked; the command, the shell and the exit code are proven by the
   * cases run through `runInstalled` (a sample per client and event).
   */
  const inProcess = async (client: HookClientId, event: string, input: string): Promise<Run> => {
    let stdout = '';
    let stderr = '';
    const io = processHookIO({
      client,
      stdin: input,
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      env: cleanEnv(),
      cwd: dir,
      loadStoreWork: () => import('../../src/hooks/store-work.ts'),
      // the built axme's folder, as the installed command runs it: its code is guarded as the running axme's
      installDir: path.dirname(CLI),
      self: { execPath: process.execPath, script: CLI },
    });
    return { status: await runHook(event, io), stdout, stderr };
  };

  /** The client's event answered in this process, after checking that the client's file registers axme's hook for it. */
  const run = (client: HookClientId, event: string, input: string): Promise<Run> => {
    assert.equal(
      installed(client, JSON.parse(input).hook_event_name),
      hookCommand(event, client),
      `the client's event is answered by axme hook ${event} --client ${client}`,
    );
    return inProcess(client, event, input);
  };

  /** One decision of a client's safety hook: 'deny' with the reason, or 'pass'. */
  async function decide(client: HookClientName, answer: Run | Promise<Run>): Promise<{ decision: 'deny' | 'pass'; reason: string }> {
    const r = await answer;
    assert.equal(r.status, 0, `${client} hook exit; stderr: ${r.stderr}`);
    if (client === 'cursor') {
      const a = cursorAnswer.parse(JSON.parse(r.stdout));
      if (a.permission === 'deny') {
        assert.ok(a.agent_message && a.user_message, 'a deny tells the agent and the user');
        return { decision: 'deny', reason: a.agent_message };
      }
      assert.equal(a.permission, undefined, "never an allow that would skip Cursor's own approval");
      return { decision: 'pass', reason: '' };
    }
    if (client === 'gemini') {
      const a = geminiBeforeTool.parse(JSON.parse(r.stdout));
      if (a.decision === 'deny') return { decision: 'deny', reason: a.reason ?? '' };
      assert.equal(a.decision, undefined, "never an allow that would skip Gemini's own confirmation");
      return { decision: 'pass', reason: '' };
    }
    if (r.stdout === '') return { decision: 'pass', reason: '' };
    const a = codexPreToolUse.parse(JSON.parse(r.stdout));
    assert.equal(a.hookSpecificOutput?.permissionDecision, 'deny');
    return { decision: 'deny', reason: a.hookSpecificOutput!.permissionDecisionReason };
  }

  // [what, command, expected, reason pattern] — one per rule family the defaults hold; the first
  // and the last (a deny and a pass) through each client's installed command, the rest in-process
  const SHELL: Array<[string, string, 'deny' | 'pass', RegExp?]> = [
    ['data loss', 'rm -rf /', 'deny', /`rm -r` on \/ is never allowed/],
    ['history on a shared branch', 'git push --force origin feature', 'deny', /force/i],
    ['publishing', 'npm publish --access public', 'deny', /npm publish/],
    ['the machine itself', 'shutdown -h now', 'deny', /shutdown/],
    ['a protected file through the shell', 'cat .env', 'deny', /\.env/],
    ['an ordinary command', 'ls -la src', 'pass'],
  ];

  for (const [i, [what, command, expected, reason]] of SHELL.entries()) {
    const sample = i === 0 || i === SHELL.length - 1;
    const via = sample ? runInstalled : run;
    const how = sample ? ' (the installed command)' : '';
    test(`Cursor beforeShellExecution, ${what}: ${expected}${how}`, async () => {
      const d = await decide('cursor', via('cursor', 'pre-tool-use', payload(fixture('cursor'), 'beforeShellExecution', { ROOT: dir, COMMAND: command })));
      assert.equal(d.decision, expected, d.reason);
      if (reason) assert.match(d.reason, reason);
    });
    test(`Codex PreToolUse Bash, ${what}: ${expected}${how}`, async () => {
      const d = await decide(
        'codex',
        via('codex', 'pre-tool-use', payload(fixture('codex'), 'PreToolUse', { ROOT: dir, TOOL: 'Bash', TOOL_INPUT: { command } })),
      );
      assert.equal(d.decision, expected, d.reason);
      if (reason) assert.match(d.reason, reason);
    });
    test(`Gemini BeforeTool run_shell_command, ${what}: ${expected}${how}`, async () => {
      const d = await decide(
        'gemini',
        via(
          'gemini',
          'pre-tool-use',
          payload(fixture('gemini'), 'BeforeTool', { ROOT: dir, TOOL: 'run_shell_command', TOOL_INPUT: { command, description: 'run it' } }),
        ),
      );
      assert.equal(d.decision, expected, d.reason);
      if (reason) assert.match(d.reason, reason);
    });
  }

  test("file rules hold for each client's own file tools", async () => {
    const cursorRead = (file: string) =>
      decide('cursor', run('cursor', 'pre-tool-use', payload(fixture('cursor'), 'beforeReadFile', { ROOT: dir, FILE: file })));
    assert.equal((await cursorRead(join(dir, '.env'))).decision, 'deny');
    assert.equal((await cursorRead(join(dir, 'README.md'))).decision, 'pass');

    const gem = (tool: string, input: Record<string, unknown>) =>
      decide('gemini', run('gemini', 'pre-tool-use', payload(fixture('gemini'), 'BeforeTool', { ROOT: dir, TOOL: tool, TOOL_INPUT: input })));
    assert.equal((await gem('read_file', { file_path: '.env' })).decision, 'deny');
    assert.equal((await gem('read_file', { absolute_path: join(dir, '.env') })).decision, 'deny', 'the older argument name too');
    assert.equal((await gem('write_file', { file_path: 'certs/server.pem', content: 'x' })).decision, 'deny');
    assert.equal((await gem('replace', { file_path: 'deploy.key', old_string: 'a', new_string: 'b' })).decision, 'deny');
    assert.equal((await gem('read_many_files', { paths: ['src/**', '.env'] })).decision, 'deny', 'one protected path among many');
    assert.equal((await gem('write_file', { file_path: 'src/app.ts', content: 'x' })).decision, 'pass');
    assert.equal(
      (await gem('run_shell_command', { command: 'cat .env', dir_path: 'src' })).decision,
      'deny',
      'a command run in a sub-folder: src/.env is a .env too',
    );
  });

  test('Codex apply_patch: every file the patch touches is checked as a write', async () => {
    const patch = (files: string[]) => `*** Begin Patch\n${files.map((f) => `*** Add File: ${f}\n+x`).join('\n')}\n*** End Patch\n`;
    const codex = (files: string[]) =>
      decide(
        'codex',
        run('codex', 'pre-tool-use', payload(fixture('codex'), 'PreToolUse', { ROOT: dir, TOOL: 'apply_patch', TOOL_INPUT: { command: patch(files) } })),
      );
    assert.equal((await codex(['src/a.ts', 'certs/server.pem'])).decision, 'deny');
    assert.equal((await codex(['src/a.ts', 'src/b.ts'])).decision, 'pass');
  });

  test("the clients' own hook files are the guard's: no agent edits them away, through its file tool or the shell", async () => {
    const gem = (tool: string, input: Record<string, unknown>) =>
      decide('gemini', run('gemini', 'pre-tool-use', payload(fixture('gemini'), 'BeforeTool', { ROOT: dir, TOOL: tool, TOOL_INPUT: input })));
    assert.equal((await gem('write_file', { file_path: '.gemini/settings.json', content: '{}' })).decision, 'deny');
    assert.equal((await gem('run_shell_command', { command: 'echo {} > .gemini/settings.json' })).decision, 'deny');
    assert.equal((await gem('read_file', { file_path: '.gemini/settings.json' })).decision, 'pass', 'reading them is fine');
    const codexBash = (command: string) =>
      decide('codex', run('codex', 'pre-tool-use', payload(fixture('codex'), 'PreToolUse', { ROOT: dir, TOOL: 'Bash', TOOL_INPUT: { command } })));
    assert.equal((await codexBash('rm .codex/hooks.json')).decision, 'deny');
    assert.equal((await codexBash("sed -i 's/hooks = true/hooks = false/' .codex/config.toml")).decision, 'deny');
    const cursorShell = (command: string) =>
      decide('cursor', run('cursor', 'pre-tool-use', payload(fixture('cursor'), 'beforeShellExecution', { ROOT: dir, COMMAND: command })));
    assert.equal((await cursorShell('rm .cursor/hooks.json')).decision, 'deny');
    assert.equal((await cursorShell(`cp /dev/null ${cleanEnv().HOME}/.cursor/hooks.json`)).decision, 'deny', 'the user-level file too');
    // axme's own running code and its code cache: bytecode from there is what checks the agent
    const { dirname } = path;
    assert.equal((await codexBash(`printf x > ${cleanEnv().HOME}/.cache/axme/hook-0123456789abcdef/v20-x64-00000000-hook.bin`)).decision, 'deny');
    assert.equal((await codexBash(`cp /tmp/evil.cjs ${dirname(cleanEnv().AXME_BIN!)}/hook.cjs`)).decision, 'deny');
    assert.equal((await gem('write_file', { file_path: `${cleanEnv().HOME}/.cache/axme/x.bin`, content: 'x' })).decision, 'deny');
    assert.equal((await codexBash(`ls ${cleanEnv().HOME}/.cache/axme`)).decision, 'pass', 'looking is fine');
  });

  test("Codex: apply_patch headers however indented, apply_patch through the shell, and the call's workdir", async () => {
    const codex = (tool: string, input: Record<string, unknown>) =>
      decide('codex', run('codex', 'pre-tool-use', payload(fixture('codex'), 'PreToolUse', { ROOT: dir, TOOL: tool, TOOL_INPUT: input })));
    assert.equal(
      (await codex('apply_patch', { command: '*** Begin Patch\n *** Add File: .env\n+SECRET=1\n*** Add File: ok.txt\n+hi\n*** End Patch\n' })).decision,
      'deny',
    );
    assert.equal(
      (await codex('apply_patch', { command: '*** Begin Patch\n\t*** Delete File: .claude/settings.json\n*** Add File: ok.txt\n+hi\n*** End Patch\n' }))
        .decision,
      'deny',
    );
    assert.equal((await codex('shell', { command: ['apply_patch', '*** Begin Patch\n*** Add File: .env\n+x\n*** End Patch\n'] })).decision, 'deny');
    assert.equal(
      (await codex('Bash', { command: "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: certs/server.pem\n+x\n*** End Patch\nEOF" })).decision,
      'deny',
    );
    assert.equal((await codex('shell', { command: ['apply_patch', '*** Begin Patch\n*** Add File: src/ok.ts\n+x\n*** End Patch\n'] })).decision, 'pass');
    const ssh = join(cleanEnv().HOME!, '.ssh');
    assert.equal((await codex('shell', { command: ['cat', 'id_rsa'], workdir: ssh })).decision, 'deny');
    assert.equal((await codex('exec_command', { cmd: 'cat id_rsa', workdir: ssh })).decision, 'deny');
    assert.equal((await codex('exec_command', { cmd: 'cat README.md', workdir: dir })).decision, 'pass');
  });

  test("Gemini: read_many_files is checked by the files it would read; grep_search's include_pattern counts", async () => {
    const { mkdirSync, writeFileSync, rmSync } = await import('node:fs');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    mkdirSync(join(dir, 'docs'), { recursive: true });
    writeFileSync(join(dir, 'sub', 'x.pem'), 'key');
    writeFileSync(join(dir, 'sub', 'a.txt'), 'a');
    writeFileSync(join(dir, 'docs', 'guide.md'), 'g');
    try {
      const gem = (tool: string, input: Record<string, unknown>) =>
        decide('gemini', run('gemini', 'pre-tool-use', payload(fixture('gemini'), 'BeforeTool', { ROOT: dir, TOOL: tool, TOOL_INPUT: input })));
      for (const include of [['sub/*'], ['sub'], ['*.{pem,txt}'], ['**/*.pem']])
        assert.equal((await gem('read_many_files', { include, useDefaultExcludes: false })).decision, 'deny', include.join());
      assert.equal((await gem('read_many_files', { paths: ['docs', 'sub/a.txt'] })).decision, 'pass');
      assert.equal((await gem('read_many_files', {})).decision, 'deny', 'no paths: nothing to check, so no');
      assert.equal((await gem('grep_search', { pattern: 'x', dir_path: 'sub', include_pattern: '*.pem' })).decision, 'deny');
      assert.equal((await gem('grep_search', { pattern: 'x', dir_path: 'docs', include_pattern: '*.md' })).decision, 'pass');
    } finally {
      rmSync(join(dir, 'sub'), { recursive: true, force: true });
      rmSync(join(dir, 'docs'), { recursive: true, force: true });
    }
  });

  test('Cursor beforeReadFile: a payload without a file is denied, and attached files are read too', async () => {
    const read = (fill: Record<string, unknown>) => {
      const input = JSON.parse(payload(fixture('cursor'), 'beforeReadFile', { ROOT: dir, FILE: '' }));
      return decide('cursor', run('cursor', 'pre-tool-use', JSON.stringify({ ...input, ...fill })));
    };
    const none = await read({ file_path: undefined, attachments: [] });
    assert.equal(none.decision, 'deny');
    assert.match(none.reason, /names no file_path/);
    assert.equal((await read({ file_path: join(dir, 'README.md'), attachments: [{ type: 'file', filePath: join(dir, '.env') }] })).decision, 'deny');
    assert.equal((await read({ file_path: join(dir, 'README.md'), attachments: [{ type: 'file', filePath: join(dir, 'LICENSE') }] })).decision, 'pass');
  });

  test("MCP calls: removing a safety rule through axme's own tool is the user's call, in Cursor and Gemini alike", async () => {
    const cursorMcp = (tool: string, input: Record<string, unknown>) =>
      decide(
        'cursor',
        run('cursor', 'pre-tool-use', payload(fixture('cursor'), 'beforeMCPExecution', { ROOT: dir, TOOL: tool, TOOL_INPUT: JSON.stringify(input) })),
      );
    assert.equal((await cursorMcp('axme_update_safety', { action: 'remove', rule: 'bash_deny', value: 'npm publish' })).decision, 'deny');
    assert.equal((await cursorMcp('axme_update_safety', { action: 'add', rule: 'bash_deny', value: 'make deploy' })).decision, 'pass');
    const gem = await decide(
      'gemini',
      run(
        'gemini',
        'pre-tool-use',
        payload(fixture('gemini'), 'BeforeTool', {
          ROOT: dir,
          TOOL: 'mcp__axme__axme_update_safety',
          TOOL_INPUT: { action: 'remove', rule: 'bash_deny', value: 'npm publish' },
        }),
      ),
    );
    assert.equal(gem.decision, 'deny');
    // Gemini CLI 0.61 names an MCP tool mcp_<server>_<tool> (one underscore each), with mcp_context beside it
    const gemini061 = (tool: string, input: Record<string, unknown>, mcp?: Record<string, unknown>) =>
      decide(
        'gemini',
        run(
          'gemini',
          'pre-tool-use',
          JSON.stringify({
            ...JSON.parse(payload(fixture('gemini'), 'BeforeTool', { ROOT: dir, TOOL: tool, TOOL_INPUT: input })),
            ...(mcp ? { mcp_context: mcp } : {}),
          }),
        ),
      );
    const remove = { action: 'remove', rule_type: 'bash_deny', value: 'npm publish' };
    const context = { server_name: 'axme', tool_name: 'axme_update_safety', command: 'sh', args: ['-c', 'axme serve'] };
    assert.equal((await gemini061('mcp_axme_axme_update_safety', remove, context)).decision, 'deny', 'named by mcp_context');
    assert.equal((await gemini061('mcp_axme_axme_update_safety', remove)).decision, 'deny', 'named by the single-underscore form alone');
    assert.match((await gemini061('mcp_axme_axme_update_safety', remove)).reason, /for the user/);
    assert.equal(
      (await gemini061('mcp_axme_axme_update_safety', { action: 'add', rule_type: 'bash_deny', value: 'make deploy' }, context)).decision,
      'pass',
      'tightening is fine',
    );
    assert.equal(
      (await gemini061('mcp_github_create_issue', { title: 'x' }, { server_name: 'github', tool_name: 'create_issue' })).decision,
      'pass',
      "another server's tool",
    );
  });

  test("input a client did not send is denied with the reason, in that client's words", async () => {
    const bad = await decide(
      'cursor',
      run('cursor', 'pre-tool-use', payload(fixture('cursor'), 'beforeMCPExecution', { ROOT: dir, TOOL: 'x', TOOL_INPUT: '{not json' })),
    );
    assert.equal(bad.decision, 'deny');
    assert.match(bad.reason, /tool_input is not JSON.*denied to stay safe/);
    const none = await decide('gemini', run('gemini', 'pre-tool-use', '{"hook_event_name":"BeforeTool"}'));
    assert.equal(none.decision, 'deny');
    assert.match(none.reason, /names no tool_name \(gemini, event BeforeTool\)/);
  });

  for (const client of ['cursor', 'codex', 'gemini'] as const) {
    test(`${client}: the safety hook blocks (exit 2) when axme is missing or cannot run`, () => {
      const input =
        client === 'cursor'
          ? payload(fixture('cursor'), 'beforeShellExecution', { ROOT: dir, COMMAND: 'ls' })
          : payload(fixture(client), client === 'codex' ? 'PreToolUse' : 'BeforeTool', {
              ROOT: dir,
              TOOL: client === 'codex' ? 'Bash' : 'run_shell_command',
              TOOL_INPUT: { command: 'ls' },
            });
      const bare = { PATH: '/usr/bin:/bin', HOME: dir, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
      // the launcher init recorded (.git/axme/launcher) names an axme that is gone: none anywhere
      const launcher = join(dir, '.git', 'axme', 'launcher');
      const recorded = readFileSync(launcher, 'utf8');
      writeFileSync(launcher, `${process.execPath}\n${join(dir, 'gone', 'axme.cjs')}\n`);
      let missing: ReturnType<typeof runInstalled>;
      try {
        missing = runInstalled(client, 'pre-tool-use', input, bare);
      } finally {
        writeFileSync(launcher, recorded);
      }
      assert.equal(missing.status, 2);
      assert.match(missing.stderr, /axme is not installed on this machine .*the call is blocked/);
      const broken = runInstalled(client, 'pre-tool-use', input, { ...bare, AXME_BIN: '/bin/false' });
      assert.equal(broken.status, 2);
      assert.match(broken.stderr, /the safety hook could not run/);
      // and an unknown client is no way around it: the full CLI refuses it as a usage error (exit 2 blocks)
      const wrong = spawnSync(process.execPath, [cleanEnv().AXME_BIN!, 'hook', 'pre-tool-use', '--client', 'nobody'], {
        cwd: dir,
        env: cleanEnv(),
        input,
        encoding: 'utf8',
      });
      assert.equal(wrong.status, 2, wrong.stderr);
    });
  }

  test("sessions: each client's conversation is its own session; edits are recorded from Cursor, Codex and Gemini", async () => {
    const files = () => {
      const byHarness: Record<string, string[]> = {};
      for (const s of listSessions(join(dir, '.git'))) byHarness[s.meta.harness] = [...(byHarness[s.meta.harness] ?? []), ...s.files].sort();
      return byHarness;
    };
    let r = runInstalled('cursor', 'post-tool-use', payload(fixture('cursor'), 'afterFileEdit', { ROOT: dir, FILE: join(dir, 'src', 'cursor.ts') }));
    assert.equal(r.status, 0, r.stderr);
    // Codex sends no PostToolUse for apply_patch: its files are recorded when PreToolUse lets it through
    r = runInstalled(
      'codex',
      'pre-tool-use',
      payload(fixture('codex'), 'PreToolUse', {
        ROOT: dir,
        TOOL: 'apply_patch',
        TOOL_INPUT: { command: '*** Begin Patch\n*** Update File: src/codex.ts\n@@\n-a\n+b\n*** End Patch\n' },
      }),
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '', 'let through');
    // as Codex 0.169 runs it: its shell tool (`Bash`) with the patch in a heredoc
    const heredoc = (file: string) => ({ command: `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ${file}\n+x\n*** End Patch\nEOF\n` });
    // (this and the calls below marked in-process: the same session's, answered in this process)
    r = await run('codex', 'pre-tool-use', payload(fixture('codex'), 'PreToolUse', { ROOT: dir, TOOL: 'Bash', TOOL_INPUT: heredoc('src/heredoc.ts') }));
    assert.equal(r.stdout, '', r.stderr);
    // a patch that is denied edits nothing: nothing recorded (in-process)
    r = await run('codex', 'pre-tool-use', payload(fixture('codex'), 'PreToolUse', { ROOT: dir, TOOL: 'Bash', TOOL_INPUT: heredoc('certs/server.pem') }));
    assert.match(r.stdout, /"permissionDecision":"deny"/);
    r = runInstalled(
      'gemini',
      'post-tool-use',
      payload(fixture('gemini'), 'AfterTool', { ROOT: dir, TOOL: 'write_file', TOOL_INPUT: { file_path: 'src/gemini.ts', content: 'x' } }),
    );
    assert.equal(r.status, 0, r.stderr);
    // a shell call is no file edit (in-process)
    r = await run('gemini', 'post-tool-use', payload(fixture('gemini'), 'AfterTool', { ROOT: dir, TOOL: 'run_shell_command', TOOL_INPUT: { command: 'ls' } }));
    assert.equal(r.status, 0, r.stderr);
    const seen = files();
    assert.deepEqual(seen.cursor, ['src/cursor.ts']);
    // every patch let through is recorded (the earlier tests' too: one Codex session); a denied one's files are not
    for (const f of ['src/codex.ts', 'src/heredoc.ts']) assert.ok(seen.codex!.includes(f), f);
    for (const f of ['certs/server.pem', '.env', 'ok.txt']) assert.ok(!seen.codex!.includes(f), f);
    assert.deepEqual(seen.gemini, ['src/gemini.ts']);
  });

  test("session start hands each client the project context in its own answer; Cursor's, Gemini's and Codex's session end ends the session", async () => {
    await cliText(dir, decisionAdd, { title: 'Use Valkey for caching', decision: 'Valkey, not Redis', reasoning: 'licence', enforce: 'required' });
    const cursor = runInstalled('cursor', 'session-start', payload(fixture('cursor'), 'sessionStart', { ROOT: dir }));
    assert.equal(cursor.status, 0, cursor.stderr);
    assert.match(cursorSessionStart.parse(JSON.parse(cursor.stdout)).additional_context, /Use Valkey for caching/);
    const contexts: Record<string, string> = {};
    for (const client of ['codex', 'gemini'] as const) {
      const r = runInstalled(client, 'session-start', payload(fixture(client), 'SessionStart', { ROOT: dir }));
      assert.equal(r.status, 0, r.stderr);
      contexts[client] = sessionStartContext.parse(JSON.parse(r.stdout)).hookSpecificOutput.additionalContext;
      assert.match(contexts[client]!, /Use Valkey for caching/, client);
    }
    // Gemini CLI HTML-escapes < and > in a hook's context (the model would read pr=&lt;N|none&gt;): look-alikes instead
    assert.match(contexts.codex!, /[<>]/, 'the context has angle brackets to begin with');
    assert.doesNotMatch(contexts.gemini!, /[<>]/);
    const withoutSession = (text: string) => text.replace(/\(axme session [^)]*\)/, '');
    assert.equal(withoutSession(contexts.gemini!), withoutSession(contexts.codex!).replace(/</g, '\u2039').replace(/>/g, '\u203a'));
    assert.match(contexts.gemini!, /pr=\u2039N\|none\u203a/);
    const ended = (harness: string) => listSessions(join(dir, '.git')).find((s) => s.meta.harness === harness)?.ended?.reason;
    assert.equal(runInstalled('cursor', 'session-end', payload(fixture('cursor'), 'sessionEnd', { ROOT: dir })).status, 0);
    assert.equal(ended('cursor'), 'window_close');
    assert.equal(runInstalled('gemini', 'session-end', payload(fixture('gemini'), 'SessionEnd', { ROOT: dir })).status, 0);
    assert.equal(ended('gemini'), 'exit');
    // Codex's SessionEnd (reason "other" under codex exec)
    const codexEnd = {
      ...JSON.parse(payload(fixture('codex'), 'SessionStart', { ROOT: dir })),
      hook_event_name: 'SessionEnd',
      source: undefined,
      reason: 'other',
    };
    assert.equal(runInstalled('codex', 'session-end', JSON.stringify(codexEnd)).status, 0);
    assert.equal(ended('codex'), 'other');
  });

  test('"ask" (infrastructure destruction): Claude Code and Cursor put it to the user; Codex and Gemini CLI, which cannot ask, deny saying so', async () => {
    const command = 'terraform destroy -auto-approve';
    const claudeInput = JSON.stringify({ session_id: 'ask-1', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    const claude = await inProcess('claude-code', 'pre-tool-use', claudeInput);
    const c = codexPreToolUse.parse(JSON.parse(claude.stdout)).hookSpecificOutput!;
    assert.equal(c.permissionDecision, 'ask');
    assert.match(c.permissionDecisionReason, /families\.infra|terraform destroy/);
    const cursor = cursorAnswer.parse(
      JSON.parse((await run('cursor', 'pre-tool-use', payload(fixture('cursor'), 'beforeShellExecution', { ROOT: dir, COMMAND: command }))).stdout),
    );
    assert.equal(cursor.permission, 'ask');
    assert.match(cursor.agent_message!, /terraform destroy/);
    const codex = await decide(
      'codex',
      run('codex', 'pre-tool-use', payload(fixture('codex'), 'PreToolUse', { ROOT: dir, TOOL: 'Bash', TOOL_INPUT: { command } })),
    );
    assert.equal(codex.decision, 'deny');
    assert.match(codex.reason, /Codex cannot ask the user from a hook/);
    const gemini = await decide(
      'gemini',
      run('gemini', 'pre-tool-use', payload(fixture('gemini'), 'BeforeTool', { ROOT: dir, TOOL: 'run_shell_command', TOOL_INPUT: { command } })),
    );
    assert.equal(gemini.decision, 'deny');
    assert.match(gemini.reason, /Gemini CLI cannot ask the user from a hook/);
    // a deny elsewhere on the line wins over the ask
    const both = cursorAnswer.parse(
      JSON.parse(
        (await run('cursor', 'pre-tool-use', payload(fixture('cursor'), 'beforeShellExecution', { ROOT: dir, COMMAND: `${command} && rm -rf /` }))).stdout,
      ),
    );
    assert.equal(both.permission, 'deny');
    // the family's action is the store's to choose: off lets it through, deny denies it
    const claudeNow = async () => (await inProcess('claude-code', 'pre-tool-use', claudeInput)).stdout;
    // `axme safety set families.infra <action>`, in-process (the command's exit codes are the CLI tests'),
    // run by the user: switching a family off is a person's
    const set = (value: string) => cliText(dir, safetySet, { key: 'families.infra', value }, { env: { AXME_ACTOR: 'human' } });
    try {
      assert.match(await set('off'), /families\.infra = off/);
      assert.equal(await claudeNow(), '', 'off: no objection');
      await set('deny');
      assert.equal(codexPreToolUse.parse(JSON.parse(await claudeNow())).hookSpecificOutput!.permissionDecision, 'deny');
      const bad = await set('maybe').then(
        () => assert.fail('families.infra = maybe was accepted'),
        (err: unknown) => err,
      );
      assert.equal(exitCodeOf(bad), 2, String(bad));
      assert.match((bad as Error).message, /families\.infra cannot be "maybe"/);
    } finally {
      await set('ask');
    }
  });

  test("axme doctor runs each connected client's safety hook in its protocol, and says when a file is not today's", async () => {
    const { writeFileSync } = await import('node:fs');
    // Codex runs the hooks only when it trusts the project and each hook: a Codex home that does (codex-trust.test.ts reads it all)
    const { mkdirSync } = await import('node:fs');
    const { axmeCodexHooks } = await import('../../src/setup/clients/codex-trust.ts');
    const codexHome = join(dir, '.git', 'codex-home');
    mkdirSync(codexHome, { recursive: true });
    const trusted = axmeCodexHooks(dir, readFileSync(join(dir, '.codex', 'hooks.json'), 'utf8')).map(
      (h) => `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(h.hash)}\n`,
    );
    writeFileSync(join(codexHome, 'config.toml'), [`[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`, ...trusted].join('\n'));
    // the first report through the binary (`axme doctor --json`), the others from doctor() in this
    // process: the same checks, each running the clients' hooks for real
    const report = async (env: NodeJS.ProcessEnv = {}, binary = false) => {
      const e = { CODEX_HOME: codexHome, ...env };
      const r = binary ? JSON.parse((await axme(dir, ['doctor', '--json'], { env: e })).stdout) : await doctorJson(dir, e);
      return Object.fromEntries(
        (r.checks as Array<{ name: string; status: string; detail: string }>)
          .filter(
            (c) =>
              ['cursor hooks', 'codex hooks', 'gemini hooks'].includes(c.name) ||
              (c.name.endsWith(' hooks') && !['claude hooks', 'git hooks'].includes(c.name)),
          )
          .map((c) => [c.name, c]),
      );
    };
    const ok = await report({}, true);
    assert.deepEqual(Object.keys(ok).sort(), ['codex hooks', 'cursor hooks', 'gemini hooks']);
    for (const c of Object.values(ok)) assert.equal(c.status, 'ok', c.detail);
    const path = join(dir, '.cursor', 'hooks.json');
    const before = readFileSync(path, 'utf8');
    try {
      // the same hooks, minified and without a final newline: still today's
      writeFileSync(path, JSON.stringify(JSON.parse(before)));
      assert.equal((await report())['cursor hooks']!.status, 'ok');
      // a hook that lets everything through in place of axme's safety hook
      const config = JSON.parse(before);
      config.hooks.beforeShellExecution = [{ command: 'echo {}' }];
      writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
      const swapped = await report();
      assert.equal(swapped['cursor hooks']!.status, 'problem');
      assert.match(swapped['cursor hooks']!.detail, /not hold today's axme hooks/);
      assert.equal(swapped['codex hooks']!.status, 'ok');
    } finally {
      writeFileSync(path, before);
    }
    // today's hooks, but the axme they find cannot run: each live check says its hook did not deny
    const broken = await report({ AXME_BIN: '/bin/false' });
    for (const name of ['cursor hooks', 'codex hooks', 'gemini hooks']) {
      assert.equal(broken[name]!.status, 'problem', name);
      assert.match(broken[name]!.detail, /safety hook did not deny `rm -rf \/`/, name);
    }
  });
});
