// One error code per meaning, and input checked at the boundary (issue 18): a state the user must
// change first is WRONG_STATE (exit 1), never CONFLICT (a lost race) or INVALID_INPUT; input that
// fails its schema is INVALID_INPUT (exit 2) naming each field, never "internal error" with a zod dump.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { AxmeError } from '../../src/model/errors.ts';
import { decisionAdd, decisionSupersede } from '../../src/operations/decision/add.ts';
import { decisionRevoke } from '../../src/operations/decision/revoke.ts';
import { questionAsk } from '../../src/operations/question/writes.ts';
import { diff, propose } from '../../src/operations/review.ts';
import { sessionList, sessionRecover } from '../../src/operations/session/session.ts';
import { recordEvent } from '../../src/session/sessions.ts';
import { exitCodeOf, rejectsWith } from '../core.ts';
import { axme, git, tempRepo } from '../helpers.ts';
import { cliJson, cliRun, cliText, useStore } from '../store-fixture.ts';

/** The `--json` error line a failed command prints on stderr. */
function jsonError(stderr: string): { code: string; message: string; data?: Record<string, unknown> } {
  const line = stderr
    .trim()
    .split('\n')
    .find((l) => l.startsWith('{"error"'));
  assert.ok(line, `a JSON error line on stderr:\n${stderr}`);
  return JSON.parse(line).error;
}

/** Runs a command that must fail; returns its exit code and --json error. */
async function failing(dir: string, args: string[]): Promise<{ code: number; error: ReturnType<typeof jsonError> }> {
  const r = await axme(dir, [...args, '--json']);
  assert.notEqual(r.code, 0, `axme ${args.join(' ')} must fail:\n${r.stdout}`);
  return { code: r.code, error: jsonError(r.stderr) };
}

describe('WRONG_STATE: the item or session must change first (exit 1)', () => {
  const store = useStore({ init: { scan: 'if-new' } });

  /** A command's core run as the CLI runs it, in-process, that must fail with WRONG_STATE, `message`, and exit 1. */
  async function wrongState(op: Parameters<typeof cliRun>[1], input: Record<string, unknown>, message: RegExp, name?: string): Promise<void> {
    const error = await rejectsWith(cliRun(store.dir, op, input), 'WRONG_STATE', message);
    assert.equal(exitCodeOf(error), 1, name);
  }

  // the built binary: exit 1 and the --json error line on stderr; the cases after it check the core's error and its exit status in-process
  test('applying a question that has no answer yet', async () => {
    await cliText(store.dir, questionAsk, { question: 'Which port does the API listen on?' });
    const r = await failing(store.dir, ['question', 'status', 'Q-001', 'applied']);
    assert.equal(r.code, 1);
    assert.equal(r.error.code, 'WRONG_STATE');
    assert.match(r.error.message, /Q-001 has no answer yet: answer it first/);
  });

  test('superseding or revoking a decision that is already superseded or revoked', async () => {
    await cliText(store.dir, decisionAdd, { title: 'Use Redis for caching', decision: 'Redis.' });
    await cliText(store.dir, decisionSupersede, { id: 'D-001', title: 'Use Valkey for caching', decision: 'Valkey.' });
    await cliText(store.dir, decisionAdd, { title: 'Use gRPC between services', decision: 'gRPC.' });
    await cliText(store.dir, decisionRevoke, { id: 'D-003', reason: 'We went with HTTP.' });
    const cases: Array<[string, Parameters<typeof cliRun>[1], Record<string, unknown>, RegExp]> = [
      [
        'supersede a superseded decision',
        decisionSupersede,
        { id: 'D-001', title: 'Use Memcached', decision: 'x' },
        /D-001 is already superseded by D-002.*supersede that one instead/,
      ],
      ['supersede a revoked decision', decisionSupersede, { id: 'D-003', title: 'Use REST', decision: 'x' }, /D-003 was revoked: add a new decision/],
      ['revoke a superseded decision', decisionRevoke, { id: 'D-001', reason: 'x' }, /D-001 is superseded by .*revoke that one instead/],
    ];
    for (const [name, op, input, message] of cases) {
      await wrongState(op, input, message, name);
    }
  });

  test('recovering a session that is still running, or that the agent closed', async () => {
    // a harness session opened by a hook: its owner (this test process) is alive
    const payload = {
      session_id: 'cc-state-1',
      cwd: store.dir,
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: join(store.dir, 'a.ts') },
    };
    const h = await axme(store.dir, ['hook', 'post-tool-use'], { input: JSON.stringify(payload) });
    assert.equal(h.code, 0, h.stderr);
    const [row] = await cliJson(store.dir, sessionList);
    assert.equal(row.status, 'active');
    await wrongState(sessionRecover, { id: row.id }, /still running.*pass --force/);

    const commonDir = join(store.dir, git(store.dir, ['rev-parse', '--git-common-dir']).trim());
    recordEvent(commonDir, row.id, { t: new Date().toISOString(), type: 'closed', commit: null });
    await wrongState(sessionRecover, { id: row.id, force: true }, /closed by the agent/);
  });

  test('diff and propose before anything was fetched from, or shared to, the remote', async () => {
    const { dir: remote, cleanup: dropRemote } = tempRepo({ bare: true });
    try {
      git(store.dir, ['remote', 'add', 'origin', remote]);
      await wrongState(diff, {}, /nothing fetched from origin yet.*run `axme sync`/);
      await wrongState(propose, { repo: 'acme/app' }, /origin holds no knowledge yet.*share it first with `axme sync`/);
    } finally {
      git(store.dir, ['remote', 'remove', 'origin']);
      dropRemote();
    }
  });

  test('the MCP layer answers WRONG_STATE as "wrong state", not as an invalid request', async () => {
    const { reply } = await import('../../src/mcp/context.ts');
    const ctx = { log: () => {} } as unknown as Parameters<typeof reply>[0];
    const r = await reply(ctx, async () => {
      throw new AxmeError('WRONG_STATE', 'Q-001 has no answer yet: answer it first');
    });
    assert.equal(r.isError, true);
    assert.match(r.content[0]!.text, /^wrong state: Q-001 has no answer yet/);
    // no structured content: clients check it against the tool's output schema, which describes a success
    assert.equal(r.structuredContent, undefined);
  });
});

