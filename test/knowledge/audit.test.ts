/**
 * The post-session auditor end to end: a realistic transcript, the official SDKs pointed at a
 * local stand-in of both wire formats (and a fake `claude` on PATH), real commits in a real
 * repository. What the model answers is scripted; what axme sends, writes and logs is checked.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { claimAudit, readAuditLog, readSessionAudit, writeSessionAudit } from '../../src/knowledge/audit/audit-state.ts';
import { auditTranscript } from '../../src/knowledge/audit/audit-transcript.ts';
import { auditsDue, MAX_ATTEMPTS } from '../../src/knowledge/audit/audit-worker.ts';
import { finalizeClose } from '../../src/knowledge/close/finalize-close.ts';
import type { KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { addDecision } from '../../src/knowledge/items/decision/add-decision.ts';
import { auditLog, audit as auditOp } from '../../src/operations/audit/audit.ts';
import { processAlive } from '../../src/session/owner.ts';
import { axmeIn } from '../cli-in-process.ts';
import { coreAt, exitCodeOf, rejectsWith, withCore } from '../core.ts';
import { axme, CLI, cleanEnv, git, TS_NODE_ARGS } from '../helpers.ts';
import { fakeClaude } from '../llm/fake-claude.ts';
import { answer, fencedJson, invalidJson, type StandIn, startStandIn, truncated } from '../llm/stand-in.ts';
import { cliJson, cliText } from '../store-fixture.ts';
import { assistantLine, toolResult, toolUse, userLine } from '../transcript/fixture.ts';
import { processesEnded, until } from '../until.ts';
import { workerDone } from './audit-support.ts';
import { storeCopies } from './fixture-copies.ts';

const AWS_KEY = 'AKIAIOSFODNN7EXAMPLQ';

/** A session as Claude Code writes it: prompts, parallel tool calls and results, a subagent, a compaction, a 5 MB tool output, a malformed line, a credential. */
function writeTranscript(dir: string, name = 'e2b7c0de-1111-2222-3333-444455556666.jsonl'): string {
  const path = join(dir, name);
  transcriptText ??= `${transcriptLines().join('\n')}\n`;
  writeFileSync(path, transcriptText);
  return path;
}
// made once: every test writes the same session
let transcriptText: string | undefined;

function transcriptLines(): string[] {
  return [
    userLine('u1', null, 'Set up caching for the API. We use Valkey, not Redis: Redis changed its licence.'),
    assistantLine('a1', 'u1', [
      { type: 'thinking', thinking: 'Compare the options', signature: 'x' },
      { type: 'text', text: 'I will read the config and the cache module.' },
      toolUse('t1', 'Read', { file_path: 'src/cache.ts' }),
      toolUse('t2', 'Bash', { command: 'cat config/prod.env' }),
    ]),
    userLine('u2', 'a1', [toolResult('t1', 'export const cache = new Valkey();'), toolResult('t2', `AWS_ACCESS_KEY_ID=${AWS_KEY}\nREGION=eu-west-1`)]),
    JSON.stringify({
      type: 'assistant',
      isSidechain: true,
      uuid: 's1',
      parentUuid: null,
      message: { role: 'assistant', content: [{ type: 'text', text: 'SUBAGENT-ONLY-TEXT exploring' }] },
    }),
    '{"type": "user", "message": ',
    assistantLine('a2', 'u2', [{ type: 'text', text: 'Running the full test suite now.' }, toolUse('t3', 'Bash', { command: 'npm test' })]),
    userLine('u3', 'a2', [toolResult('t3', `${'x'.repeat(5 * 1024 * 1024)}\n# pass 120`)]),
    JSON.stringify({
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      compactMetadata: { trigger: 'auto', preTokens: 150000 },
      uuid: 'c1',
    }),
    userLine('u4', 'c1', 'This session is being continued from a previous conversation. Summary: caching with Valkey.', { isCompactSummary: true }),
    userLine('u5', 'u4', `Please always run the linter before committing. My key is ${AWS_KEY}, do not store it.`),
    assistantLine('a3', 'u5', [{ type: 'text', text: 'Noted. Tests pass; the cache module is done.' }]),
  ];
}

