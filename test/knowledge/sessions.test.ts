import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { context } from '../../src/operations/context.ts';
import { sessionFinalize, sessionList, sessionRecover, sessionShow } from '../../src/operations/session/session.ts';
import type { SessionState } from '../../src/session/sessions.ts';
import { doctorJson, exitCodeOf, initCore, rejectsWith } from '../core.ts';
import { axme, axmeOk, CLI, cleanEnv, git, tempRepo } from '../helpers.ts';
import { type HookRun, hookInProcess } from '../hooks/hook-in-process.ts';
import { cliJson, cliText, makeStore } from '../store-fixture.ts';
import { processesEnded, until } from '../until.ts';
import { storeCopies } from './fixture-copies.ts';

/**
 * Sessions end to end: Claude Code is simulated by driving the built hooks with its JSON payloads
 * (the test process plays the harness: the owner of the sessions the hooks open), a sample through
 * the binary and the rest answered in this process by the same entry, the agent's side by the
 * real MCP SDK client over stdio, and commits by the real git CLI through the installed git hooks.
 */

type Result = { content: Array<{ type: string; text: string }>; structuredContent?: any; isError?: boolean };
const text = (r: Result) => r.content.map((c) => c.text).join('\n');

async function connect(
  dir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ client: Client; call: (name: string, args?: Record<string, unknown>) => Promise<Result>; stderr: () => string; stop: () => Promise<void> }> {
  // no AXME_SESSION: the server must find the session the hooks opened
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve'],
    cwd: dir,
    env: cleanEnv(env) as Record<string, string>,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d) => (err += d));
  const client = new Client({ name: 'session-test', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid!;
  // closes the client and waits for the server process to be gone (its stop-time recovery done)
  const stop = async () => {
    await client.close();
    await processesEnded([pid]);
  };
  return { client, call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as Result, stderr: () => err, stop };
}

function hookPayload(dir: string, sessionId: string, event: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: join(dir, '.transcripts', `${sessionId}.jsonl`),
    cwd: dir,
    hook_event_name: event,
    ...extra,
  });
}

/** `axme hook <event>` through the built binary: a process the test process starts, as the harness does. */
async function hook(dir: string, event: string, payload: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return axme(dir, ['hook', event], { input: payload });
}

/**
 * The same hook answered in this process (test/hooks/hook-in-process.ts: runHook of dist/hook.cjs),
 * this process its harness as it is a spawned hook's: for the calls whose answer and effect on the
 * session are what is checked. A sample stays a process (`hook`): the first session's start, a
 * session end, the hooks that race each other and the one that waits on a claim this process holds.
 */
function hookHere(dir: string, event: string, payload: string): Promise<HookRun> {
  return hookInProcess(event, { cwd: dir, input: payload, harnessHere: true });
}

