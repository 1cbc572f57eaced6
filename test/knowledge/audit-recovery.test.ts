/**
 * The auditor's handoff survives orphan recovery. A session ends without the agent's close: its
 * SessionEnd starts the audit worker, which writes a handoff (`source: auditor`) from the whole
 * transcript; the next session start recovers the ended session. Recovery keeps that handoff and
 * the audit's summary (the audit's cost and content are not thrown away) and only marks the
 * session recovered. All through the real hooks, the real worker and real commits.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readSession, sessionStatus } from '../../src/session/sessions.ts';
import { coreAt } from '../core.ts';
import { axme, cleanEnv, git } from '../helpers.ts';
import { answer, type StandIn, startStandIn } from '../llm/stand-in.ts';
import { assistantLine, toolResult, toolUse, userLine } from '../transcript/fixture.ts';
import { inRepo, workerDone } from './audit-support.ts';

describe('orphan recovery after an audit', () => {
  let stand: StandIn;
  let work: string;
  before(async () => {
    stand = await startStandIn();
    work = mkdtempSync(join(tmpdir(), 'axme-audit-recovery-'));
  });
  after(async () => {
    await stand.close();
    rmSync(work, { recursive: true, force: true });
  });
  const env = () => cleanEnv({ ANTHROPIC_API_KEY: stand.key, ANTHROPIC_BASE_URL: stand.url, AXME_AUDITOR_PROVIDER: 'anthropic' });

  test("the next session start recovers the ended session but keeps the auditor's handoff and summary: no commit, the session marked recovered", () =>
    inRepo(async (dir) => {
      const common = join(dir, '.git');
      const transcript = join(work, 'cc-rec-1.jsonl');
      writeFileSync(
        transcript,
        `${[
          userLine('u1', null, 'Move the retry logic into src/retry.ts. We never retry POST requests.'),
          assistantLine('a1', 'u1', [
            { type: 'text', text: 'Moving it.' },
            toolUse('t1', 'Write', { file_path: join(dir, 'src/retry.ts'), content: 'export {}' }),
          ]),
          userLine('u2', 'a1', [toolResult('t1', 'File created.')]),
          assistantLine('a2', 'u2', [{ type: 'text', text: 'Done; POST is never retried. Tests still to run.' }]),
        ].join('\n')}\n`,
      );
      const payload = { session_id: 'cc-rec-1', transcript_path: transcript, cwd: dir };
      const start = await axme(dir, ['hook', 'session-start'], {
        input: JSON.stringify({ ...payload, hook_event_name: 'SessionStart', source: 'startup' }),
        env: env(),
      });
      assert.equal(start.code, 0, start.stderr);
      const id = readFileSync(join(common, 'axme', 'sessions', 'harness', 'claude-code-cc-rec-1'), 'utf8').trim();
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, 'src', 'retry.ts'), 'export {}\n');
      const edit = await axme(dir, ['hook', 'post-tool-use'], {
        input: JSON.stringify({ ...payload, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(dir, 'src', 'retry.ts') } }),
        env: env(),
      });
      assert.equal(edit.code, 0, edit.stderr);

      // the session ends without a close: the worker audits it and writes the handoff
      stand.script(
        answer(
          JSON.stringify({
            decisions: [{ title: 'Never retry POST requests', decision: 'Only idempotent requests are retried.' }],
            summary: 'Moved the retry logic into src/retry.ts.',
            stopped_at: 'AUDITOR-STOPPED-AT: retry logic moved, tests not run yet',
            next_steps: 'Run the test suite.',
            startup_text: 'AUDITOR-STARTUP: the retry move is done; run the tests.',
            worklog_entry: 'AUDITOR-WORKLOG: moved the retry logic.',
          }),
        ),
      );
      const end = await axme(dir, ['hook', 'session-end'], {
        input: JSON.stringify({ ...payload, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }),
        env: env(),
      });
      assert.equal(end.code, 0, end.stderr);
      await workerDone(dir, id);
      const handoffPath = `handoffs/${id}.md`;
      const audited = git(dir, ['show', `refs/memory/main:${handoffPath}`]);
      assert.match(audited, /^source: auditor$/m);
      const summaryPath = git(dir, ['ls-tree', '-r', '--name-only', 'refs/memory/main', 'sessions/'])
        .split('\n')
        .find((p) => p.endsWith(`/${id}.md`))!;
      const summary = git(dir, ['show', `refs/memory/main:${summaryPath}`]);
      assert.match(summary, /AUDITOR-WORKLOG/);
      const tip = git(dir, ['rev-parse', 'refs/memory/main']).trim();
      assert.equal(
        sessionStatus(readSession(common, id)!, () => false),
        'orphan',
        'ended without a close: an orphan to recover',
      );

      // the next session starts: recovery runs before its context is built
      const next = { session_id: 'cc-rec-2', transcript_path: join(work, 'cc-rec-2.jsonl'), cwd: dir };
      const start2 = await axme(dir, ['hook', 'session-start'], {
        input: JSON.stringify({ ...next, hook_event_name: 'SessionStart', source: 'startup' }),
        env: env(),
      });
      assert.equal(start2.code, 0, start2.stderr);
      assert.equal(git(dir, ['show', `refs/memory/main:${handoffPath}`]), audited, "the auditor's handoff is kept as it was");
      assert.equal(git(dir, ['show', `refs/memory/main:${summaryPath}`]), summary, "and the audit's summary");
      assert.equal(git(dir, ['rev-parse', 'refs/memory/main']).trim(), tip, 'nothing to write: no commit');
      const after = readSession(common, id)!;
      assert.ok(after.recovered, 'the session is marked recovered');
      assert.equal(
        sessionStatus(after, () => false),
        'recovered',
      );
      assert.match(start2.stdout, /AUDITOR-STARTUP/, 'the next session is told what the auditor found');
      const h = await coreAt(dir).show('handoff', id);
      assert.equal(h.source, 'auditor');
      assert.match(h.stopped_at, /^AUDITOR-STOPPED-AT/);
      // asked again (by hand), still nothing to do
      const again = await axme(dir, ['session', 'recover', id], { env: env() });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /already recovered/);
    }));
});
