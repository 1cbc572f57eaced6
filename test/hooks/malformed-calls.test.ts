/**
 * A safety hook never fails open: a tool call whose input is not what the client's schema says (a
 * shell call with no command string, a command that is a list where a string belongs, a file tool
 * whose path is a list or missing) is denied with a reason, by every client's adapter, as Claude
 * Code's `Bash {}` was already. And a call the hook cannot check says why, not that it names no tool.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { HookClientId } from '../../src/setup/clients/hook-registry.ts';
import { hookInProcess, loadBuiltHook } from './hook-in-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'axme-malformed-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The reason of the client's deny, or null when the answer lets the call go on. */
function denyReason(client: HookClientId, stdout: string): string | null {
  const text = stdout.trim();
  if (text === '') return null;
  const o = JSON.parse(text) as Record<string, any>;
  if (client === 'cursor') return o.permission === 'deny' ? String(o.agent_message) : null;
  if (client === 'gemini') return o.decision === 'deny' ? String(o.reason) : null;
  return o.hookSpecificOutput?.permissionDecision === 'deny' ? String(o.hookSpecificOutput.permissionDecisionReason) : null;
}

async function answer(client: HookClientId, payload: Record<string, unknown>): Promise<string | null> {
  const r = await hookInProcess('pre-tool-use', { cwd: dir, client, input: JSON.stringify({ cwd: dir, session_id: 'm-1', ...payload }) });
  assert.equal(r.code, 0, r.stderr);
  return denyReason(client, r.stdout);
}

const CASES: Array<[client: HookClientId, what: string, payload: Record<string, unknown>, reason: RegExp]> = [
  ['codex', 'Bash with no command', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: {} }, /no command string/],
  ['codex', 'shell with no command', { hook_event_name: 'PreToolUse', tool_name: 'shell', tool_input: {} }, /no command string/],
  ['codex', 'shell whose command is a number', { hook_event_name: 'PreToolUse', tool_name: 'shell', tool_input: { command: 7 } }, /no command string/],
  ['cursor', 'beforeShellExecution with no command', { hook_event_name: 'beforeShellExecution', conversation_id: 'c' }, /no command string/],
  [
    'cursor',
    'beforeShellExecution whose command is a list',
    { hook_event_name: 'beforeShellExecution', conversation_id: 'c', command: ['rm', '-rf', '/'] },
    /no command string/,
  ],
  ['gemini', 'run_shell_command with no command', { hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: {} }, /no command string/],
  ['claude-code', 'Read whose path is a list', { tool_name: 'Read', tool_input: { file_path: ['/root/.ssh/id_rsa'] } }, /file path/],
  ['claude-code', 'Read with no path', { tool_name: 'Read', tool_input: {} }, /names no file path/],
  ['claude-code', 'Write whose path is a list', { tool_name: 'Write', tool_input: { file_path: ['a.txt'], content: 'x' } }, /file path/],
  [
    'gemini',
    'read_file whose path is a list',
    { hook_event_name: 'BeforeTool', tool_name: 'read_file', tool_input: { file_path: ['/root/.ssh/id_rsa'] } },
    /file path/,
  ],
];

describe('a tool call whose input is malformed is denied, by every adapter', () => {
  before(() => loadBuiltHook());
  for (const [client, what, payload, reason] of CASES)
    test(`${client}: ${what}`, async () => {
      const got = await answer(client, payload);
      assert.ok(got !== null, `${client} let it through`);
      assert.match(got, reason);
    });

  test("gemini's read_many_files whose glob reaches no file is checked as the paths it names: a credential folder is denied for what it is", async () => {
    const got = await answer('gemini', {
      hook_event_name: 'BeforeTool',
      tool_name: 'read_many_files',
      tool_input: { paths: [`${dir}/none/*.txt`, '~/.ssh/*'] },
    });
    assert.ok(got !== null);
    assert.match(got, /credentials/);
    assert.equal(
      await answer('gemini', { hook_event_name: 'BeforeTool', tool_name: 'read_many_files', tool_input: { paths: [`${dir}/none/*.txt`] } }),
      null,
      'a pattern that reaches nothing protected',
    );
  });

  test("gemini's read_many_files whose pattern stands for more paths than are listed one by one is checked for every alternative, not its first ones", async () => {
    const names = Array.from({ length: 70 }, (_, i) => `${dir}/none/n${i}`);
    const read = (last?: string) =>
      answer('gemini', {
        hook_event_name: 'BeforeTool',
        tool_name: 'read_many_files',
        tool_input: { paths: [`{${[...names, ...(last ? [last] : [])].join(',')}}`] },
      });
    const got = await read('~/.ssh/id_rsa');
    assert.ok(got !== null, 'let through');
    assert.match(got, /credentials/);
    assert.equal(await read(), null, 'the same pattern without it');
  });

  test('the well-formed calls still pass', async () => {
    assert.equal(await answer('codex', { hook_event_name: 'PreToolUse', tool_name: 'shell', tool_input: { command: ['ls', '-la'] } }), null);
    assert.equal(await answer('cursor', { hook_event_name: 'beforeShellExecution', conversation_id: 'c', command: 'ls -la' }), null);
    assert.equal(await answer('gemini', { hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' } }), null);
    assert.equal(await answer('claude-code', { tool_name: 'Read', tool_input: { file_path: join(dir, 'a.txt') } }), null);
    assert.equal(await answer('claude-code', { tool_name: 'Grep', tool_input: { pattern: 'x' } }), null, 'Grep searches the folder when it names none');
  });
});