/** A fake transcript in Claude Code's JSONL shape: user prompts, tool traffic, assistant prose. */
function writeTranscript(dir: string, sessionId: string, lines: unknown[]): void {
  mkdirSync(join(dir, '.transcripts'), { recursive: true });
  writeFileSync(join(dir, '.transcripts', `${sessionId}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

const memoryLog = (dir: string) => git(dir, ['log', '--format=%H %s', 'refs/memory/main']).trim().split('\n');

function ignoreTranscripts(dir: string): void {
  writeFileSync(join(dir, '.gitignore'), '.transcripts/\n');
  git(dir, ['add', '.gitignore']);
  git(dir, ['commit', '-q', '-m', 'ignore transcripts']);
}

describe('a Claude Code session through the real hooks and the real MCP client', () => {
  let dir: string;
  let cleanup: () => void;
  let sessionId: string;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    ignoreTranscripts(dir);
    await initCore(dir, { claude: true, gitHooks: true, scan: 'if-new' });
  });
  after(() => cleanup());

  test('start, edits, a commit, begin/finalize close: one commit with handoff, summary and extractions', async () => {
    writeTranscript(dir, 'cc-1', [{ type: 'user', message: { role: 'user', content: 'Add a retry to the HTTP client' } }]);
    const start = await hook(dir, 'session-start', hookPayload(dir, 'cc-1', 'SessionStart', { source: 'startup' }));
    assert.equal(start.code, 0, start.stderr);
    const ctx = JSON.parse(start.stdout).hookSpecificOutput.additionalContext as string;
    const m = /\(axme session ([\w-]+)\)/.exec(ctx);
    assert.ok(m, ctx);
    sessionId = m[1]!;

    // the agent edits two files; the pre-tool-use hook lets them through, the post-tool-use hook records them
    for (const file of ['src/http.ts', 'src/retry.ts']) {
      const pre = await hookHere(
        dir,
        'pre-tool-use',
        hookPayload(dir, 'cc-1', 'PreToolUse', { tool_name: 'Edit', tool_input: { file_path: join(dir, file), old_string: 'a', new_string: 'b' } }),
      );
      assert.equal(pre.code, 0);
      assert.equal(pre.stdout, '', 'an allowed edit prints nothing');
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, file), `export const x = '${file}';\n`);
      const post = await hookHere(
        dir,
        'post-tool-use',
        hookPayload(dir, 'cc-1', 'PostToolUse', { tool_name: 'Edit', tool_input: { file_path: join(dir, file) }, tool_response: { success: true } }),
      );
      assert.equal(post.code, 0, post.stderr);
    }
    const denied = await hookHere(
      dir,
      'pre-tool-use',
      hookPayload(dir, 'cc-1', 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'git push --force origin main' } }),
    );
    assert.equal(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision, 'deny');

    // a real commit through the installed git hooks: post-commit records it in the session
    git(dir, ['add', 'src/http.ts']);
    git(dir, ['commit', '-q', '-m', 'Retry failed requests', '-m', '#!axme pr=none repo=acme/app']);
    const codeCommit = git(dir, ['rev-parse', 'HEAD']).trim();

    const { client, call } = await connect(dir);
    try {
      const begin = await call('axme_begin_close');
      assert.ok(!begin.isError, text(begin));
      assert.match(text(begin), /Stored now: 0 decisions, 0 memories/);
      assert.equal(begin.structuredContent.session, sessionId, 'the server found the session the hooks opened');
      assert.match(text(begin), /This session \(since [\d-]+ [\d:]+ UTC\) changed 2 files: src\/http\.ts, src\/retry\.ts; 1 commit \([0-9a-f]{12}\)/);
      assert.deepEqual(begin.structuredContent.recorded.files, ['src/http.ts', 'src/retry.ts']);

      const before = memoryLog(dir).length;
      const fin = await call('axme_finalize_close', {
        decisions: [
          { title: 'Retry idempotent requests only', decision: 'GET and PUT are retried with backoff; POST never.', reasoning: 'POST is not idempotent.' },
        ],
        memories: [{ type: 'feedback', title: 'Keep retries out of the UI layer', description: 'The user wants retry logic in the client only.' }],
        stopped_at: 'retry for PUT still untested',
        summary: 'Added retries to the HTTP client.',
        next_steps: 'Test PUT retries against the staging API.',
        startup_text: 'Last time we added HTTP retries; PUT retries still need a test. Shall I write it?',
        worklog_entry: 'Added retries with exponential backoff to src/http.ts; decided POST is never retried.',
      });
      assert.ok(!fin.isError, text(fin));
      const after = memoryLog(dir);
      assert.equal(after.length, before + 1, 'the close is ONE commit');
      const body = git(dir, ['log', '-1', '--format=%B', 'refs/memory/main']);
      assert.match(body, /Added retries with exponential backoff/, 'the commit body is the worklog entry');
      assert.match(body, new RegExp(`Axme-Session: ${sessionId}`));
      assert.match(body, /Axme-Actor: agent/);
      const files = git(dir, ['show', '--name-only', '--format=', 'refs/memory/main']).trim().split('\n').sort();
      assert.ok(files.includes(`handoffs/${sessionId}.md`), files.join(','));
      assert.ok(files.some((f) => f.startsWith('decisions/')) && files.some((f) => f.startsWith('memories/')), files.join(','));
      const summaryPath = files.find((f) => f.startsWith('sessions/'))!;
      assert.match(summaryPath, new RegExp(`^sessions/\\d{4}-\\d{2}/${sessionId}\\.md$`));
      const summary = git(dir, ['show', `refs/memory/main:${summaryPath}`]);
      assert.match(summary, /files_changed:\n\s+- src\/http\.ts\n\s+- src\/retry\.ts/);
      assert.match(summary, new RegExp(`commits:\\n\\s+- ${codeCommit}`));
      assert.match(summary, /started: /);
    } finally {
      await client.close();
    }

    const end = await hookHere(dir, 'session-end', hookPayload(dir, 'cc-1', 'SessionEnd', { reason: 'prompt_input_exit' }));
    assert.equal(end.code, 0, end.stderr);
    const rows = await cliJson(dir, sessionList);
    const row = rows.find((r: any) => r.id === sessionId);
    assert.equal(row.status, 'closed');
    assert.equal(row.files, 2);
    assert.equal(row.commits, 1);
    assert.deepEqual(await cliJson(dir, sessionList, { orphans: true }), []);
  });

  test('the next session starts with the startup text and the handoff', async () => {
    const start = await hookHere(dir, 'session-start', hookPayload(dir, 'cc-2', 'SessionStart', { source: 'startup' }));
    const ctx = JSON.parse(start.stdout).hookSpecificOutput.additionalContext as string;
    const blocks = ctx.split('\n## ').map((b) => b.split('\n')[0]);
    assert.deepEqual(blocks.slice(1, 3), ['Say this to the user first', 'Latest handoff']);
    assert.match(ctx, /PUT retries still need a test/);
    assert.match(ctx, new RegExp(`Session ${sessionId} \\(agent,`));
    const cli = await cliText(dir, context);
    assert.ok(cli.indexOf('## Latest handoff') < cli.indexOf('## Safety rules'), 'the handoff comes before the rules');
    // the closed session is not an orphan: restarting the server recovers nothing
    const { stderr, stop } = await connect(dir);
    await stop();
    assert.doesNotMatch(stderr(), /recovered session/);
    await hook(dir, 'session-end', hookPayload(dir, 'cc-2', 'SessionEnd', { reason: 'other' }));
  });

  test("recovering a session the agent closed is refused: its handoff is the agent's", async () => {
    const r = await rejectsWith(cliJson(dir, sessionRecover, { id: sessionId, force: true }), 'WRONG_STATE', /closed by the agent/);
    assert.equal(exitCodeOf(r), 1);
  });
});

/**
 * A stand-in harness: a process that runs the hooks itself (so it owns the session) and then idles
 * until killed. It answers each hook with the built hook's entry in its own process, as the
 * launcher does (dist/cli-loader.cjs loadHook, runHook, dist/hook-store-work.js), itself the owner
 * as it is the parent of the hook processes it would start: one process per harness, not one per call.
 */
/** Stand-in harnesses still running: killed when the file ends, so a test that failed before its own kill does not keep the file alive. */
const harnesses = new Set<ChildProcess>();
after(() => {
  for (const child of harnesses) child.kill('SIGKILL');
});

function fakeHarness(dir: string, sessionId: string, edits: string[]): Promise<ChildProcess> {
  const dist = dirname(CLI);
  const script = `
    const fs = require('node:fs');
    const path = require('node:path');
    const { pathToFileURL } = require('node:url');
    const dist = ${JSON.stringify(dist)};
    const dir = ${JSON.stringify(dir)};
    const hook = require(path.join(dist, 'cli-loader.cjs')).loadHook(dist, process.env);
    const run = async (event, extra) => {
      const io = hook.processHookIO({
        client: 'claude-code',
        stdin: JSON.stringify({ session_id: ${JSON.stringify(sessionId)}, transcript_path: path.join(dir, '.transcripts', ${JSON.stringify(sessionId)} + '.jsonl'), cwd: dir, hook_event_name: event, ...extra }),
        stdout: () => {},
        stderr: (t) => process.stderr.write(t),
        env: process.env,
        cwd: dir,
        loadStoreWork: () => import(pathToFileURL(path.join(dist, 'hook-store-work.js')).href),
        installDir: dist,
      });
      const code = await hook.runHook(event, { ...io, ownerPid: () => process.pid });
      if (code !== 0) throw new Error('axme hook ' + event + ' exited ' + code);
    };
    (async () => {
      await run('session-start', { source: 'startup' });
      for (const f of ${JSON.stringify(edits)}) {
        fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
        fs.writeFileSync(path.join(dir, f), 'edited\\n');
        await run('post-tool-use', { tool_name: 'Write', tool_input: { file_path: path.join(dir, f) } });
      }
      process.stdout.write('ready\\n');
      setInterval(() => {}, 1000);
    })().catch((err) => { console.error(err); process.exit(1); });
  `;
  const child = spawn(process.execPath, ['-e', script], { cwd: dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
  harnesses.add(child);
  child.once('exit', () => harnesses.delete(child));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`fake harness exited ${code}`)));
  });
}

async function kill(child: ChildProcess): Promise<void> {
  // the rejection wired up while starting is for an early exit, not this one
  child.removeAllListeners('exit');
  harnesses.delete(child);
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

describe('orphans: a session whose harness died without a close', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    ignoreTranscripts(dir);
    await initCore(dir, { gitHooks: true, scan: 'if-new' });
  });
  after(() => cleanup());

  test('a killed session is listed as an orphan and recovered into a handoff with source recovered', async () => {
    writeTranscript(dir, 'dead-1', [
      { type: 'user', message: { role: 'user', content: 'Rename the config loader' } },
      {
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Renaming it now.' },
            { type: 'tool_use', id: 't1', name: 'Edit', input: {} },
          ],
        },
      },
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } },
      { type: 'user', message: { role: 'user', content: 'Also update the docs, token=ghp_abcdefghijklmnopqrstuvwxyz0123456789' } },
    ]);
    const harness = await fakeHarness(dir, 'dead-1', ['lib/config.ts', 'docs/config.md']);
    const live = await cliJson(dir, sessionList);
    assert.equal(live.length, 1);
    assert.equal(live[0].status, 'active', 'a running session is not an orphan');
    const refused = await rejectsWith(cliText(dir, sessionRecover, { id: live[0].id }), 'WRONG_STATE', /still running/);
    assert.equal(exitCodeOf(refused), 1);

    await kill(harness);
    const orphans = await cliJson(dir, sessionList, { orphans: true });
    assert.equal(orphans.length, 1);
    const id = orphans[0].id;
    assert.equal(orphans[0].files, 2);

    const doc = await doctorJson(dir);
    assert.match(
      doc.checks.find((c: { name: string }) => c.name === 'sessions').detail,
      /1 on record: 0 active, 0 closed, 0 recovered, 1 ended without a close/,
    );

    const before = memoryLog(dir).length;
    const r = await cliJson(dir, sessionRecover, { id: id });
    assert.equal(r.outcome, 'recovered');
    assert.equal(memoryLog(dir).length, before + 1);
    const body = git(dir, ['log', '-1', '--format=%B', 'refs/memory/main']);
    assert.match(body, /Axme-Actor: auditor/);
    assert.match(body, new RegExp(`Axme-Session: ${id}`));
    const handoff = git(dir, ['show', `refs/memory/main:handoffs/${id}.md`]);
    assert.match(handoff, /source: recovered/);
    assert.match(handoff, /lib\/config\.ts/);
    assert.match(handoff, /Rename the config loader/);
    assert.match(handoff, /Also update the docs/);
    assert.doesNotMatch(handoff, /ghp_abcdef/, 'a credential in the transcript is redacted');
    assert.match(handoff, /Uncommitted changes in: .*docs\/config\.md/);
    const ctx = await cliText(dir, context);
    assert.match(ctx, /ended without a handoff/);

    // once recovered, it is no orphan; recovering again changes nothing
    assert.deepEqual(await cliJson(dir, sessionList, { orphans: true }), []);
    const again = await cliJson(dir, sessionRecover, { id: id });
    assert.equal(again.outcome, 'already');
    assert.equal(memoryLog(dir).length, before + 1);
  });

  test('the MCP server recovers orphans when it starts; an empty orphan is set aside without a commit', async () => {
    const busy = await fakeHarness(dir, 'dead-2', ['lib/cache.ts']);
    const idle = await fakeHarness(dir, 'dead-3', []);
    await kill(busy);
    await kill(idle);
    const ids = (await cliJson(dir, sessionList, { orphans: true })).map((r: any) => r.id);
    assert.equal(ids.length, 2);
    const before = memoryLog(dir).length;
    const { client, stderr } = await connect(dir);
    try {
      await until('both orphans handled', async () => (await cliJson(dir, sessionList, { orphans: true })).length === 0);
    } finally {
      await client.close();
    }
    const statuses = Object.fromEntries((await cliJson(dir, sessionList)).map((r: any) => [r.id, r.status]));
    assert.equal(ids.filter((i: string) => statuses[i] === 'recovered').length, 1, JSON.stringify(statuses));
    assert.equal(ids.filter((i: string) => statuses[i] === 'discarded').length, 1, JSON.stringify(statuses));
    assert.equal(memoryLog(dir).length, before + 1, 'the empty orphan made no commit');
    assert.match(stderr(), /recovered session/);
    // axme doctor counts every session it says are on record, the discarded one too
    const doctor = JSON.parse((await axme(dir, ['doctor', '--json'])).stdout) as { checks: Array<{ name: string; detail: string }> };
    const line = doctor.checks.find((c) => c.name === 'sessions')!.detail;
    const total = Number(/^(\d+) on record/.exec(line)![1]);
    const parts = [...line.matchAll(/(\d+) (?:active|closed|recovered|discarded|ended without a close)/g)].reduce((n, m) => n + Number(m[1]), 0);
    assert.equal(parts, total, line);
    assert.match(line, /1 discarded/, line);
  });
});

describe('the first hook call and work after a close', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    ignoreTranscripts(dir);
    await initCore(dir);
  });
  after(() => cleanup());
  const ids = async () => (await cliJson(dir, sessionList)).map((r: { id: string }) => r.id) as string[];

  test('a pre-tool-use call opens the session when SessionStart never came; session-end of an unknown session opens none', async () => {
    const before = await ids();
    const end = await hookHere(dir, 'session-end', hookPayload(dir, 'never-started', 'SessionEnd', { reason: 'other' }));
    assert.equal(end.code, 0, end.stderr);
    assert.deepEqual(await ids(), before, 'session-end created no session');

    const pre = await hookHere(dir, 'pre-tool-use', hookPayload(dir, 'pre-first', 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }));
    assert.equal(pre.code, 0, pre.stderr);
    assert.equal(pre.stdout, '');
    const opened = (await ids()).filter((i) => !before.includes(i));
    assert.equal(opened.length, 1, 'the first tool call opened a session');
    const denied = await hookHere(dir, 'pre-tool-use', hookPayload(dir, 'pre-first', 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }));
    assert.equal(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision, 'deny');
    assert.equal((await ids()).length, before.length + 1, 'later calls reuse it');
    const ended = await hookHere(dir, 'session-end', hookPayload(dir, 'pre-first', 'SessionEnd', { reason: 'other' }));
    assert.equal(ended.code, 0);
    const row = (await cliJson(dir, sessionShow, { id: opened[0]! })) as { status: string };
    assert.equal(row.status, 'orphan', 'the known session was ended');
  });

  test('hooks renewing an ended session at the same moment agree on one new session', async () => {
    const sid = (out: string) => /\(axme session ([\w-]+)\)/.exec(JSON.parse(out).hookSpecificOutput.additionalContext)![1]!;
    const first = await hookHere(dir, 'session-start', hookPayload(dir, 'renewed', 'SessionStart', { source: 'startup' }));
    const old = sid(first.stdout);
    await hookHere(dir, 'session-end', hookPayload(dir, 'renewed', 'SessionEnd', { reason: 'clear' }));
    // Claude Code resumes the session: several hooks fire at once
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => hook(dir, 'session-start', hookPayload(dir, 'renewed', 'SessionStart', { source: 'resume' }))),
    );
    const ids = new Set(runs.map((r) => sid(r.stdout)));
    assert.equal(ids.size, 1, `one new session, not ${[...ids].join(', ')}`);
    assert.notEqual([...ids][0], old);
    const sessions = (await cliJson(dir, sessionList)).map((r: { id: string }) => r.id);
    assert.ok(sessions.includes(old) && sessions.includes([...ids][0]));
    assert.equal(sessions.filter((i: string) => ![old, ...ids].includes(i)).length, sessions.length - 2, 'no stray sessions from the losers');
  });

  test("work after the agent's close reaches its summary when the session dies; the agent's handoff stays", async () => {
    const harness = await fakeHarness(dir, 'closed-then-more', ['lib/before.ts']);
    const id = (await cliJson(dir, sessionList)).find((r: { status: string }) => r.status === 'active').id as string;
    const close = {
      stopped_at: 'The retry is done',
      summary: 'Added the retry.',
      worklog_entry: 'Added a retry to the client.',
      startup_text: 'The retry landed.',
    };
    await cliJson(dir, sessionFinalize, close, { session: id, actor: 'agent', env: { CLAUDECODE: '1' } });
    assert.equal((await cliJson(dir, sessionShow, { id: id })).status, 'closed');

    // the agent keeps working after its close: an edit and a commit
    writeFileSync(join(dir, 'after.ts'), 'late\n');
    const post = await hookHere(
      dir,
      'post-tool-use',
      hookPayload(dir, 'closed-then-more', 'PostToolUse', { tool_name: 'Write', tool_input: { file_path: join(dir, 'after.ts') } }),
    );
    assert.equal(post.code, 0, post.stderr);
    assert.equal((await cliJson(dir, sessionShow, { id: id })).status, 'active', 'a closed session working again is active, not done');
    await kill(harness);
    const orphans = (await cliJson(dir, sessionList, { orphans: true })).map((r: { id: string }) => r.id);
    assert.ok(orphans.includes(id), 'its unrecorded work makes it an orphan');

    const r = await cliJson(dir, sessionRecover, { id: id });
    assert.equal(r.outcome, 'recovered');
    assert.equal(r.handoff, null, 'the agent-written handoff is not replaced');
    const slugPath = git(dir, ['ls-tree', '-r', '--name-only', 'refs/memory/main', 'sessions/'])
      .trim()
      .split('\n')
      .find((p) => p.endsWith(`${id}.md`))!;
    const summary = git(dir, ['show', `refs/memory/main:${slugPath}`]);
    assert.match(summary, /actor: agent/);
    assert.match(summary, /- lib\/before\.ts/);
    assert.match(summary, /- after\.ts/);
    assert.match(summary, /Added a retry to the client\.\n\nAfter the close the session went on/);
    const handoff = git(dir, ['show', `refs/memory/main:handoffs/${id}.md`]);
    assert.match(handoff, /source: agent/);
    assert.match(handoff, /The retry is done/);
    assert.equal(git(dir, ['log', '-1', '--format=%s', 'refs/memory/main']).trim(), `session: recover ${id} - 1 file, 0 commits after its close`);
    assert.equal((await cliJson(dir, sessionRecover, { id: id })).outcome, 'already');
  });
});

describe('the next session-start hook recovers what the last one left', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = tempRepo({ commit: true }));
    ignoreTranscripts(dir);
    await initCore(dir, { scan: 'if-new' });
  });
  after(() => cleanup());

  test("a killed session's recovered handoff is in the new session's context", async () => {
    writeTranscript(dir, 'gone-1', [{ type: 'user', message: { role: 'user', content: 'Split the parser module' } }]);
    const harness = await fakeHarness(dir, 'gone-1', ['src/parser.ts']);
    await kill(harness);
    const start = await hookHere(dir, 'session-start', hookPayload(dir, 'next-1', 'SessionStart', { source: 'startup' }));
    assert.equal(start.code, 0, start.stderr);
    const ctx = JSON.parse(start.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(ctx, /## Say this to the user first\nThe previous session \([\w-]+, \d{4}-\d{2}-\d{2}\) ended without a handoff/);
    assert.match(ctx, /## Latest handoff\nSession [\w-]+ \(recovered,/);
    assert.match(ctx, /Split the parser module/);
    assert.match(ctx, /src\/parser\.ts/);
    const statuses = (await cliJson(dir, sessionList)).map((r: any) => r.status).sort();
    assert.deepEqual(statuses, ['active', 'recovered']);
  });

  test('an orphan another process is recovering: the start waits for it, and the handoff is in the context', async () => {
    const { claimSession, sessionsDir } = await import('../../src/session/sessions.ts');
    writeTranscript(dir, 'gone-2', [{ type: 'user', message: { role: 'user', content: 'Rename the lexer tables' } }]);
    await kill(await fakeHarness(dir, 'gone-2', ['src/lexer.ts']));
    const [orphan] = await cliJson(dir, sessionList, { orphans: true });
    // this process (alive) holds the orphan's claim, as an MCP server recovering it would
    const release = claimSession(join(dir, '.git'), orphan.id, new Date());
    assert.ok(release, 'the claim is free before the start');
    const start = hook(dir, 'session-start', hookPayload(dir, 'next-2', 'SessionStart', { source: 'startup' }));
    // the hook has registered its own session (it sweeps right after); the claim is let go without a recovery
    await until('the new session to be registered', () =>
      readdirSync(sessionsDir(join(dir, '.git'))).some(
        (n) => n.endsWith('.json') && readFileSync(join(sessionsDir(join(dir, '.git')), n), 'utf8').includes('next-2'),
      ),
    );
    await new Promise((r) => setTimeout(r, 1_500));
    release();
    const done = await start;
    assert.equal(done.code, 0, done.stderr);
    const ctx = JSON.parse(done.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(ctx, /Rename the lexer tables/, 'the orphan the start waited for is recovered into this context');
    assert.doesNotMatch(ctx, /still recovering/);
  });
});

describe('a client without session hooks: the server opens its own session', () => {
  let dir: string;
  let cleanup: () => void;
  before(async () => {
    ({ dir, cleanup } = await makeStore({ init: { scan: 'if-new' } }));
  });
  after(() => cleanup());

  test('knowledge saved without a close is recovered when the server stops', async () => {
    const { client, call } = await connect(dir);
    const saved = await call('axme_save_decision', { title: 'Use pnpm', decision: 'pnpm for installs', reasoning: 'workspaces' });
    assert.ok(!saved.isError, text(saved));
    const session = /Axme-Session: (\S+)/.exec(git(dir, ['log', '-1', '--format=%B', 'refs/memory/main']))![1]!;
    await client.close();
    const list = await until('the stop-time recovery', () => {
      const log = memoryLog(dir);
      return log[0]!.includes(`session: recover ${session}`) ? log : null;
    });
    assert.ok(list);
    const handoff = git(dir, ['show', `refs/memory/main:handoffs/${session}.md`]);
    assert.match(handoff, /source: recovered/);
    assert.match(handoff, /Use pnpm/, 'the knowledge the session saved is listed');
    const row = (await cliJson(dir, sessionList)).find((r: any) => r.id === session);
    assert.equal(row.harness, 'mcp');
    assert.equal(row.status, 'recovered');
  });

  test('a session closed by the agent is not recovered', async () => {
    const { call, stop } = await connect(dir);
    const fin = await call('axme_finalize_close', { summary: 'Looked around.', startup_text: 'Nothing pending.' });
    assert.ok(!fin.isError, text(fin));
    const session = fin.structuredContent.session as string;
    const count = memoryLog(dir).length;
    await stop();
    assert.equal(memoryLog(dir).length, count, 'no recovery commit after the server stopped');
    const row = (await cliJson(dir, sessionList)).find((r: any) => r.id === session);
    assert.equal(row.status, 'closed');
  });
});

describe('session state: table-driven', () => {
  test('session status from its events and its owner', async () => {
    const { sessionStatus } = await import('../../src/session/sessions.ts');
    const meta = { id: 's', harness: 'claude-code', harnessSessionId: 'h', startedAt: '2026-11-01T00:00:00.000Z', cwd: '/', transcriptPath: null, ownerPid: 1 };
    const base: SessionState = {
      meta,
      files: [],
      commits: [],
      ended: null,
      closed: null,
      recovered: null,
      discarded: null,
      pending: { files: [], commits: [] },
      lastActivity: meta.startedAt,
    };
    const ev = { t: '2026-11-01T01:00:00.000Z' };
    const cases: Array<[string, Partial<SessionState>, boolean, string]> = [
      ['running, owner alive', {}, true, 'active'],
      ['owner gone, never ended', {}, false, 'orphan'],
      ['ended (SessionEnd) without a close', { ended: { ...ev, reason: 'other' } }, true, 'orphan'],
      ['closed by the agent, still running', { closed: { ...ev, commit: 'c' } }, true, 'closed'],
      ['closed, then ended', { closed: { ...ev, commit: 'c' }, ended: { ...ev, reason: 'other' } }, false, 'closed'],
      ['recovered', { recovered: { ...ev, commit: 'c' }, ended: { ...ev, reason: 'other' } }, false, 'recovered'],
      ['discarded', { discarded: { ...ev, reason: 'nothing' } }, false, 'discarded'],
      ['closed, went on working, still running', { closed: { ...ev, commit: 'c' }, pending: { files: ['a.ts'], commits: [] } }, true, 'active'],
      [
        'closed, went on working, then ended',
        { closed: { ...ev, commit: 'c' }, pending: { files: [], commits: ['abc'] }, ended: { ...ev, reason: 'other' } },
        true,
        'orphan',
      ],
      ['closed, went on working, owner gone', { closed: { ...ev, commit: 'c' }, pending: { files: ['a.ts'], commits: [] } }, false, 'orphan'],
      ['recovered, then more work, owner gone', { recovered: { ...ev, commit: 'c' }, pending: { files: ['a.ts'], commits: [] } }, false, 'orphan'],
    ];
    for (const [name, over, alive, want] of cases)
      assert.equal(
        sessionStatus({ ...base, ...over }, () => alive),
        want,
        name,
      );
  });

  test('a claim is exclusive until released or stale; owners are told apart by start time', async () => {
    const { claimSession, sessionsDir } = await import('../../src/session/sessions.ts');
    const { processAlive, processStart } = await import('../../src/session/owner.ts');
    const { dir, cleanup } = tempRepo();
    try {
      mkdirSync(sessionsDir(join(dir, '.git')), { recursive: true });
      const now = new Date();
      const release = claimSession(join(dir, '.git'), 's1', now);
      assert.ok(release);
      assert.equal(claimSession(join(dir, '.git'), 's1', now), null, 'a second claim waits');
      const takeover = claimSession(join(dir, '.git'), 's1', new Date(now.getTime() + 11 * 60_000));
      assert.ok(takeover, 'a stale claim (crashed claimer) is taken over');
      release!();
      assert.equal(claimSession(join(dir, '.git'), 's1', now), null, "the first holder's late release leaves the new holder's claim in place");
      takeover!();
      const again = claimSession(join(dir, '.git'), 's1', now);
      assert.ok(again, 'released by its holder, the claim is free');
      again!();
      // a claim whose holder died is taken over at once, however young
      const dead = spawn(process.execPath, ['-e', '0']);
      await new Promise((r) => dead.once('exit', r));
      writeFileSync(join(sessionsDir(join(dir, '.git')), 's2.claim'), `${dead.pid} ${now.toISOString()}\n`);
      assert.ok(claimSession(join(dir, '.git'), 's2', now), 'the claim of a dead process is taken over');
      assert.equal(processAlive(process.pid, processStart(process.pid)), true);
      assert.equal(processAlive(process.pid, (processStart(process.pid) ?? 0) + 1), false, 'same pid, other start: a reused pid');
      const child = spawn(process.execPath, ['-e', '0']);
      const pid = child.pid!;
      await new Promise((r) => child.once('exit', r));
      assert.equal(processAlive(pid), false);
      assert.equal(processAlive(0), false);
    } finally {
      cleanup();
    }
  });

  test('finished sessions older than 30 days are forgotten; open and recent ones stay', async () => {
    const { pruneSessions, recordEvent, sessionForHarness, listSessions, sessionsDir } = await import('../../src/session/sessions.ts');
    const { dir, cleanup } = tempRepo();
    try {
      const common = join(dir, '.git');
      const owner = () => ({ pid: process.pid, start: null });
      const mk = (h: string, at: string, done: 'closed' | 'discarded' | null) => {
        const m = sessionForHarness(common, 'claude-code', h, { cwd: dir, transcriptPath: null, now: new Date(at), owner });
        if (done === 'closed') recordEvent(common, m.id, { t: at, type: 'closed', commit: null });
        if (done === 'discarded') recordEvent(common, m.id, { t: at, type: 'discarded', reason: 'x' });
        return m.id;
      };
      const oldClosed = mk('a', '2026-09-01T00:00:00.000Z', 'closed');
      const oldDiscarded = mk('b', '2026-09-02T00:00:00.000Z', 'discarded');
      const oldOpen = mk('c', '2026-09-03T00:00:00.000Z', null);
      const recent = mk('d', '2026-11-10T00:00:00.000Z', 'closed');
      const pruned = pruneSessions(common, new Date('2026-11-20T00:00:00.000Z'));
      assert.deepEqual(pruned.sort(), [oldClosed, oldDiscarded].sort());
      assert.deepEqual(
        listSessions(common)
          .map((s) => s.meta.id)
          .sort(),
        [oldOpen, recent].sort(),
      );
      assert.ok(!existsSync(join(sessionsDir(common), 'harness', 'claude-code-a')), 'the harness mapping goes too');
      // the harness session id can start afresh
      assert.notEqual(mk('a', '2026-11-20T00:00:00.000Z', null), oldClosed);
    } finally {
      cleanup();
    }
  });

  test('foreign, damaged and hostile files in the sessions folder are skipped, never followed', async () => {
    const { listSessions, readSession, recordEvent, sessionForHarness, sessionsDir } = await import('../../src/session/sessions.ts');
    const { dir, cleanup } = tempRepo();
    try {
      const common = join(dir, '.git');
      const m = sessionForHarness(common, 'claude-code', 'ok', {
        cwd: dir,
        transcriptPath: null,
        now: new Date(),
        owner: () => ({ pid: process.pid, start: null }),
      });
      const sd = sessionsDir(common);
      writeFileSync(join(sd, 'null.json'), 'null');
      writeFileSync(join(sd, 'half.json'), '{"id": "half", "harn');
      writeFileSync(join(sd, 'other.json'), JSON.stringify({ id: 'someone-else', harness: 'x', harnessSessionId: 'y', startedAt: 't', cwd: '/', ownerPid: 1 }));
      writeFileSync(join(sd, 'evil.json'), JSON.stringify({ id: '../../evil', harness: 'x', harnessSessionId: 'y', startedAt: 't', cwd: '/', ownerPid: 1 }));
      writeFileSync(
        join(sd, `${m.id}.jsonl`),
        `${JSON.stringify({ t: 'x', type: 'file', path: 42, tool: 'Edit' })}\n{"t":"x","type":"file","path":"ok.ts","tool":"Edit"}\n{broken\n`,
      );
      assert.deepEqual(
        listSessions(common).map((s) => s.meta.id),
        [m.id],
      );
      assert.deepEqual(readSession(common, m.id)!.files, ['ok.ts'], 'a line of the wrong shape is skipped');
      assert.equal(readSession(common, '../../../package'), null);
      assert.throws(() => recordEvent(common, '../escape', { t: 'x', type: 'end', reason: 'x' }), /unusable session id/);
      const shown = await rejectsWith(cliText(dir, sessionShow, { id: '../../x' }), 'NOT_FOUND', /no session \.\.\/\.\.\/x on this machine/);
      assert.equal(exitCodeOf(shown), 1);
    } finally {
      cleanup();
    }
  });

  test('a harness session resumed in a new process gets a new axme session; session-end never opens one', async () => {
    const { recordEvent, sessionForHarness } = await import('../../src/session/sessions.ts');
    const { dir, cleanup } = tempRepo();
    try {
      const common = join(dir, '.git');
      const info = (pid: number, renew = true) => ({ cwd: dir, transcriptPath: null, now: new Date(), owner: () => ({ pid, start: null }), renew });
      const first = sessionForHarness(common, 'claude-code', 'resumed', info(999_999_999));
      assert.equal(sessionForHarness(common, 'claude-code', 'resumed', info(process.pid, false)).id, first.id, 'without renew: the mapped one');
      const second = sessionForHarness(common, 'claude-code', 'resumed', info(process.pid));
      assert.notEqual(second.id, first.id, 'its owner is gone: a new session');
      assert.equal(sessionForHarness(common, 'claude-code', 'resumed', info(process.pid)).id, second.id, 'and that one is reused while it runs');
      recordEvent(common, second.id, { t: new Date().toISOString(), type: 'end', reason: 'clear' });
      assert.notEqual(sessionForHarness(common, 'claude-code', 'resumed', info(process.pid)).id, second.id, 'an ended one is not reused');
    } finally {
      cleanup();
    }
  });

  test("renewing is compare-and-swap: a hook that finds another hook's claim on the old session uses that hook's session", async () => {
    const { recordEvent, sessionForHarness, sessionsDir } = await import('../../src/session/sessions.ts');
    const { dir, cleanup } = tempRepo();
    try {
      const common = join(dir, '.git');
      const info = (pid: number) => ({ cwd: dir, transcriptPath: null, now: new Date(), owner: () => ({ pid, start: null }), renew: true });
      const old = sessionForHarness(common, 'claude-code', 'raced', info(process.pid));
      recordEvent(common, old.id, { t: new Date().toISOString(), type: 'end', reason: 'clear' });
      // another hook has just claimed the renewal of `old` (and made its session) but not yet moved the mapping
      const theirs = sessionForHarness(common, 'claude-code', 'other-harness-session', info(process.pid));
      writeFileSync(join(sessionsDir(common), 'harness', `claude-code-raced.after-${old.id}`), theirs.id);
      const mine = sessionForHarness(common, 'claude-code', 'raced', info(process.pid));
      assert.equal(mine.id, theirs.id, "the loser takes the winner's session");
      assert.equal(readdirSync(sessionsDir(common)).filter((f) => f.endsWith('.json')).length, 2, 'and leaves no session of its own behind');
    } finally {
      cleanup();
    }
  });

  test('credentials in gathered text are redacted, placeholders are not', async () => {
    const { redactSecrets } = await import('../../src/model/secrets.ts');
    const cases: Array<[string, string]> = [
      ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789 here', 'token [redacted: a GitHub token] here'],
      ['password=hunter2hunter2', '[redacted: a password or secret assigned a literal value]'],
      ['password=$DB_PASSWORD stays', 'password=$DB_PASSWORD stays'],
      ['nothing to see', 'nothing to see'],
    ];
    for (const [input, want] of cases) assert.equal(redactSecrets(input), want, input);
  });
});

// the stores of the tests below: copies of one initialised repository
const stores = storeCopies();

describe('the recovered handoff of a Gemini CLI or Codex session says what it was asked', () => {
  // the samples captured from the real clients; the harness names the format, or the first line does
  const sample = (name: string) => join(import.meta.dirname, '../fixtures/transcripts', name);
  const cases: Array<[string, string, string, string]> = [
    ['gemini', sample('gemini-0.61.0.jsonl'), 'What does the README say?', 'The README says: demo.'],
    ['codex', sample('codex-0.169.0.jsonl'), 'Record the storage decision and write the notes.', 'Saved D-001 and wrote the notes.'],
    ['mcp', sample('codex-0.169.0.jsonl'), 'Record the storage decision and write the notes.', 'Saved D-001 and wrote the notes.'],
  ];
  for (const [harness, transcript, asked, said] of cases) {
    test(`a ${harness} session`, async () => {
      const { openTestKb } = await import('../helpers.ts');
      const { recoverSession } = await import('../../src/knowledge/close/recover-session.ts');
      const { sessionForHarness } = await import('../../src/session/sessions.ts');
      const { dir, cleanup } = await stores.copy();
      const kb = await openTestKb(dir);
      try {
        // its owner is not running: an orphan that recorded no file, only its transcript
        const s = sessionForHarness(join(dir, '.git'), harness, `${harness}-1`, {
          cwd: dir,
          transcriptPath: transcript,
          now: new Date('2026-11-01T09:00:00.000Z'),
          owner: () => ({ pid: 999_999_999, start: null }),
        });
        const r = await recoverSession(kb, s.id);
        assert.equal(r.outcome, 'recovered', r.text);
        const handoff = git(dir, ['show', `refs/memory/main:${r.handoff}`]);
        assert.ok(handoff.includes(`First request: "${asked}"`), handoff);
        assert.ok(handoff.includes(`the last request was "${asked}"`), handoff);
        assert.doesNotMatch(handoff, /AGENTS\.md|hook_context|session_context|environment_context/, 'what the client injected is not what the user asked');
        assert.ok(git(dir, ['show', `refs/memory/main:${r.summary}`]).includes(`The agent's last words: "${said}"`));
      } finally {
        await kb.repo.close();
        cleanup();
      }
    });
  }
});

