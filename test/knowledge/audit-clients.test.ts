/**
 * The auditor on Gemini CLI and Codex sessions: the transcript is read in the format of the client
 * the session ran in (its record's harness, as the hooks wrote it), else the one its first line
 * names; a transcript of which nothing is understood is a failed audit that says why, never `done`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readAuditLog, readSessionAudit } from '../../src/knowledge/audit/audit-state.ts';
import { auditTranscript } from '../../src/knowledge/audit/audit-transcript.ts';
import { auditsDue } from '../../src/knowledge/audit/audit-worker.ts';
import type { KnowledgeBase } from '../../src/knowledge/core/kb.ts';
import { recordEvent, sessionForHarness } from '../../src/session/sessions.ts';
import { rejectsWith, withCore } from '../core.ts';
import { axme, cleanEnv, git } from '../helpers.ts';
import { answer, type StandIn, startStandIn } from '../llm/stand-in.ts';
import { codexSession, geminiSession } from '../transcript/client-lines.ts';
import { inRepo, workerDone } from './audit-support.ts';

const FOUND = JSON.stringify({
  decisions: [{ title: 'Keep all dates in UTC', decision: 'Dates are stored and compared in UTC.' }],
  summary: 'Fixed the date test.',
  stopped_at: 'date test fixed',
  worklog_entry: 'Fixed the date test (UTC).',
});

describe('the auditor reads Gemini CLI and Codex sessions', () => {
  let stand: StandIn;
  let work: string;
  before(async () => {
    stand = await startStandIn();
    work = mkdtempSync(join(tmpdir(), 'axme-audit-clients-'));
  });
  after(async () => {
    await stand.close();
    rmSync(work, { recursive: true, force: true });
  });
  const env = () => cleanEnv({ ANTHROPIC_API_KEY: stand.key, ANTHROPIC_BASE_URL: stand.url, AXME_AUDITOR_PROVIDER: 'anthropic' });
  const audit = (dir: string, o: Record<string, unknown>) =>
    withCore(dir, (kb: KnowledgeBase) => auditTranscript(kb, { env: env(), ...(o as { transcript: string }) }));
  const write = (name: string, lines: string[]) => {
    const path = join(work, name);
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  };
  /** A session record as the hooks of `harness` create it, ended. */
  const session = (dir: string, harness: string, harnessId: string, transcript: string | null) => {
    const common = join(dir, '.git');
    const meta = sessionForHarness(common, harness, harnessId, {
      cwd: dir,
      transcriptPath: transcript,
      now: new Date(),
      owner: () => ({ pid: 0, start: null }),
    });
    recordEvent(common, meta.id, { t: new Date().toISOString(), type: 'end', reason: 'exit' });
    return meta.id;
  };

  test('a Gemini CLI session through its hooks: the session end starts the worker, which reads the file as Gemini CLI\u2019s', () =>
    inRepo(async (dir) => {
      const transcript = write('session-2026-11-28T14-10-7e4620c8.jsonl', geminiSession('gem-hook-1'));
      const payload = { session_id: 'gem-hook-1', transcript_path: transcript, cwd: dir };
      const start = await axme(dir, ['hook', 'session-start', '--client', 'gemini'], {
        input: JSON.stringify({ ...payload, hook_event_name: 'SessionStart', source: 'startup' }),
        env: env(),
      });
      assert.equal(start.code, 0, start.stderr);
      const id = readFileSync(join(dir, '.git', 'axme', 'sessions', 'harness', 'gemini-gem-hook-1'), 'utf8').trim();
      stand.script(answer(FOUND));
      const asked = stand.requests.length;
      const end = await axme(dir, ['hook', 'session-end', '--client', 'gemini'], {
        input: JSON.stringify({ ...payload, hook_event_name: 'SessionEnd', reason: 'exit' }),
        env: env(),
      });
      assert.equal(end.code, 0, end.stderr);
      await workerDone(dir, id);
      const sent = stand.requests.slice(asked);
      assert.equal(sent.length, 1, 'the conversation went to the model');
      assert.match(sent[0]!.raw, /Fix the failing date test/);
      assert.match(sent[0]!.raw, /expected 10, got 11/);
      assert.match(sent[0]!.raw, /Decided to keep all dates in UTC/);
      assert.doesNotMatch(sent[0]!.raw, /session_context/);
      const log = readAuditLog(join(dir, '.git')).at(-1)!;
      assert.equal(log.ok, true, log.error);
      assert.equal(log.client, 'gemini');
      assert.equal(log.chunks, 1);
      assert.match(git(dir, ['log', '-1', '--format=%B', 'refs/memory/main']), new RegExp(`^audit: session ${id} - 1 decision`));
    }));

  test('a Codex rollout: read as Codex\u2019s from its session\u2019s record; by hand, without a session, from its first line, mapped to the session', () =>
    inRepo(async (dir) => {
      const transcript = write('rollout-2026-11-28T14-10-09-01a2227d-f58e-7602-91cc-a053c4d10aac.jsonl', codexSession('01a2227d-f58e-7602-91cc-a053c4d10aac'));
      const id = session(dir, 'codex', '01a2227d-f58e-7602-91cc-a053c4d10aac', transcript);
      stand.script(answer(FOUND));
      const asked = stand.requests.length;
      const r = await audit(dir, { transcript, session: id });
      assert.equal(r.client, 'codex');
      assert.equal(r.chunks, 1);
      assert.ok(r.applied.commit);
      const raw = stand.requests[asked]!.raw;
      assert.match(raw, /Fix the failing date test/);
      assert.match(raw, /apply_patch/);
      assert.doesNotMatch(raw, /environment_context/, 'what Codex injected is left out');
      // by hand: no --session, no record to ask: the first line says Codex and names the thread, which maps to the session
      stand.script(answer('{}'));
      const again = await audit(dir, { transcript, fromStart: true });
      assert.equal(again.session, id);
      assert.equal(again.client, 'codex');
      assert.equal(again.chunks, 1);
    }));

  test('read as the wrong client, nothing is understood: a failed audit that says why, logged, due again; never done', () =>
    inRepo(async (dir) => {
      const common = join(dir, '.git');
      // the finding: a Gemini CLI file read as Claude Code's skipped every line and was recorded done
      const transcript = write('gem-as-claude.jsonl', geminiSession('gem-wrong'));
      const id = session(dir, 'claude-code', 'cc-wrong', transcript);
      const asked = stand.requests.length;
      await rejectsWith(
        audit(dir, { transcript, session: id }),
        'INVALID_INPUT',
        /none of the 15 lines of .*gem-as-claude\.jsonl is a Claude Code conversation entry \(.*\): it is not a Claude Code transcript/,
      );
      assert.equal(stand.requests.length, asked, 'nothing was sent to the model');
      const state = readSessionAudit(common, id)!;
      assert.equal(state.status, 'failed');
      assert.equal(state.offset, 0);
      assert.match(state.error!, /is a Claude Code conversation entry/);
      const log = readAuditLog(common).at(-1)!;
      assert.equal(log.ok, false);
      assert.equal(log.client, 'claude-code');
      assert.deepEqual(
        auditsDue(common, undefined).map((d) => d.session),
        [id],
        'retried at the next session start',
      );
      // named right, it is read
      stand.script(answer('{}'));
      const ok = await audit(dir, { transcript, session: id, client: 'gemini' });
      assert.equal(ok.chunks, 1);
      assert.equal(readSessionAudit(common, id)!.status, 'done');
      // a session whose start named no file (Gemini CLI before its chat file exists): its failed audit is retried with the file its end named
      const late = session(dir, 'gemini', 'gem-late', null);
      const garbage = write('gem-late.jsonl', [JSON.stringify({ sessionId: 'gem-late', projectHash: 'p' }), JSON.stringify({ $set: { lastUpdated: 'x' } })]);
      await rejectsWith(audit(dir, { transcript: garbage, session: late }), 'INVALID_INPUT', /is a Gemini CLI conversation entry \(1 session, 1 \$set\)/);
      assert.deepEqual(
        auditsDue(common, undefined).find((d) => d.session === late),
        { session: late, transcript: garbage },
      );
    }));

  test('an unknown format, a Codex session whose rollout holds no conversation, a missing file: failed with why; an empty file has nothing to audit', () =>
    inRepo(async (dir) => {
      const common = join(dir, '.git');
      const asked = stand.requests.length;
      const unknown = write('unknown.jsonl', [JSON.stringify({ event: 'start', at: 1 }), JSON.stringify({ event: 'stop', at: 2 })]);
      const mcp = session(dir, 'mcp', 'mcp-self-1', unknown);
      await rejectsWith(
        audit(dir, { transcript: unknown, session: mcp }),
        'INVALID_INPUT',
        /cannot tell which client wrote .*unknown\.jsonl: its first line is not a Claude Code, Gemini CLI or Codex transcript line/,
      );
      assert.equal(readSessionAudit(common, mcp)!.status, 'failed');
      const events = write(
        'events-only.jsonl',
        codexSession('cx-events').filter((l) => !l.includes('"response_item"')),
      );
      const cx = session(dir, 'codex', 'cx-events', events);
      await rejectsWith(
        audit(dir, { transcript: events, session: cx }),
        'INVALID_INPUT',
        /is a Codex conversation entry \(1 session_meta|is a Codex conversation entry \(.*event_msg/,
      );
      assert.equal(readSessionAudit(common, cx)!.status, 'failed');
      const missing = join(work, 'gone.jsonl');
      await rejectsWith(audit(dir, { transcript: missing, session: 'sess-gone' }), 'INVALID_INPUT', /gone\.jsonl is not a readable file/);
      assert.equal(readSessionAudit(common, 'sess-gone')!.status, 'failed');
      assert.match(readAuditLog(common).at(-1)!.error!, /gone\.jsonl is not a readable file/);
      assert.equal(stand.requests.length, asked, 'no model call for any of them');
      // an empty file: nothing to misread, nothing to audit
      const empty = write('empty.jsonl', []);
      writeFileSync(empty, '');
      const r = await audit(dir, { transcript: empty, session: 'sess-empty', client: 'gemini' });
      assert.equal(r.chunks, 0);
      assert.equal(readSessionAudit(common, 'sess-empty')!.status, 'done');
    }));
});
