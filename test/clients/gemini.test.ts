/**
 * The real Gemini CLI (0.61.0) against a scripted model: sessions of `gemini -p … --yolo` run in a
 * project where axme is installed as a user would (`axme init --agent gemini`), and the tests check
 * outcomes — what the model was handed (the session-start context, each tool's result, each
 * denial's reason), what changed on disk, in the remote and in refs/memory/main, what the session
 * record and the next session hold.
 *
 * One world, two sessions: the first works (MCP tools, the guard, commits) and closes with a
 * handoff; the second starts from it. Each test asserts one outcome of them.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axmeOk, git } from '../helpers.ts';
import { explain, type GeminiRun, geminiTranscripts, readJsonl, runGemini, stableTranscript } from './gemini.ts';
import { contentsText, geminiWire, resultOfStep } from './gemini-wire.ts';
import { type ScriptedModel, type SeenRequest, type Step, startModel } from './model-server.ts';
import { type ClientWorld, cleanupWorld, clientWorld } from './project.ts';

const TEST = { timeout: 60_000 };
const SSH_CANARY = 'CANARY-ssh-4f1d9a';
const PEM_CANARY = 'CANARY-pem-93be07';
const STARTUP = 'Valkey is the cache now (D-001); next, wire it into the session store.';

/** Session 1, step by step: what the model does (the index is the step's number in `turns`). */
const STEP = {
  context: 0,
  saveDecision: 1,
  search: 2,
  push: 3,
  catSsh: 4,
  readPem: 5,
  writeSettings: 6,
  removeRule: 7,
  scriptCommit: 8,
  markedCommit: 9,
  beginClose: 10,
  finalize: 11,
} as const;

const SESSION_1: Step[] = [
  { tool: 'axme_context', args: {} },
  {
    tool: 'axme_save_decision',
    args: {
      title: 'Use Valkey for caching',
      decision: 'Cache sessions and rate limits in Valkey.',
      reasoning: 'Redis changed its licence; Valkey is a drop-in fork.',
    },
  },
  { tool: 'axme_search_kb', args: { query: 'Valkey' } },
  { tool: 'run_shell_command', args: { command: 'git push origin main' } },
  { tool: 'run_shell_command', args: { command: 'cat ~/.ssh/id_rsa' } },
  { tool: 'read_file', args: { file_path: 'certs/server.pem' } },
  { tool: 'write_file', args: { file_path: '.gemini/settings.json', content: '{"hooks":{}}\n' } },
  { tool: 'axme_update_safety', args: { rule_type: 'fs_deny', value: '*.pem', action: 'remove' } },
  { tool: 'run_shell_command', args: { command: 'sh scripts/commit.sh' } },
  { tool: 'run_shell_command', args: { command: 'git add b.txt && git commit -q -m "Add b #!axme pr=none repo=acme/demo"' } },
  { tool: 'axme_begin_close', args: {} },
  {
    tool: 'axme_finalize_close',
    args: {
      stopped_at: 'after choosing the cache',
      summary: 'Chose Valkey for caching; committed b.txt.',
      next_steps: 'Wire Valkey into the session store.',
      worklog_entry: 'Chose Valkey for caching (D-001) and committed b.txt.',
      startup_text: STARTUP,
    },
  },
  { text: 'Session closed.' },
];

/** Session 2: a tool call that runs, one that is denied, and an answer (its transcript is the auditor's fixture). */
const SESSION_2: Step[] = [
  { tool: 'read_file', args: { file_path: 'README.md' } },
  { tool: 'run_shell_command', args: { command: 'git push --force origin main' } },
  { text: 'The README says: demo.' },
];

/** `axme …` in the project, as the user (the world's HOME); `--json` output parsed. */
const cli = (w: ClientWorld, args: string[]) => axmeOk(w.project, args, { env: { HOME: w.home } });

/** The `<hook_context>` blocks of a request's texts. */
function hookContext(req: SeenRequest): string {
  return contentsText(req)
    .flatMap((t) => [...t.matchAll(/<hook_context>([\s\S]*?)<\/hook_context>/g)].map((m) => m[1]!))
    .join('\n');
}