describe('handoffs in the tree', () => {
  test('the newest 5 stay; an old session recovered late gets its summary, not a handoff older than the 5', async () => {
    const { openTestKb } = await import('../helpers.ts');
    const { finalizeClose } = await import('../../src/knowledge/close/finalize-close.ts');
    const { recoverSession } = await import('../../src/knowledge/close/recover-session.ts');
    const { recordEvent, sessionForHarness } = await import('../../src/session/sessions.ts');
    const { dir, cleanup } = await stores.copy();
    let clock = Date.parse('2026-11-01T10:00:00.000Z');
    const kb = await openTestKb(dir, { now: () => new Date(clock) });
    try {
      // an old session, dead before the others: its owner pid is not running
      const old = sessionForHarness(join(dir, '.git'), 'claude-code', 'old', {
        cwd: dir,
        transcriptPath: null,
        now: new Date(clock),
        owner: () => ({ pid: 999_999_999, start: null }),
      });
      recordEvent(join(dir, '.git'), old.id, { t: new Date(clock + 60_000).toISOString(), type: 'file', path: 'README.md', tool: 'Write' });
      const closes = ['s1', 's2', 's3', 's4', 's5', 's6'];
      for (const s of closes) {
        clock += 3_600_000;
        const r = await finalizeClose({ ...kb, session: s }, { summary: `work of ${s}` });
        if (s === 's6') assert.deepEqual(r.pruned, ['handoffs/s1.md']);
      }
      const tree = () => git(dir, ['ls-tree', '--name-only', 'refs/memory/main', 'handoffs/']).trim().split('\n').sort();
      assert.deepEqual(tree(), ['handoffs/s2.md', 'handoffs/s3.md', 'handoffs/s4.md', 'handoffs/s5.md', 'handoffs/s6.md']);
      assert.match(git(dir, ['log', '--format=%s', 'refs/memory/main', '--', 'handoffs/s1.md']), /session: close s1/, 's1 stays in history');

      clock += 3_600_000;
      const r = await recoverSession(kb, old.id);
      assert.equal(r.outcome, 'recovered');
      assert.equal(r.handoff, null, 'older than the 5 kept: no handoff');
      assert.match(r.text, /handoff: older than the 5 handoffs kept in the tree/);
      assert.deepEqual(tree(), ['handoffs/s2.md', 'handoffs/s3.md', 'handoffs/s4.md', 'handoffs/s5.md', 'handoffs/s6.md'], 'the newest 5 stay');
      assert.ok(r.summary, 'its summary is written');
      assert.match(git(dir, ['show', `refs/memory/main:${r.summary}`]), /README\.md/);
      // the latest handoff is still the newest session's, not the recovery of an older one
      const { assembleContext } = await import('../../src/knowledge/views/context.ts');
      assert.match((await assembleContext(kb)).text, /## Latest handoff\nSession s6 \(agent,/);
    } finally {
      await kb.repo.close();
      cleanup();
    }
  });
});
