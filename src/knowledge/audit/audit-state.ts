import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditLogEntry, AuditMode } from '../../model/audit.ts';
import { claimLockFile, lockFileHeld } from '../../session/claim-lock.ts';
import { writeFileAtomicSync } from '../../store/atomic-file.ts';

/**
 * What this machine keeps about audits (never committed: it is about this clone's transcripts),
 * under `<git common dir>/axme/audits/`:
 * - `<session>.json`: the transcript audited, the byte offset audited up to (the next audit reads
 *   only what came after), and the outcome of the last run (a failed one is retried);
 * - `<session>.lock`: the pid of the worker auditing the session now (one at a time);
 * - `log.jsonl`: one line per run (`axme audit log`), the newest LOG_KEPT kept.
 */

const LOG_KEPT = 500;

export interface SessionAudit {
  transcript: string;
  /** bytes of the transcript audited: the next run starts here */
  offset: number;
  status: 'done' | 'failed' | 'running';
  mode: AuditMode;
  attempts: number;
  error?: string;
  updated: string;
}

export function auditsDir(commonDir: string): string {
  const dir = join(commonDir, 'axme', 'audits');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function readSessionAudit(commonDir: string, session: string): SessionAudit | null {
  try {
    const v = JSON.parse(readFileSync(join(auditsDir(commonDir), `${session}.json`), 'utf8')) as SessionAudit;
    return typeof v.offset === 'number' && typeof v.transcript === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** Written to a temporary file and renamed: a crash never leaves half a record. */
export function writeSessionAudit(commonDir: string, session: string, a: SessionAudit): void {
  writeFileAtomicSync(join(auditsDir(commonDir), `${session}.json`), `${JSON.stringify(a, null, 2)}\n`);
}

/** Appends one run to the log, keeping the newest LOG_KEPT. */
export function appendAuditLog(commonDir: string, entry: AuditLogEntry): void {
  const path = join(auditsDir(commonDir), 'log.jsonl');
  appendFileSync(path, `${JSON.stringify(entry)}\n`);
  try {
    if (statSync(path).size < 4 * 1024 * 1024) return;
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    if (lines.length > LOG_KEPT) writeFileAtomicSync(path, `${lines.slice(-LOG_KEPT).join('\n')}\n`);
  } catch {
    // a log that cannot be trimmed is still a log
  }
}

/** The runs, oldest first; a line that does not parse is left out. */
export function readAuditLog(commonDir: string): AuditLogEntry[] {
  let text: string;
  try {
    text = readFileSync(join(auditsDir(commonDir), 'log.jsonl'), 'utf8');
  } catch {
    return [];
  }
  const out: AuditLogEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as AuditLogEntry);
    } catch {
      // skipped
    }
  }
  return out;
}

/**
 * Takes the session's audit lock: a release function, or null when a live process holds it
 * (however long it has run). A lock whose process is gone (killed, machine restarted) is taken over.
 */
export function claimAudit(commonDir: string, session: string): (() => void) | null {
  return claimLockFile(join(auditsDir(commonDir), `${session}.lock`), new Date(), Infinity);
}

/**
 * Whether a live process holds the session's audit lock now. A record left `running` with no such
 * process is a worker that was killed mid-run (a shutdown, the OOM killer): a failed attempt.
 */
export function auditInProgress(commonDir: string, session: string): boolean {
  return lockFileHeld(join(auditsDir(commonDir), `${session}.lock`));
}
