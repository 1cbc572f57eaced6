import { readFileSync } from 'node:fs';

/**
 * Which harness process a hook or git command runs under, from the process tree (Linux /proc;
 * elsewhere only the parent is known). Claude Code runs hook commands and Bash tool commands
 * through a shell, so the harness is the first ancestor that is not a shell.
 */

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'fish', 'timeout', 'env']);

interface ProcInfo {
  ppid: number;
  comm: string;
}

function proc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid ... — comm may hold spaces and parentheses: split at the last ')'
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? { ppid, comm } : null;
  } catch {
    return null;
  }
}

/** The process ids above `pid`, nearest first (at most 64; empty where /proc is missing). */
export function ancestors(pid: number): number[] {
  const out: number[] = [];
  for (let p = proc(pid)?.ppid ?? 0; p > 1 && out.length < 64; p = proc(p)?.ppid ?? 0) out.push(p);
  return out;
}

/** The harness above a hook whose parent is `ppid`: the first ancestor that is not a shell. */
export function harnessPid(ppid: number): number {
  for (let p = ppid, hops = 0; p > 1 && hops < 16; hops++) {
    const info = proc(p);
    if (!info) return p;
    if (!SHELLS.has(info.comm)) return p;
    p = info.ppid;
  }
  return ppid;
}