describe('input checked at the boundary: INVALID_INPUT names the field (exit 2)', () => {
  const store = useStore({ init: { scan: 'if-new' } });

  const cases: Array<{ name: string; args: string[]; message: RegExp }> = [
    { name: 'propose with a blank title', args: ['propose', '--title', '   '], message: /^invalid proposal: title: must not be empty$/ },
    { name: 'diff from a 400-character revision', args: ['diff', '--from', 'x'.repeat(400)], message: /^invalid diff: from: must be at most 300 characters$/ },
    {
      name: 'search for a fractional number of results',
      args: ['search', 'caching', '-k', '2.5'],
      message: /^--limit \(-k\) takes a whole number from 1 to 100, not "2\.5"$/,
    },
  ];
  for (const c of cases) {
    test(`${c.name}: a usage error naming the field, no zod dump`, async () => {
      const r = await failing(store.dir, c.args);
      assert.equal(r.code, 2);
      assert.equal(r.error.code, 'INVALID_INPUT');
      assert.match(r.error.message, c.message);
      const text = await axme(store.dir, c.args);
      assert.equal(text.code, 2);
      assert.doesNotMatch(text.stderr, /internal error|"origin"|"code":|Too (small|big)/);
      assert.equal(text.stderr.trim().split('\n').length, 1, `one line:\n${text.stderr}`);
    });
  }

  test('zod issues read as plain English: required, one of, at most, whole number, unknown field', async () => {
    const { parseInput } = await import('../../src/model/validate.ts');
    const S = z.object({ name: z.string(), kind: z.enum(['a', 'b']), tags: z.array(z.string()).max(2), n: z.number().int().min(1) }).strict();
    try {
      parseInput(S, { kind: 'c', tags: ['x', 'y', 'z'], n: 1.5, extra: true }, 'thing');
      assert.fail('must throw');
    } catch (err) {
      assert.ok(err instanceof AxmeError && err.code === 'INVALID_INPUT', String(err));
      assert.equal(
        err.message,
        'invalid thing: name: is required; kind: must be one of a, b; tags: must have at most 2 entries; n: must be a whole number; unknown field extra',
      );
      assert.deepEqual(
        (err.data.issues as Array<{ path: string }>).map((i) => i.path),
        ['name', 'kind', 'tags', 'n', ''],
      );
    }
  });

  test('the CLI entry turns a stray ZodError into a usage error (exit 2); AXME_DEBUG=1 adds the bug hint', async () => {
    const { report } = await import('../../src/cli/main.ts');
    const stray = z.object({ title: z.string().min(1) }).safeParse({ title: '' }).error!;
    const run = (env: NodeJS.ProcessEnv, json: boolean) => {
      let stderr = '';
      const sink = new Writable({ write: (c, _e, cb) => ((stderr += String(c)), cb()) });
      const io = { cwd: store.dir, env, stdin: process.stdin, stdout: sink, stderr: sink, self: null };
      return { code: report(io, stray, json), stderr };
    };
    const plain = run({}, false);
    assert.equal(plain.code, 2);
    assert.equal(plain.stderr, 'axme: invalid input: title: must not be empty\n');
    const json = run({}, true);
    assert.equal(json.code, 2);
    assert.equal(jsonError(json.stderr).code, 'INVALID_INPUT');
    const debug = run({ AXME_DEBUG: '1' }, false);
    assert.equal(debug.code, 2);
    assert.match(debug.stderr, /^axme: invalid input: title: must not be empty\n/);
    assert.match(debug.stderr, /a bug: this input should have been checked before it reached the core/);
    assert.match(debug.stderr, /ZodError/, 'the stack, for the bug report');
  });
});

