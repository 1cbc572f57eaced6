import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import type { AxmeSelf } from '../model/axme-self.ts';

/** What /proc/<pid>/stat says of a process (Linux; null elsewhere or when it is gone). */
export interface ProcInfo {
  ppid: number;
  comm: string;
  /** start time in clock ticks since boot: with the pid, it names one process (pids are reused) */
  start: number;
  /** Z: exited, not yet reaped by its parent */
  state: string;
}

export function proc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid ... — comm may hold spaces and parentheses: split at the last ')'
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const rest = stat.slice(close + 2).split(' ');
    const ppid = Number(rest[1]);
    // field 22 of stat; rest[0] is field 3
    const start = Number(rest[19]);
    return Number.isInteger(ppid) ? { ppid, comm, start, state: rest[0] ?? '' } : null;
  } catch {
    return null;
  }
}

/** When a process started (clock ticks since boot), or null where /proc cannot tell. */
export function processStart(pid: number): number | null {
  const s = proc(pid)?.start;
  return s !== undefined && Number.isFinite(s) ? s : null;
}

/**
 * Whether the process `pid` (started at `start`, when known) still runs on this machine. A pid
 * now used by a different process — its start time differs — counts as gone; so does a zombie.
 * A process of another user (EPERM) runs.
 */
export function processAlive(pid: number, start?: number | null): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const info = proc(pid);
  if (info) return info.state !== 'Z' && (start === undefined || start === null || info.start === start);
  try {
    process.kill(pid, 0);
    // no /proc entry but the signal check passes: a system without /proc
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Starts `self` with `args` detached, in its own process group: it outlives this process (a hook,
 * the editor, the MCP server), and nothing here waits for it. Its output is appended to `log`, or
 * dropped (null). Never throws, nor ends this process: its pid, or null when it could not be
 * started at once (a start that fails later, its folder gone, costs only the worker).
 */
export function startDetachedAxme(self: AxmeSelf, args: readonly string[], opts: { cwd: string; env: NodeJS.ProcessEnv; log: string | null }): number | null {
  let log: number | undefined;
  try {
    if (opts.log !== null) log = openSync(opts.log, 'a');
    const out = log ?? 'ignore';
    const child = spawn(self.execPath, [self.script, ...args], { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', out, out] });
    // a start that fails later (its folder or node gone) is reported as an 'error' event: unheard, it would end this process
    child.on('error', () => {});
    child.unref();
    return child.pid ?? null;
  } catch {
    return null;
  } finally {
    if (log !== undefined) closeSync(log);
  }
}
