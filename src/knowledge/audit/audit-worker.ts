import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chooseProvider } from '../../llm/choose-provider.ts';
import type { AxmeSelf } from '../../model/axme-self.ts';
import { ownerAlive } from '../../session/list.ts';
import { listSessions } from '../../session/sessions.ts';
import { startDetachedAxme } from '../../store/processes.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { auditInProgress, auditsDir, readSessionAudit } from './audit-state.ts';
import { auditorConfig } from './auditor-config.ts';

/** Set in the worker's environment: a session the auditor's own `claude -p` starts is never audited in turn. */
export const WORKER_ENV = 'AXME_AUDIT_WORKER';
/** A worker's bound: past it the model request is aborted and the session stays marked for retry. */
export const WORKER_DEADLINE_MS = 10 * 60_000;
/** Failed audits of a session are retried at most this many times (at the next session starts). */
export const MAX_ATTEMPTS = 3;
/** Workers one session start launches at most: the sessions past it wait for the next start. */
const MAX_DUE = 5;

/** How a worker is started: the axme to run, the store it audits for, where, with what environment. */
export interface WorkerLaunch {
  self: AxmeSelf;
  commonDir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Whether audits run here at all, and why not: not inside an audit worker (its `claude -p` is a
 * session too), and only with a model (`auto` finding none, or `none`, is a quiet no).
 */
export async function auditsEnabled(kb: KnowledgeBase, env: NodeJS.ProcessEnv): Promise<{ on: boolean; why: string; chosen: boolean }> {
  if (env[WORKER_ENV]) return { on: false, why: 'inside an audit worker', chosen: true };
  const cfg = await auditorConfig(kb, env);
  const choice = chooseProvider(cfg, env);
  // `chosen`: off because someone said so (provider none, enabled: false), not for want of a model
  return { on: choice.name !== 'none', why: choice.why, chosen: cfg.provider === 'none' };
}

/**
 * Starts `axme audit <transcript> --session <id>` as a detached worker in its own process group:
 * it outlives the hook, the editor and the MCP server. Its output goes to
 * `<git common dir>/axme/audits/worker.log`; the run itself is logged (`axme audit log`). One
 * worker per session (the audit lock) and a bounded run time (WORKER_DEADLINE_MS). False when it
 * could not be started, or when the transcript is gone.
 */
export function startAuditWorker(l: WorkerLaunch, session: string, transcript: string): boolean {
  if (!existsSync(transcript)) return false;
  let log: string;
  try {
    log = join(auditsDir(l.commonDir), 'worker.log');
  } catch {
    return false;
  }
  const env = { ...l.env, [WORKER_ENV]: '1', AXME_AUDIT_TIMEOUT_MS: String(WORKER_DEADLINE_MS) };
  return startDetachedAxme(l.self, ['audit', transcript, '--session', session, '--json'], { cwd: l.cwd, env, log }) !== null;
}

/**
 * The sessions to audit at a session start: ended ones whose transcript has bytes no audit has
 * read (an orphan, or a session resumed after its audit), and failed audits — a worker killed
 * mid-run included — not yet retried MAX_ATTEMPTS times. Never the session starting now, nor one
 * a live worker is auditing. At most MAX_DUE, in the order the sessions are listed.
 */
export function auditsDue(commonDir: string, current: string | undefined): Array<{ session: string; transcript: string }> {
  const due: Array<{ session: string; transcript: string }> = [];
  for (const s of listSessions(commonDir)) {
    if (s.meta.id === current) continue;
    const a = readSessionAudit(commonDir, s.meta.id);
    // the path its start recorded, else the one its end gave the audit (Gemini CLI names its file only once it writes it)
    const transcript = s.meta.transcriptPath ?? a?.transcript;
    // a session still running is its own business: only ended, closed, recovered or orphaned ones
    if (!transcript || (!s.ended && ownerAlive(s.meta))) continue;
    if (a?.status === 'running' && auditInProgress(commonDir, s.meta.id)) continue;
    // failed, or left `running` by a worker killed mid-run: retried until MAX_ATTEMPTS
    if ((a?.status === 'failed' || a?.status === 'running') && a.attempts >= MAX_ATTEMPTS) continue;
    if (a?.status === 'done' && a.transcript === transcript && a.offset >= sizeOf(transcript)) continue;
    if (existsSync(transcript)) due.push({ session: s.meta.id, transcript });
    if (due.length === MAX_DUE) break;
  }
  return due;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