test('a commit object without a tree, author or committer is CORRUPT (run git fsck), not a plain error', async () => {
  const { parseCommit } = await import('../../src/store/backend.ts');
  assert.throws(
    () => parseCommit('parent 0123\n\nmessage'),
    (err: unknown) => err instanceof AxmeError && err.code === 'CORRUPT' && /no tree line.*git fsck/.test(err.message),
  );
});

describe("hook payloads: a bad value is reported as the payload's problem, never as an internal error", () => {
  const store = useStore({ init: { scan: 'if-new' } });

  const bad = (extra: Record<string, unknown>) => JSON.stringify({ session_id: '../escape', cwd: store.dir, ...extra });

  for (const [event, extra] of [
    ['post-tool-use', { hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: 'a.ts' } }],
    ['session-start', { hook_event_name: 'SessionStart', source: 'startup' }],
    ['session-end', { hook_event_name: 'SessionEnd', reason: 'other' }],
  ] as const) {
    test(`${event}: a session_id that cannot name a session`, async () => {
      const r = await axme(store.dir, ['hook', event], { input: bad(extra) });
      assert.equal(r.code, 1, 'a non-blocking hook error, as for any bad payload');
      assert.doesNotMatch(r.stderr, /internal error/);
      assert.match(r.stderr, /session_id "\.\.\/escape" cannot name a session/);
    });
  }

  test("pre-tool-use: the verdict is the rules' as before (a denied call stays denied, an allowed one allowed); the bad session_id is reported", async () => {
    const denied = await axme(store.dir, ['hook', 'pre-tool-use'], {
      input: bad({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }),
    });
    assert.equal(denied.code, 0);
    assert.equal(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision, 'deny');
    const allowed = await axme(store.dir, ['hook', 'pre-tool-use'], {
      input: bad({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }),
    });
    assert.equal(allowed.code, 0);
    assert.equal(allowed.stdout, '', 'allowed: nothing printed');
    assert.doesNotMatch(allowed.stderr, /internal error/);
    assert.match(allowed.stderr, /session_id "\.\.\/escape" cannot name a session/);
    const notJson = await axme(store.dir, ['hook', 'pre-tool-use'], { input: '{"tool_name":' });
    assert.equal(JSON.parse(notJson.stdout).hookSpecificOutput.permissionDecision, 'deny', 'a payload that is not JSON is still denied');
  });
});