const EXTRACTION = {
  decisions: [{ title: 'Use Valkey for caching', decision: 'The API caches in Valkey.', reasoning: 'Redis changed its licence.', enforce: 'advisory' }],
  memories: [{ type: 'feedback', title: 'Run the linter before committing', description: 'The user wants the linter run before every commit.' }],
  questions: [{ question: 'Should the cache TTL be configurable per route?', context: 'Left open in the session.' }],
  stopped_at: 'cache module done',
  summary: 'Set up Valkey caching for the API.',
  next_steps: 'Add cache metrics.',
  test_results: '120 passing',
  worklog_entry: 'Valkey caching set up; tests pass.',
};

describe('the post-session auditor', () => {
  // each test audits in a store of its own: a copy of one initialised repository
  const repos = storeCopies({ commit: false });
  let stand: StandIn;
  let work: string;
  before(async () => {
    stand = await startStandIn();
    work = mkdtempSync(join(tmpdir(), 'axme-audit-'));
  });
  after(async () => {
    await stand.close();
    rmSync(work, { recursive: true, force: true });
  });
  const anthropicEnv = () => cleanEnv({ ANTHROPIC_API_KEY: stand.key, ANTHROPIC_BASE_URL: stand.url, AXME_AUDITOR_PROVIDER: 'anthropic' });
  const audit = (dir: string, o: Record<string, unknown>, env: NodeJS.ProcessEnv = anthropicEnv()) =>
    withCore(dir, (kb: KnowledgeBase) => auditTranscript(kb, { env, ...(o as { transcript: string }) }));

  test('full audit: one commit by auditor with the session trailer; credentials never leave; subagents and oversized output kept out', () =>
    repos.inCopy(async (dir) => {
      const transcript = writeTranscript(work);
      const before = stand.requests.length;
      stand.script(fencedJson(EXTRACTION));
      const r = await audit(dir, { transcript, session: 'sess-full' });
      assert.equal(r.mode, 'full');
      assert.equal(r.provider, 'anthropic');
      assert.ok(r.applied.commit);
      const sent = stand.requests.slice(before);
      assert.equal(sent.length, 1);
      assert.doesNotMatch(sent[0]!.raw, new RegExp(AWS_KEY), 'the planted AWS key never reaches the model');
      assert.match(sent[0]!.raw, /redacted: an AWS access key ID/);
      assert.doesNotMatch(sent[0]!.raw, /SUBAGENT-ONLY-TEXT/, 'sidechains are not part of the main conversation');
      assert.ok(sent[0]!.raw.length < 400_000, `the 5 MB tool output is trimmed (${sent[0]!.raw.length} bytes sent)`);
      assert.match(sent[0]!.raw, /characters trimmed/);
      assert.ok(r.redacted >= 2);
      const msg = git(dir, ['log', '-1', '--format=%B', 'refs/memory/main']);
      assert.match(msg, /^audit: session sess-full - 1 decision, 1 memory, 1 question/);
      assert.match(msg, /Axme-Actor: auditor/);
      assert.match(msg, /Axme-Session: sess-full/);
      assert.equal(git(dir, ['rev-list', '--count', 'refs/memory/main']).trim(), '2', 'init + ONE audit commit');
      const core = coreAt(dir);
      const d = await core.show('decision', 'use-valkey-for-caching');
      assert.equal(d.source, 'auditor');
      assert.equal(d.session, 'sess-full');
      const h = await core.show('handoff', 'sess-full');
      assert.equal(h.source, 'auditor');
      assert.equal(h.stopped_at, 'cache module done');
      assert.equal((await core.list('question')).length, 1);
      const log = readAuditLog(join(dir, '.git')).at(-1)!;
      assert.equal(log.ok, true);
      assert.equal(log.written, 3);
      assert.ok(log.redacted >= 2);
      assert.ok(log.tokens_in > 0);
      assert.equal(log.to_offset, statSync(transcript).size);
    }));

  test('resume: a second audit sends only the bytes added since; --from-start reads it all again', () =>
    repos.inCopy(async (dir) => {
      const transcript = writeTranscript(work, 'resume.jsonl');
      stand.script(answer('{}'));
      const first = await audit(dir, { transcript, session: 'sess-resume' });
      assert.equal(first.from_offset, 0);
      appendFileSync(transcript, `${userLine('u9', 'a3', 'NEW-PROMPT-AFTER-RESUME: also cache the sessions table')}\n`);
      const at = stand.requests.length;
      stand.script(answer('{"decisions": [{"title": "Cache the sessions table", "decision": "Sessions are cached too."}]}'));
      const second = await audit(dir, { transcript, session: 'sess-resume' });
      assert.equal(second.from_offset, first.to_offset);
      const body = stand.requests[at]!.raw;
      assert.match(body, /NEW-PROMPT-AFTER-RESUME/);
      assert.doesNotMatch(body, /Set up caching for the API/, 'what was audited is not sent again');
      assert.deepEqual(
        second.applied.written.decisions.map((x) => x.replace(/^D-\d+ /, '')),
        ['Cache the sessions table'],
      );
      const n = stand.requests.length;
      stand.script(answer('{}'));
      const again = await audit(dir, { transcript, session: 'sess-resume', fromStart: true });
      assert.equal(again.from_offset, 0);
      assert.match(stand.requests[n]!.raw, /Set up caching for the API/);
    }));

  test('dedup: an answer repeating what is stored writes nothing; a supersession becomes a question', () =>
    repos.inCopy(async (dir) => {
      await withCore(dir, (kb) => addDecision(kb, { title: 'Use Valkey for caching', decision: 'The API caches in Valkey.' }));
      const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      const transcript = writeTranscript(work, 'dedup.jsonl');
      stand.script(
        answer(
          JSON.stringify({
            decisions: [
              { title: 'Use valkey for caching!', decision: 'Valkey is the cache.' },
              { title: 'Valkey caching', decision: 'The API caches in Valkey.' },
            ],
          }),
        ),
      );
      const r = await audit(dir, { transcript, session: 'sess-dup', mode: 'verify' });
      assert.equal(r.applied.commit, null, 'nothing new: no commit');
      assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), tip);
      assert.equal(r.applied.dropped.length, 2);
      assert.match(r.applied.dropped[0]!.reason, /the same as D-001/);
      stand.script(
        answer(JSON.stringify({ decisions: [{ title: 'Use Redis 8 for caching', decision: 'Back to Redis 8.', action: 'supersede', supersedes: 'D-001' }] })),
      );
      const s = await audit(dir, { transcript, session: 'sess-dup2', mode: 'verify', fromStart: true });
      assert.deepEqual(s.applied.written.decisions, []);
      assert.equal(s.applied.written.questions.length, 1);
      assert.match(s.applied.written.questions[0]!, /Does "Use Redis 8 for caching" replace D-001/);
      const d = await coreAt(dir).show('decision', 'D-001');
      assert.equal(d.status, 'active', "never superseded behind the user's back");
    }));

  test("verify-only after the agent's own close: its handoff stands, the verify prompt is used", () =>
    repos.inCopy(async (dir) => {
      await withCore(dir, (kb) => finalizeClose(kb, { summary: 'Agent summary', stopped_at: 'agent stopped here', worklog_entry: 'The agent wrote this.' }), {
        actor: 'agent',
        session: 'sess-closed',
      });
      const handoffBefore = git(dir, ['show', 'refs/memory/main:handoffs/sess-closed.md']);
      const transcript = writeTranscript(work, 'verify.jsonl');
      const at = stand.requests.length;
      stand.script(
        answer(
          JSON.stringify({
            memories: [{ type: 'feedback', title: 'Run the linter before committing', description: 'Always lint first.' }],
            summary: 'Auditor summary',
            stopped_at: 'auditor says',
            worklog_entry: 'Auditor found a missed memory.',
          }),
        ),
      );
      const r = await audit(dir, { transcript, session: 'sess-closed', mode: 'full' });
      assert.ok(r.applied.commit);
      assert.equal(git(dir, ['show', 'refs/memory/main:handoffs/sess-closed.md']), handoffBefore, "the agent's handoff is never overwritten");
      assert.equal(r.applied.written.handoff, null);
      const summary = git(dir, ['show', `refs/memory/main:${r.applied.written.summary}`]);
      assert.match(summary, /The agent wrote this\.\n\nAuditor found a missed memory\./);
      assert.match(summary, /^actor: agent$/m);
      assert.match(String(stand.requests[at]!.body!.system), /extract what the next session needs/, 'mode full: the full prompt');
      // no mode given: the agent closed this session itself, so only what it missed is asked for
      stand.script(answer('{}'));
      const n = stand.requests.length;
      const auto = await audit(dir, { transcript, session: 'sess-closed', fromStart: true });
      assert.equal(auto.mode, 'verify');
      assert.match(String(stand.requests[n]!.body!.system), /already closed the session/);
    }));

  test('invalid JSON gets one repair round-trip; invalid twice fails cleanly: nothing written, raw answer logged, marked for retry', () =>
    repos.inCopy(async (dir) => {
      const transcript = writeTranscript(work, 'repair.jsonl');
      const at = stand.requests.length;
      stand.script(
        invalidJson(),
        fencedJson({ memories: [{ type: 'pattern', title: 'Caches live in src/cache', description: 'Cache code is in src/cache.ts.' }] }),
      );
      const ok = await audit(dir, { transcript, session: 'sess-repair' });
      assert.equal(stand.requests.length - at, 2, 'one repair request');
      assert.match(stand.requests[at + 1]!.raw, /could not be used: the JSON does not parse/);
      assert.deepEqual(ok.applied.written.memories, ['caches-live-in-src-cache']);
      const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      stand.script(invalidJson(), answer('still not JSON'));
      await rejectsWith(audit(dir, { transcript, session: 'sess-bad', fromStart: true }), 'UNAVAILABLE', /could not be used, even after asking it to repair/);
      assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), tip, 'nothing written');
      const log = readAuditLog(join(dir, '.git')).at(-1)!;
      assert.equal(log.ok, false);
      assert.equal(log.raw, 'still not JSON');
      const state = readSessionAudit(join(dir, '.git'), 'sess-bad')!;
      assert.equal(state.status, 'failed');
      assert.equal(state.offset, 0, 'the offset does not move: the retry reads it all');
      stand.script(truncated('{"decisions": [{"title": "Cut'), answer('{}'));
      const cut = stand.requests.length;
      await audit(dir, { transcript, session: 'sess-cut', fromStart: true });
      assert.match(stand.requests[cut + 1]!.raw, /cut off at the token limit/);
    }));

  test("an OpenAI-compatible server (Ollama-style) and the user's own `claude` serve the same audit", () =>
    repos.inCopy(async (dir) => {
      const claude = fakeClaude();
      try {
        const transcript = writeTranscript(work, 'providers.jsonl');
        stand.script(answer(JSON.stringify({ decisions: [{ title: 'Cache with Valkey', decision: 'Valkey.' }] })));
        const at = stand.requests.length;
        const o = await audit(
          dir,
          { transcript, session: 'sess-openai' },
          cleanEnv({ OPENAI_BASE_URL: stand.openaiUrl, OPENAI_API_KEY: stand.key, AXME_AUDITOR_PROVIDER: 'openai', AXME_AUDITOR_MODEL: 'llama3.2' }),
        );
        assert.equal(o.provider, 'openai');
        assert.equal(stand.requests[at]!.path, '/v1/chat/completions');
        assert.ok(o.applied.commit);
        const env = cleanEnv({
          ...claude.env('ok', {
            FAKE_CLAUDE_RESULT: JSON.stringify({ memories: [{ type: 'feedback', title: 'Prefer small commits', description: 'Small commits.' }] }),
          }),
          AXME_AUDITOR_PROVIDER: 'auto',
        });
        const c = await audit(dir, { transcript, session: 'sess-cli', fromStart: true }, env);
        assert.equal(c.provider, 'claude-cli');
        assert.deepEqual(c.applied.written.memories, ['prefer-small-commits']);
        assert.doesNotMatch(claude.runs()[0]!.stdin, new RegExp(AWS_KEY));
      } finally {
        claude.remove();
      }
    }));

  test('with review.required the audit is a proposal, not a write to refs/memory/main', () =>
    repos.inCopy(async (dir) => {
      const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      const cfg = git(dir, ['show', 'refs/memory/main:axme.yaml']);
      // review.required through the store's own config
      await withCore(dir, async (kb) => {
        const { mutate } = await import('../../src/knowledge/core/mutate.ts');
        await mutate(kb, () => ({
          result: null,
          files: new Map([['axme.yaml', `${cfg.trimEnd()}\nreview:\n  required: true\n`]]),
          subject: 'config: review required',
          event: 'config.changed',
        }));
      });
      const cfgTip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      assert.notEqual(cfgTip, tip);
      const transcript = writeTranscript(work, 'review.jsonl');
      stand.script(answer(JSON.stringify({ decisions: [{ title: 'Reviewed decision', decision: 'x' }] })));
      const r = await audit(dir, { transcript, session: 'sess-review' });
      assert.equal(r.applied.ref, 'refs/memory/proposals/sess-review');
      assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), cfgTip, 'main untouched');
    }));

  test('in a workspace, decisions scoped to another repository go to its store; the rest and the handoff stay in ONE commit here', async () => {
    const root = mkdtempSync(join(tmpdir(), 'axme-audit-ws-'));
    try {
      for (const n of ['api', 'web']) {
        const d = join(root, n);
        git(root, ['init', '-q', '-b', 'main', d]);
        git(d, ['config', 'user.name', 'Test User']);
        git(d, ['config', 'user.email', 'test@example.com']);
        git(d, ['commit', '-q', '--allow-empty', '-m', 'first']);
      }
      const init = await axmeIn(root, ['init', '--workspace', '--no-claude', '--no-git-hooks', '--no-scan']);
      assert.equal(init.code, 0, init.stderr);
      const api = join(root, 'api');
      const web = join(root, 'web');
      const webTip = git(web, ['rev-parse', 'refs/memory/main']).trim();
      const transcript = writeTranscript(work, 'ws.jsonl');
      stand.script(
        answer(
          JSON.stringify({
            decisions: [
              { title: 'API caches in Valkey', decision: 'Valkey for the API.' },
              { title: 'Web uses a CDN', decision: 'Static files from a CDN.', scope: ['web'] },
              { title: 'Both log as JSON', decision: 'JSON logs.', scope: ['api', 'web'] },
              { title: 'Guessed repository', decision: 'x', scope: ['nope'] },
            ],
            summary: 'Worked on caching.',
          }),
        ),
      );
      const r = await audit(api, { transcript, session: 'sess-ws' });
      const here = r.applied.written.decisions.map((x) => x.replace(/^D-\d+ /, '')).sort();
      assert.deepEqual(here, ['API caches in Valkey', 'Both log as JSON', 'Guessed repository']);
      assert.ok(r.applied.written.handoff, 'the handoff is written here');
      assert.equal(r.others.length, 1);
      assert.ok(r.others[0]!.applied.commit);
      assert.deepEqual(r.others[0]!.applied.written.decisions.map((x) => x.replace(/^D-\d+ /, '')).sort(), ['Both log as JSON', 'Web uses a CDN']);
      assert.equal(r.others[0]!.applied.written.handoff, null, 'no handoff in the other store');
      assert.equal(git(web, ['rev-parse', 'refs/memory/main^']).trim(), webTip, 'one commit in the other store');
      assert.match(git(web, ['log', '-1', '--format=%B', 'refs/memory/main']), /Axme-Actor: auditor/);
      assert.equal(
        git(api, ['log', '--format=%s', 'refs/memory/main'])
          .split('\n')
          .filter((l) => l.startsWith('audit:')).length,
        1,
        'ONE commit here',
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('the CLI: --dry-run --json shows the extraction and writes nothing; audit log; no model is exit 2', () =>
    repos.inCopy(async (dir) => {
      const transcript = writeTranscript(work, 'cli.jsonl');
      const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      stand.script(fencedJson(EXTRACTION));
      // the command run and printed in-process; the whole command line (axmeIn) for the exit 2 of no model and of a missing file
      const j = await cliJson(dir, auditOp, { transcript, session: 'sess-cli-dry', dry_run: true }, { env: anthropicEnv() });
      assert.equal(j.dry_run, true);
      assert.equal(j.commit, null);
      assert.equal(j.extraction.decisions[0].title, 'Use Valkey for caching');
      assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), tip);
      const log = await cliJson(dir, auditLog);
      assert.equal(log.runs.at(-1).dry_run, true);
      const none = await axmeIn(dir, ['audit', transcript], { env: { AXME_AUDITOR_PROVIDER: 'none' } });
      assert.equal(none.code, 2);
      assert.match(none.stderr, /no model to audit with/);
      // no model, and a dry run: the requests it would send are shown (redacted), none is sent, nothing is written
      const sentBefore = stand.requests.length;
      const u = await cliJson(dir, auditOp, { transcript, session: 'sess-no-model', dry_run: true }, { env: cleanEnv({ AXME_AUDITOR_PROVIDER: 'none' }) });
      assert.equal(u.dry_run, true);
      assert.equal(u.provider, 'none');
      assert.equal(u.commit, null);
      assert.ok(u.unsent.length >= 1);
      assert.match(u.unsent[0].user, /We use Valkey, not Redis/);
      assert.doesNotMatch(JSON.stringify(u), new RegExp(AWS_KEY), 'redacted as it would be sent');
      assert.equal(stand.requests.length, sentBefore, 'nothing sent');
      assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), tip);
      const text = await cliText(dir, auditOp, { transcript, session: 'sess-no-model', dry_run: true }, { env: cleanEnv({ AXME_AUDITOR_PROVIDER: 'none' }) });
      assert.match(text, /^Dry run without a model: the full audit of session sess-no-model would send 1 request/);
      assert.match(text, /Nothing was sent or written/);
      const missing = await axmeIn(dir, ['audit', join(work, 'nope.jsonl')], { env: anthropicEnv() });
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /nope\.jsonl is not a readable file: give the path of a session transcript/);
      // a wrong path is said before a missing model, and a folder is not a transcript
      const both = await rejectsWith(
        cliText(dir, auditOp, { transcript: join(work, 'nope.jsonl') }, { env: cleanEnv({ AXME_AUDITOR_PROVIDER: 'none' }) }),
        'INVALID_INPUT',
        /is not a readable file/,
      );
      assert.equal(exitCodeOf(both), 2);
      const folder = await rejectsWith(cliText(dir, auditOp, { transcript: work }, { env: anthropicEnv() }), 'INVALID_INPUT', /is not a readable file/);
      assert.equal(exitCodeOf(folder), 2);
    }));

  test('the SessionEnd hook starts the worker: the session is audited after the hook returned; no model: said once, nothing fails', () =>
    repos.inCopy(async (dir) => {
      const transcript = writeTranscript(work, 'cc-hook-1.jsonl');
      const payload = { session_id: 'cc-hook-1', transcript_path: transcript, cwd: dir };
      const start = await axme(dir, ['hook', 'session-start'], {
        input: JSON.stringify({ ...payload, hook_event_name: 'SessionStart', source: 'startup' }),
        env: anthropicEnv(),
      });
      assert.equal(start.code, 0, start.stderr);
      const id = readFileSync(join(dir, '.git', 'axme', 'sessions', 'harness', 'claude-code-cc-hook-1'), 'utf8').trim();
      stand.script(answer(JSON.stringify({ decisions: [{ title: 'Hook decision', decision: 'Found at session end.' }], summary: 'Hooked.' })));
      const end = await axme(dir, ['hook', 'session-end'], {
        input: JSON.stringify({ ...payload, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }),
        env: anthropicEnv(),
      });
      assert.equal(end.code, 0, end.stderr);
      await workerDone(dir, id);
      const msg = git(dir, ['log', '-1', '--format=%B', 'refs/memory/main']);
      assert.match(msg, new RegExp(`^audit: session ${id} - 1 decision`));
      assert.match(msg, new RegExp(`Axme-Session: ${id}`));
      // without any model: the first session end says so once, the next ones are quiet
      const quiet = cleanEnv({ AXME_AUDITOR_PROVIDER: 'auto', PATH: '/usr/bin:/bin' });
      const p2 = { session_id: 'cc-hook-2', transcript_path: transcript, cwd: dir };
      await axme(dir, ['hook', 'session-start'], { input: JSON.stringify({ ...p2, hook_event_name: 'SessionStart', source: 'startup' }), env: quiet });
      const e1 = await axme(dir, ['hook', 'session-end'], { input: JSON.stringify({ ...p2, hook_event_name: 'SessionEnd', reason: 'other' }), env: quiet });
      assert.equal(e1.code, 0);
      assert.match(e1.stderr, /sessions are not audited after they end/);
      const e2 = await axme(dir, ['hook', 'session-end'], { input: JSON.stringify({ ...p2, hook_event_name: 'SessionEnd', reason: 'other' }), env: quiet });
      assert.equal(e2.code, 0);
      assert.doesNotMatch(e2.stderr, /not audited/);
    }));

  test('one audit of a session at a time: a second one while the first holds the lock is CONFLICT and writes nothing', () =>
    repos.inCopy(async (dir) => {
      const transcript = writeTranscript(work, 'locked.jsonl');
      const release = claimAudit(join(dir, '.git'), 'sess-locked')!;
      assert.ok(release);
      const before = stand.requests.length;
      await rejectsWith(audit(dir, { transcript, session: 'sess-locked' }), 'CONFLICT', /being audited by another process/);
      assert.equal(stand.requests.length, before, 'no model call');
      release();
      stand.script(answer('{}'));
      const r = await audit(dir, { transcript, session: 'sess-locked' });
      assert.equal(r.session, 'sess-locked', 'free again once released');
    }));

  test('a worker killed mid-run leaves its session due again, and the next session start audits it', () =>
    repos.inCopy(async (dir) => {
      const common = join(dir, '.git');
      const transcript = writeTranscript(work, 'cc-killed.jsonl');
      const payload = { session_id: 'cc-killed', transcript_path: transcript, cwd: dir };
      await axme(dir, ['hook', 'session-start'], {
        input: JSON.stringify({ ...payload, hook_event_name: 'SessionStart', source: 'startup' }),
        env: anthropicEnv(),
      });
      const id = readFileSync(join(common, 'axme', 'sessions', 'harness', 'claude-code-cc-killed'), 'utf8').trim();
      stand.script({ kind: 'hang' });
      const asked = stand.requests.length;
      const end = await axme(dir, ['hook', 'session-end'], {
        input: JSON.stringify({ ...payload, hook_event_name: 'SessionEnd', reason: 'other' }),
        env: anthropicEnv(),
      });
      assert.equal(end.code, 0, end.stderr);
      // the worker is waiting for the model: its record says running and it holds the lock
      await until('the worker reaches the model', () => stand.requests.length > asked && readSessionAudit(common, id)?.status === 'running');
      assert.deepEqual(
        auditsDue(common, undefined).map((d) => d.session),
        [],
        "a live worker's session is not due",
      );
      const pid = Number(readFileSync(join(common, 'axme', 'audits', `${id}.lock`), 'utf8').split(' ')[0]);
      process.kill(pid, 'SIGKILL'); // a shutdown or the OOM killer: no finally runs
      await processesEnded([pid]);
      assert.equal(readSessionAudit(common, id)!.status, 'running', 'left as it was');
      assert.deepEqual(
        auditsDue(common, undefined).map((d) => d.session),
        [id],
        'due again: the attempt failed',
      );
      // the next session start finds it and audits it again
      stand.script(answer(JSON.stringify({ decisions: [{ title: 'Recovered decision', decision: 'Found by the retry.' }] })));
      const next = { session_id: 'cc-after', transcript_path: writeTranscript(work, 'cc-after.jsonl'), cwd: dir };
      const start = await axme(dir, ['hook', 'session-start'], {
        input: JSON.stringify({ ...next, hook_event_name: 'SessionStart', source: 'startup' }),
        env: anthropicEnv(),
      });
      assert.equal(start.code, 0, start.stderr);
      await workerDone(dir, id);
      assert.match(git(dir, ['log', '-1', '--format=%B', 'refs/memory/main']), new RegExp(`^audit: session ${id} - 1 decision`));
      const record = readSessionAudit(common, id)!;
      assert.equal(record.status, 'done');
      // a killed run counts as an attempt: one left running with the attempts used up is not retried
      writeSessionAudit(common, id, { ...record, status: 'running', attempts: MAX_ATTEMPTS, offset: 0 });
      assert.deepEqual(
        auditsDue(common, undefined).map((d) => d.session),
        [],
      );
      writeSessionAudit(common, id, { ...record, status: 'running', attempts: MAX_ATTEMPTS - 1, offset: 0 });
      assert.deepEqual(
        auditsDue(common, undefined).map((d) => d.session),
        [id],
      );
    }));

  test('the detached worker finishes after its parent is SIGKILLed', () =>
    repos.inCopy(async (dir) => {
      const transcript = writeTranscript(work, 'worker.jsonl');
      stand.script(answer(JSON.stringify({ decisions: [{ title: 'Worker decision', decision: 'Written by the worker.' }] })));
      const parentScript = `
      const { startAuditWorker } = await import(${JSON.stringify(join(import.meta.dirname, '../../src/knowledge/audit/audit-worker.ts'))});
      startAuditWorker({ self: { execPath: process.execPath, script: ${JSON.stringify(CLI)} }, commonDir: ${JSON.stringify(join(dir, '.git'))}, cwd: ${JSON.stringify(dir)}, env: process.env }, 'sess-worker', ${JSON.stringify(transcript)});
      process.stdout.write('started\\n');
      setInterval(() => {}, 1000);`;
      const parent = spawn(process.execPath, [...TS_NODE_ARGS, '--input-type=module', '-e', parentScript], {
        env: anthropicEnv(),
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => parent.stdout!.once('data', () => resolve()));
      parent.kill('SIGKILL');
      await new Promise((r) => parent.once('exit', r));
      await workerDone(dir, 'sess-worker');
      const msg = git(dir, ['log', '-1', '--format=%B', 'refs/memory/main']);
      assert.match(msg, /audit: session sess-worker - 1 decision/);
      assert.match(msg, /Axme-Actor: auditor/);
      assert.equal(readSessionAudit(join(dir, '.git'), 'sess-worker')!.status, 'done');
      assert.match(readFileSync(join(dir, '.git', 'axme', 'audits', 'log.jsonl'), 'utf8'), /"session":"sess-worker"/);
    }));
});

describe("the model's answer read", () => {
  test('a list where one text belongs says so (not "given more than once", which is about command-line options)', async () => {
    const { parseAnswer } = await import('../../src/knowledge/audit/parse-answer.ts');
    const r = parseAnswer(
      JSON.stringify({ decisions: [{ title: ['Use Valkey', 'for caching'], decision: 'The API caches in Valkey.', reasoning: 'Licence.' }] }),
    );
    assert.equal(r.ok, false);
    assert.match((r as { problem: string }).problem, /decisions\.0\.title: must be one text, not a list/);
    assert.doesNotMatch((r as { problem: string }).problem, /more than once/);
  });
});
