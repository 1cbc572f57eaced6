import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../until.ts';
import { requestText, systemText } from './anthropic.ts';
import type { SeenRequest } from './model-server.ts';
import type { ClientWorld } from './project.ts';

/** What the scripted auditor's model answers in the real-client tests: one decision and the handoff the next session must start from. */
export const AUDIT_EXTRACTION = {
  decisions: [{ title: 'Cache API responses in Valkey', decision: 'The API caches its responses in Valkey.', reasoning: 'Redis changed its licence.' }],
  stopped_at: 'AUDITOR-HANDOFF: the cache is wired, metrics are next',
  summary: 'Wired the Valkey cache.',
  next_steps: 'Add cache metrics.',
  worklog_entry: 'Valkey cache wired in.',
  startup_text: 'Say: cache metrics are next.',
};

/** A request the auditor sent (its system prompt), not one of the agent's turns. */
export const isAuditRequest = (r: SeenRequest) => systemText(r).startsWith("You are the auditor of a coding agent's session");

/** Whether a process auditing `session` (a detached worker: `axme audit … --session <id>`) is alive (Linux: /proc). */
function auditorRunning(session: string): boolean {
  if (!existsSync('/proc')) return false;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.includes('audit') && args[args.indexOf('--session') + 1] === session) return true;
    } catch {
      // gone while looked at
    }
  }
  return false;
}

/**
 * Waits for the session-end worker's audit of `session`: its line in the audit log, its lock gone,
 * its process gone. Polls the files the worker writes (there is no event to wait on across
 * processes); fails after 180 s with the worker's log.
 */
export async function auditDone(w: ClientWorld, session: string): Promise<any> {
  const dir = join(w.project, '.git', 'axme', 'audits');
  const worker = join(dir, 'worker.log');
  return until(
    `the audit of ${session} finishes`,
    () => {
      const log = existsSync(join(dir, 'log.jsonl')) ? readFileSync(join(dir, 'log.jsonl'), 'utf8') : '';
      const line = log
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .findLast((e) => e.session === session);
      return line && !existsSync(join(dir, `${session}.lock`)) && !auditorRunning(session) && line;
    },
    { detail: () => `worker.log: ${existsSync(worker) ? readFileSync(worker, 'utf8') : '(none)'}` },
  );
}

/**
 * What the session-end auditor read, as its model was asked (`auditor`'s requests): the audit
 * succeeded, the user's `prompt` and the shell `tool`'s call and result holding `marker` were in
 * it, and the whole transcript (`transcript`, the session's) was read in `audit.chunks` requests.
 */
export function assertAuditRead(
  auditor: { requests: SeenRequest[] },
  audit: any,
  transcript: string,
  expected: { prompt: string; tool: string; marker: string },
): void {
  const asked = auditor.requests.filter(isAuditRequest);
  assert.equal(audit.ok, true, JSON.stringify(audit));
  assert.ok(asked.length >= 1, `no audit request reached the model; log: ${JSON.stringify(audit)}`);
  const user = asked.map((r) => requestText(r)).join('\n');
  assert.ok(user.includes(`<user>${expected.prompt}</user>`), user.slice(0, 3000));
  assert.match(user, new RegExp(`<tool name="${expected.tool}">[^<]*echo ${expected.marker}`), user.slice(0, 3000));
  assert.match(user, new RegExp(`<tool_result name="${expected.tool}">[^<]*${expected.marker}`), user.slice(0, 3000));
  assert.equal(audit.mode, 'full');
  assert.ok(audit.chunks >= 1 && asked.length >= audit.chunks, `${asked.length} requests for ${audit.chunks} chunks`);
  assert.equal(audit.to_offset, statSync(transcript).size, 'the whole transcript was read');
}
