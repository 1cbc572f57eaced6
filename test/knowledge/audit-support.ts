// What the auditor's tests share: a repository with axme initialised, and waiting for a detached
// audit worker to finish (its log line, its lock gone, its process ended).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAuditLog } from '../../src/knowledge/audit/audit-state.ts';
import { processAlive } from '../../src/session/owner.ts';
import { initCore } from '../core.ts';
import { tempRepo } from '../helpers.ts';
import { until } from '../until.ts';

/** Runs `fn` in a new repository with axme initialised, removed afterwards. */
export async function inRepo(fn: (dir: string) => Promise<void>): Promise<void> {
  const { dir, cleanup } = tempRepo();
  try {
    await initCore(dir);
    await fn(dir);
  } finally {
    cleanup();
  }
}

/** Whether a process running `axme audit … --session <session>` (a worker) is alive on this machine (Linux: /proc). */
export function workerRunning(session: string): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return false; // no /proc: the audit log and the lock are all there is to wait for
  }
  for (const pid of pids) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.includes('audit') && args.includes('--session') && args[args.indexOf('--session') + 1] === session && processAlive(Number(pid))) return true;
    } catch {
      // gone while looked at
    }
  }
  return false;
}

/**
 * Waits for a detached worker to finish its audit of `session` and exit: its line in the audit
 * log is written after the commit and the session's state, its lock goes after that, and its
 * process ends after the knowledge base is closed (the derived cache written) — so neither the
 * checks nor the test's cleanup race anything it still writes.
 */
export async function workerDone(dir: string, session: string): Promise<void> {
  await until(
    `the audit of ${session} finishes`,
    () =>
      readAuditLog(join(dir, '.git')).some((e) => e.session === session) &&
      !existsSync(join(dir, '.git', 'axme', 'audits', `${session}.lock`)) &&
      !workerRunning(session),
  );
}