/** The kinds of lines of a transcript and the fields each has: the header, `$set` updates, messages by type, tool calls. */
function shape(lines: Record<string, unknown>[]): string[] {
  const kinds = new Set<string>();
  for (const l of lines) {
    const kind = typeof l.sessionId === 'string' ? 'header' : '$set' in l ? '$set' : `message:${String(l.type)}`;
    kinds.add(
      `${kind} ${Object.keys(l)
        .filter((k) => k !== 'toolCalls')
        .sort()
        .join(',')}`,
    );
    for (const c of Array.isArray(l.toolCalls) ? (l.toolCalls as Record<string, unknown>[]) : [])
      kinds.add(`toolCall:${String(c.status)} ${Object.keys(c).sort().join(',')}`);
  }
  return [...kinds].sort();
}

/** Gemini CLI's session id (the `init` event). */
const sessionIdOf = (run: GeminiRun) => String(run.events.find((e) => e.type === 'init')?.session_id ?? '');

describe('the real Gemini CLI 0.61.0', { timeout: 600_000 }, () => {
  let world: ClientWorld;
  let model: ScriptedModel;
  let run1: GeminiRun;
  let run2: GeminiRun;
  let turns1: SeenRequest[] = [];
  let turns2: SeenRequest[] = [];
  let requests1: SeenRequest[] = [];
  let settingsBefore = '';
  let safetyBefore: unknown;
  let sessions: any[] = [];
  let transcripts1: string[] = [];

  before(async () => {
    world = await clientWorld('gemini');
    mkdirSync(join(world.home, '.ssh'), { recursive: true });
    writeFileSync(join(world.home, '.ssh', 'id_rsa'), `-----BEGIN OPENSSH PRIVATE KEY-----\n${SSH_CANARY}\n`);
    mkdirSync(join(world.project, 'certs'), { recursive: true });
    writeFileSync(join(world.project, 'certs', 'server.pem'), `-----BEGIN CERTIFICATE-----\n${PEM_CANARY}\n`);
    mkdirSync(join(world.project, 'scripts'), { recursive: true });
    // a commit the guard cannot see: only the command `sh scripts/commit.sh` reaches the BeforeTool hook
    writeFileSync(join(world.project, 'scripts', 'commit.sh'), 'git add a.txt && git commit -q -m "Add a without the marker"\n');
    writeFileSync(join(world.project, 'a.txt'), 'a\n');
    writeFileSync(join(world.project, 'b.txt'), 'b\n');
    settingsBefore = readFileSync(join(world.project, '.gemini', 'settings.json'), 'utf8');
    safetyBefore = await cli(world, ['safety', 'show', '--json']);
    model = await startModel(geminiWire, SESSION_1);

    run1 = await runGemini(world, model, 'Choose the cache, try a few things, then close the session.');
    turns1 = [...model.turns];
    requests1 = [...model.requests];
    transcripts1 = geminiTranscripts(world.home);
    assert.equal(run1.code, 0, explain(run1));
    assert.equal(model.remaining(), 0, `the client stopped with ${model.remaining()} steps left\n${explain(run1)}`);

    model.script(SESSION_2);
    run2 = await runGemini(world, model, 'What does the README say?');
    turns2 = model.turns.slice(turns1.length);
    assert.equal(run2.code, 0, explain(run2));
    assert.equal(model.remaining(), 0, `the second session stopped with ${model.remaining()} steps left\n${explain(run2)}`);
    sessions = await cli(world, ['session', 'list', '--json']);

    // GEMINI_FIXTURE_OUT=<file>: write the second session's transcript as the auditor's fixture
    const out = process.env.GEMINI_FIXTURE_OUT;
    if (out) writeFileSync(out, stableTranscript(readFileSync(geminiTranscripts(world.home).at(-1)!, 'utf8'), world));
  });

  after(async () => {
    await model?.close();
    if (world) await cleanupWorld(world);
  });

  /** The axme session of a run (mapped from Gemini CLI's session id). */
  const axmeSession = (run: GeminiRun) => {
    const s = sessions.find((x) => x.harness === 'gemini' && x.harness_session === sessionIdOf(run));
    assert.ok(s, `no axme session for Gemini session ${sessionIdOf(run)}: ${JSON.stringify(sessions, null, 1)}`);
    return s;
  };

  test('the model starts with axme context: the SessionStart context in <hook_context> in the first user turn', TEST, () => {
    const ctx = hookContext(turns1[0]!);
    assert.match(ctx, /# Project knowledge \(axme, refs\/memory\/main @ [0-9a-f]{12}\)/);
    assert.match(ctx, /Protected branches: main, master/);
    assert.match(ctx, /\(axme session \d{8}-[0-9a-f]{8}\)/);
  });

  test('the context reaches the model unescaped (known bug: Gemini CLI HTML-escapes < and > in hook context)', TEST, () => {
    const ctx = hookContext(turns1[0]!);
    assert.match(ctx, /#!axme pr=/);
    assert.doesNotMatch(ctx, /&lt;|&gt;/, `the model reads the marker's format escaped:\n${ctx.split('\n').find((l) => l.includes('#!axme')) ?? ''}`);
  });

  test('MCP: axme_context, axme_save_decision and axme_search_kb answer the model with axme text', TEST, () => {
    const context = resultOfStep(turns1, STEP.context);
    assert.equal(context.name, 'mcp_axme_axme_context');
    assert.match(context.text, /# Project knowledge \(axme/);
    const saved = resultOfStep(turns1, STEP.saveDecision);
    assert.equal(saved.name, 'mcp_axme_axme_save_decision');
    assert.equal(saved.error, null, saved.text);
    assert.match(saved.text, /Decision saved: D-001 - Use Valkey for caching/);
    const found = resultOfStep(turns1, STEP.search);
    assert.equal(found.name, 'mcp_axme_axme_search_kb');
    assert.match(found.text, /D-001 Use Valkey for caching/);
  });

  test('MCP: the decision is in refs/memory/main, committed in the Gemini session', TEST, () => {
    const file = git(world.project, ['show', 'refs/memory/main:decisions/use-valkey-for-caching.md']);
    assert.match(file, /Cache sessions and rate limits in Valkey\./);
    const log = git(world.project, ['log', '--format=%B%x00', 'refs/memory/main']);
    const commit = log.split('\0').find((m) => /use-valkey-for-caching|Use Valkey for caching/.test(m) && /Axme-Session:/.test(m));
    assert.ok(commit, `no commit of the decision with a session trailer:\n${log}`);
    assert.match(commit, new RegExp(`Axme-Session: ${axmeSession(run1).id}`));
  });

  test('guard: git push to main is denied, the reason reaches the model, the remote stays empty', TEST, () => {
    const r = resultOfStep(turns1, STEP.push);
    assert.match(r.error ?? '', /^Tool execution blocked: axme safety: pushing to the protected branch main/);
    assert.equal(git(world.remote, ['for-each-ref']).trim(), '');
  });

  test('guard: cat ~/.ssh/id_rsa is denied and the key never reaches the model', TEST, () => {
    const r = resultOfStep(turns1, STEP.catSsh);
    assert.match(r.error ?? '', /^Tool execution blocked: axme safety: .*\.ssh\/id_rsa is a protected path \(~\/\.ssh\/id_\*\)/);
    for (const req of requests1) assert.ok(!req.raw.includes(SSH_CANARY), `the key reached the model in ${req.url}`);
    assert.ok(!run1.stdout.includes(SSH_CANARY));
  });

  test('guard: read_file of a *.pem is denied and its content never reaches the model', TEST, () => {
    const r = resultOfStep(turns1, STEP.readPem);
    assert.match(r.error ?? '', /^Tool execution blocked: .*certs\/server\.pem is a protected path \(\*\.pem\)/);
    for (const req of requests1) assert.ok(!req.raw.includes(PEM_CANARY), `the certificate reached the model in ${req.url}`);
  });

  test("guard: write_file to .gemini/settings.json is denied as axme's own state; the file is unchanged", TEST, () => {
    const r = resultOfStep(turns1, STEP.writeSettings);
    assert.match(r.error ?? '', /^Tool execution blocked: .*\.gemini\/settings\.json is axme's own state/);
    assert.equal(readFileSync(join(world.project, '.gemini', 'settings.json'), 'utf8'), settingsBefore);
  });

  test('guard: removing a safety rule through MCP is denied (known bug: Gemini names the tool mcp_axme_axme_update_safety)', TEST, async () => {
    const r = resultOfStep(turns1, STEP.removeRule);
    assert.deepEqual(await cli(world, ['safety', 'show', '--json']), safetyBefore, `the rule was removed; the model was told: ${r.text}`);
    assert.match(r.error ?? '', /^Tool execution blocked: .*\bis for the user\b/);
  });

  test('git hooks: a commit without the marker, made by a script, is refused (known bug: Gemini CLI empties core.hooksPath)', TEST, () => {
    const subjects = git(world.project, ['log', '--format=%s', 'main']);
    assert.doesNotMatch(subjects, /Add a without the marker/, `the commit landed; the model was told: ${resultOfStep(turns1, STEP.scriptCommit).text}`);
  });

  test('git hooks: a commit with the marker carries the trailers and a note', TEST, () => {
    const ran = resultOfStep(turns1, STEP.markedCommit).text;
    // Gemini CLI refuses a command holding `$(`, backticks, `<(` or `>(` outside single quotes: a rewrite by a hook too
    assert.doesNotMatch(ran, /Command injection detected/, ran);
    const sha = git(world.project, ['log', '--format=%H', '--grep=^Add b', 'main']).trim();
    assert.ok(sha, `no commit "Add b": ${ran}`);
    const msg = git(world.project, ['log', '-1', '--format=%B', sha]);
    assert.match(msg, /^Axme-PR: none$/m, msg);
    assert.match(msg, /^Axme-Repo: acme\/demo$/m, msg);
    assert.match(msg, new RegExp(`^Axme-Session: ${axmeSession(run1).id}$`, 'm'), msg);
    const note = git(world.project, ['notes', '--ref=axme', 'list']).includes(sha) ? git(world.project, ['notes', '--ref=axme', 'show', sha]) : '';
    assert.match(note, /^repo: acme\/demo$/m, `no note on ${sha}`);
  });

  test('git hooks: the session record lists the commit', TEST, async () => {
    const sha = git(world.project, ['log', '--format=%H', '--grep=^Add b', 'main']).trim();
    const detail = await cli(world, ['session', 'show', axmeSession(run1).id, '--json']);
    assert.ok(detail.commit_list.includes(sha), `commits on record: ${JSON.stringify(detail.commit_list)}, the commit: ${sha}`);
  });

  test('session end: the close and the end (reason exit) are recorded', TEST, () => {
    const s = axmeSession(run1);
    assert.equal(s.end_reason, 'exit', JSON.stringify(s));
    assert.ok(s.ended, JSON.stringify(s));
    assert.equal(s.status, 'closed', JSON.stringify(s));
    assert.match(resultOfStep(turns1, STEP.finalize).text, /handoff/i);
    const handoff = git(world.project, ['show', `refs/memory/main:handoffs/${s.id}.md`]);
    assert.ok(handoff.includes(STARTUP), handoff);
  });

  test("the next session starts with the first one's handoff", TEST, () => {
    const ctx = hookContext(turns2[0]!);
    assert.match(ctx, /## Say this to the user first/);
    assert.ok(ctx.includes(STARTUP), ctx);
    assert.notEqual(axmeSession(run2).id, axmeSession(run1).id);
  });

  test('the transcript: ~/.gemini/tmp/<project>/chats/session-*.jsonl, a header then messages, tool calls and their results', TEST, async () => {
    assert.equal(transcripts1.length, 1, JSON.stringify(transcripts1));
    const path = transcripts1[0]!;
    assert.ok(path.startsWith(join(world.home, '.gemini', 'tmp', 'project', 'chats', 'session-')), path);
    assert.equal((await cli(world, ['session', 'show', axmeSession(run1).id, '--json'])).transcript, path);
    const lines = readJsonl(path);
    assert.equal(lines[0]!.sessionId, sessionIdOf(run1));
    const messages = lines.filter((l) => typeof l.id === 'string');
    assert.ok(messages.some((m) => m.type === 'user' && JSON.stringify(m.content).includes('Choose the cache')));
    const calls = messages.flatMap((m) => (Array.isArray(m.toolCalls) ? (m.toolCalls as any[]) : []));
    assert.ok(
      calls.some((c) => c.name === 'mcp_axme_axme_save_decision' && c.status === 'success'),
      JSON.stringify(calls.map((c) => c.name)),
    );
    assert.ok(calls.some((c) => c.name === 'run_shell_command' && c.status === 'error'));
    assert.ok(messages.some((m) => m.type === 'gemini' && m.content === 'Session closed.'));
    // the auditor's fixture (a transcript of this client version) has the shape of a fresh one
    const fixture = readJsonl(join(import.meta.dirname, '../fixtures/transcripts/gemini-0.61.0.jsonl'));
    const fresh = readJsonl(geminiTranscripts(world.home).at(-1)!);
    assert.deepEqual(shape(fixture), shape(fresh));
  });
});
